/*
** sym.h: symbols and lexical scopes for the checker.
**
** A Symbol is anything a name can mean: a variable (local, shader
** parameter or function formal), a shader global, the constant PI, a user
** function or a shader. Nodes point at symbols after checking, so symbols
** outlive scopes: they are pooled and freed together by sym_free_all.
** Scopes are a chain from the innermost block outwards; a scope that
** starts a function body is a boundary that outer variables cross only
** through "extern".
*/
#ifndef RSLC_SYM_H
#define RSLC_SYM_H

#include "rslc/ast.h"
#include "rslc/check.h"

typedef enum SymKind {
    SYM_VAR,        /* local variable, shader parameter or function formal */
    SYM_GLOBAL,     /* predefined shader variable (P, Ci, ...) */
    SYM_CONST,      /* PI */
    SYM_FUNC,       /* user function */
    SYM_SHADER      /* a shader: kept apart from variables and functions,
                       since nothing refers to one; named for diagnostics */
} SymKind;

typedef struct Symbol Symbol;
struct Symbol {
    SymKind kind;
    const char *name;
    Type type;              /* variable type; return type of a function */
    /* Variables: uniform or varying, or DETAIL_DEFAULT for a function
       formal declared without either, which follows its argument.
       Functions: the detail of the returned value in the same sense. */
    Detail detail;
    Node *decl;             /* N_VARDECL, N_FUNCTION or N_SHADER; NULL for
                               globals and PI */
    const GlobalVar *global;/* SYM_GLOBAL */
    bool param;             /* shader parameter or function formal */
    bool output;            /* declared "output": writable parameter */
    bool assigned;          /* an assignment has been seen (uninitialised
                               variable analysis) */
    int vdepth;             /* varying conditions around the declaration */
    /* A uniform variable last assigned under a varying condition: that
       assignment and the outermost such condition. Reading the variable
       outside the condition is an error (which points took the branch
       would decide its value); a later whole assignment clears it. */
    const Node *taint_write, *taint_region;
    /* Function formals: the detail of values the body assigns to an
       output formal, as for function results. */
    Detail written;
    Symbol *next_overload;  /* SYM_FUNC: next function of this name
                               declared in the same scope */
    bool in_body;           /* SYM_FUNC: its body is being checked */
};

typedef struct Scope Scope;
struct Scope {
    Scope *parent;
    bool boundary;          /* the formals scope of a function */
    Symbol **syms;
    int nsyms, cap;
    int *index;             /* hash of names -> syms index + 1, 0: free;
                               kept once a scope outgrows a short search */
    int icap;
};

/* Allocates a symbol in rc's pool; all other fields zero. */
Symbol *sym_new(RslcCtx *rc, SymKind kind, const char *name);
/* Frees every symbol of rc allocated since the last call. */
void sym_free_all(RslcCtx *rc);

/* Opens a scope inside parent (NULL for the file scope). */
Scope *scope_push(Scope *parent, bool boundary);
/* Closes s (not its symbols) and returns its parent. */
Scope *scope_pop(Scope *s);
/* Adds sym to s under sym->name. */
void scope_add(Scope *s, Symbol *sym);
/* The symbol named name declared in s itself, or NULL. */
Symbol *scope_find_local(const Scope *s, const char *name);
/* The innermost symbol named name visible from s, or NULL. *crossed, if
   given, is set when it lies beyond a function boundary. */
Symbol *scope_find(const Scope *s, const char *name, bool *crossed);

#endif /* RSLC_SYM_H */
