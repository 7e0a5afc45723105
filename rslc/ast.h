/*
** ast.h: the typed abstract syntax tree of an RSL translation unit.
**
** The grammar (gram.y) only builds nodes; the checker (check.c) fills in
** the semantic fields (type, detail, symbol, builtin). Every node has the
** same shape: a kind, a source location, up to four children, a sibling
** link for lists, and a few scalar fields whose meaning depends on the
** kind. The table below is the one place that says which field means what.
*/
#ifndef RSLC_AST_H
#define RSLC_AST_H

#include "rslc/ctx.h"
#include "rslc/types.h"

/* A source position after preprocessing, mapped back through "# line"
   markers to the original file. Lines and columns count from 1. */
typedef struct SrcLoc {
    const char *file;   /* interned; lives as long as the compilation */
    int line, col;
    int inl;            /* in IR: the inlined call it came through, an index
                           of its function's frames (ir.h); 0: its own code */
} SrcLoc;

/* Declared type and storage of a variable, parameter or function. */
typedef struct DeclSpec {
    Type type;
    Detail detail;
    bool output;        /* "output" parameter */
    bool is_extern;     /* "extern" declaration in a nested function */
} DeclSpec;

/*
** Node kinds. Fields not named for a kind are unused (zero/NULL).
**   kid[i]  children        next  sibling in a list
**   name    identifier, string literal text (unescaped), or space name
**   num     float literal value; level of break/continue
**   op      operator (an Op value) for unary, binary and assignment nodes
**   spec    declared type and storage
**   shader  shader type, for N_SHADER
**
**  kind            fields
**  N_SHADER        shader, name, kid[0]=formals(list of N_VARDECL),
**                  kid[1]=body (N_BLOCK)
**  N_FUNCTION      spec (return type; base TY_VOID for void), name,
**                  kid[0]=formals, kid[1]=body. Nested functions appear
**                  as statements inside blocks.
**  N_VARDECL       spec, name, kid[0]=initialiser or NULL. One node per
**                  declared name: "float a = 1, b[2];" gives two nodes.
**                  Formals are N_VARDECLs too (kid[0] = default value).
**  N_BLOCK         kid[0]=statement list
**  N_EXPRSTMT      kid[0]=expression
**  N_EMPTY         (a lone ";")
**  N_IF            kid[0]=cond, kid[1]=then, kid[2]=else or NULL
**  N_WHILE         kid[0]=cond, kid[1]=body
**  N_FOR           kid[0]=init expr or NULL, kid[1]=cond or NULL,
**                  kid[2]=step or NULL, kid[3]=body
**  N_BREAK         num=level (1 when not written)
**  N_CONTINUE      num=level (1 when not written)
**  N_RETURN        kid[0]=value or NULL
**  N_ILLUMINANCE   kid[0]=argument list (optional leading category string,
**                  then position [, axis, angle]), kid[1]=body
**  N_ILLUMINATE    kid[0]=argument list (position [, axis, angle]),
**                  kid[1]=body
**  N_SOLAR         kid[0]=argument list (empty, or axis, angle), kid[1]=body
**  N_GATHER        kid[0]=argument list (category, P, dir, angle, samples,
**                  then name/value pairs), kid[1]=hit body,
**                  kid[2]=miss body or NULL
**  N_FLOATLIT      num
**  N_STRINGLIT     name=text
**  N_IDENT         name (PI is an ordinary identifier, resolved by the
**                  checker as a constant)
**  N_INDEX         kid[0]=array (or texture name), kid[1]=index
**  N_UNARY         op (OP_NEG, OP_NOT), kid[0]
**  N_BINARY        op, kid[0], kid[1]
**  N_ASSIGN        op (OP_ASSIGN, OP_ADD, OP_SUB, OP_MUL, OP_DIV),
**                  kid[0]=lvalue (N_IDENT or N_INDEX), kid[1]=value
**  N_TERNARY       kid[0]=cond, kid[1]=then, kid[2]=else
**  N_CALL          name, kid[0]=argument list
**  N_CAST          spec.type=target base type, name=space or NULL,
**                  kid[0]=operand. "point "world" (1,2,3)" is an N_CAST of
**                  an N_TRIPLE; "matrix "shader" 1" an N_CAST of a float.
**  N_TRIPLE        kid[0], kid[1], kid[2]: "(x, y, z)"; its type is decided
**                  by an enclosing N_CAST or by context (default point)
**  N_MATRIX16      kid[0]=list of 16 expressions: "(a, b, ..., p)"
**  N_ARRAYINIT     kid[0]=list of element expressions: "{a, b, c}"
*/
#define NODE_KINDS(X) \
    X(N_SHADER) X(N_FUNCTION) X(N_VARDECL) \
    X(N_BLOCK) X(N_EXPRSTMT) X(N_EMPTY) X(N_IF) X(N_WHILE) X(N_FOR) \
    X(N_BREAK) X(N_CONTINUE) X(N_RETURN) \
    X(N_ILLUMINANCE) X(N_ILLUMINATE) X(N_SOLAR) X(N_GATHER) \
    X(N_FLOATLIT) X(N_STRINGLIT) X(N_IDENT) X(N_INDEX) X(N_UNARY) \
    X(N_BINARY) X(N_ASSIGN) X(N_TERNARY) X(N_CALL) X(N_CAST) X(N_TRIPLE) \
    X(N_MATRIX16) X(N_ARRAYINIT)

typedef enum NodeKind {
#define X(k) k,
    NODE_KINDS(X)
#undef X
    N_NKINDS
} NodeKind;

/* Operators. ORDER OP: op_name in ast.c follows this order. */
typedef enum Op {
    OP_NONE,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV,     /* + - * / (also compound assigns) */
    OP_DOT, OP_CROSS,                   /* . ^ */
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
    OP_AND, OP_OR,                      /* && || */
    OP_NEG, OP_NOT,                     /* unary - ! */
    OP_ASSIGN                           /* = */
} Op;

struct Symbol;
struct Builtin;

typedef struct Node Node;
struct Node {
    NodeKind kind;
    SrcLoc loc;
    Node *next;
    Node *kid[4];
    const char *name;
    double num;
    Op op;
    DeclSpec spec;
    ShaderKind shader;

    /* Set by the checker. */
    Type type;                  /* type of an expression's value */
    Detail detail;              /* DETAIL_UNIFORM or DETAIL_VARYING */
    struct Symbol *sym;         /* N_IDENT, N_VARDECL, N_CALL of a user fn */
    const struct Builtin *builtin; /* N_CALL of a builtin */
};

/* A parsed translation unit: top-level shaders and functions in order. */
typedef struct Unit {
    Node *defs;
} Unit;

/* Allocates a node of the given kind at loc, all other fields zero. Nodes
   live in rc's arena, freed by ast_free_all. */
Node *ast_new(RslcCtx *rc, NodeKind kind, SrcLoc loc);
/* Allocates an empty unit in the same arena. */
Unit *ast_new_unit(RslcCtx *rc);
/* Appends b to the list a (either may be NULL) and returns the head. */
Node *ast_append(Node *a, Node *b);
/* Number of nodes in a list. */
int ast_list_len(const Node *list);
/* Returns a node nested more than limit levels deep, or NULL. Recursive
   passes over the tree call this first so hostile input cannot exhaust
   the C stack. */
const Node *ast_too_deep(const Unit *unit, int limit);
/* Interns a string in the compilation's arena; equal strings share one
   pointer, so names compare with ==. */
const char *ast_intern(RslcCtx *rc, const char *s);
/* Frees every node and interned string of rc. */
void ast_free_all(RslcCtx *rc);

/* The name of a node kind ("N_BINARY") and of an operator ("+"). */
const char *ast_kind_name(NodeKind kind);
const char *ast_op_name(Op op);

/* Prints the tree in the --dump-ast form: one node per line, indented by
   depth, with its location, fields and (after checking) type and detail. */
#include <stdio.h>
void ast_dump(FILE *out, const Unit *unit);
/* Prints s as a quoted RSL string literal, escaping what needs it (the
   AST dump and the IR text form share it). */
void ast_print_string(FILE *out, const char *s);

#endif /* RSLC_AST_H */
