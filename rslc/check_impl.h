/*
** check_impl.h: what the parts of the checker share: its state while it
** walks a unit (check.c: declarations and statements), expressions
** (check_expr.c) and calls with overload resolution (check_call.c).
*/
#ifndef RSLC_CHECK_IMPL_H
#define RSLC_CHECK_IMPL_H

#include "rslc/ast.h"
#include "rslc/builtins.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "rslc/sym.h"

/* The enclosing varying conditions, outermost first (vcond_at): one
   stack for the whole unit, which saved Checkers share. */
typedef struct CondStack {
    const Node **at;
    int cap;
} CondStack;

/* Where the checker is. Saved and restored around function bodies; every
   part of the checker takes the one of the unit being checked. */
typedef struct Checker {
    RslcCtx *rc;            /* the compilation: diagnostics, symbols */
    CondStack *conds;       /* vdepth deep */
    Scope *scope;
    Scope *shaders;         /* the shaders defined so far, by name */
    ShaderKind kind;        /* the enclosing shader's kind; SHADER_FUNCTION
                               in a top-level function */
    Symbol *func;           /* innermost function being checked, or NULL */
    int loops;              /* enclosing loops in this body */
    int nvars;              /* variables declared in this function or shader
                               (RSLC_MAX_VARS) */
    int vdepth;             /* enclosing varying conditions (vcond_at) */
    int vfloor;             /* those outside the current function body,
                               which its statements do not run under */
    Detail ctx;             /* join of the enclosing conditions' details */
    Detail ret;             /* join of the returned values' details */
    bool region;            /* inside illuminance, illuminate or solar */
    bool defer_read;        /* an identifier being checked is not (yet) a
                               read: an assignment target, or a bare
                               argument settled once its parameter is
                               known (settle_arg) */
} Checker;

/* An expected type ("want") is a Type. want_none() expects nothing; a weak
   want (arraylen WANT_WEAK) comes through arithmetic and only decides the
   type of triple literals, never an overload. */
#define WANT_WEAK (-2)
static inline Type want_none(void) { return type_make(TY_ERROR); }

/* ---- details: uniform < default (follows a function's formals) < varying */

Detail detail_join(Detail a, Detail b);

/* ---- check_expr.c ------------------------------------------------------------ */

/* Checks expression e, filling type, detail, sym and builtin. */
void check_expr(Checker *ck, Node *e, Type want);
/* Checks e where a value of type `to` is stored (initialiser, assignment,
   return): e is checked wanting `to`, then must convert to it. what
   names the destination for messages ("variable 'x'"). Returns false
   after reporting a mismatch. */
bool check_value_for(Checker *ck, Node *e, Type to, const char *what);
/* Checks a condition (if, while, for, ?:): a comparison or a float. */
void check_cond(Checker *ck, Node *e);
/* Bitmask (1u << TypeBase) of the types e could take instead of its own
   (always including its own): triple literals take any triple type, and
   with calls set, a call whose overload follows context. */
unsigned expr_alt(Checker *ck, const Node *e, bool calls);
/* Gives e type t, which must be in expr_alt(ck, e, true). */
void expr_retype(Checker *ck, Node *e, TypeBase t);
/* Makes a comparison used as a value the float 1 or 0 (check_expr.c). */
void bool_to_float(Checker *ck, Node *e);
/* After "cannot assign varying value to uniform": a note naming the
   variable that makes value varying, if one does. A local declared
   without a storage class is varying (RISpec 11.7), the usual surprise,
   so the note then points at its declaration. */
void note_varying_source(Checker *ck, const Node *value);
/* Checks that lhs (N_IDENT or N_INDEX) may be assigned a value of detail
   `detail` here; whole: the assignment replaces the variable's value
   entirely; value: the expression assigned, which a varying-to-uniform
   error's note searches for where the varying comes from (NULL: none).
   Marks the variable assigned. Returns its symbol, or NULL after an
   error. */
Symbol *check_assign_target(Checker *ck, Node *lhs, Detail detail, bool whole,
                            const Node *value);
/* e's detail once assigned to a variable of detail want: random() draws
   once per batch (uniform) when e goes to a uniform variable and is
   varying only through random() calls, which it then marks uniform. */
Detail check_uniform_random(Node *e, Detail want);
/* Resolves an identifier and reports unavailable or invisible names;
   NULL after an error. */
Symbol *resolve_ident(Checker *ck, Node *e);
/* The i-th enclosing varying condition, outermost first (i < ck->vdepth). */
const Node *vcond_at(Checker *ck, int i);
/* Reports sym's assignment under a varying condition (taint_write) as an
   error with a note at the condition, and clears it; the caller adds a note
   saying where the value is read. */
void check_tainted(Checker *ck, Symbol *sym);
/* Checks a read of variable sym at use: warns once if nothing has
   assigned it yet, and reports an assignment to it under a varying
   condition that this read, outside the condition, would observe. */
void check_read(Checker *ck, const Node *use, Symbol *sym);
/* Checks a[i]; with defer_root the root variable's read is not counted
   (an assignment target, or an argument that may be an output). */
void check_index(Checker *ck, Node *e, bool defer_root);
/* The variable at the root of an lvalue (a or a[i]), or NULL. */
Node *lvalue_root(Node *e);

/* ---- check_call.c ------------------------------------------------------------ */

/* Checks an N_CALL: arguments, overload resolution, outputs, options. */
void check_call(Checker *ck, Node *e, Type want);
/* The return types of the overloads a checked call could equally have
   chosen (mask as for expr_alt), and re-resolves it for one of them. */
unsigned call_alt(Checker *ck, const Node *e);
void call_retype(Checker *ck, Node *e, TypeBase t);
/* Checks one call argument; a bare variable's read is deferred to
   settle_arg, since the parameter may be an output. */
void check_arg(Checker *ck, Node *arg);
/* Settles argument number argno of what: an output parameter needs an
   assignable variable that can take a value of detail `written`; any
   other bare variable is a read. Returns false after an error. */
bool settle_arg(Checker *ck, Node *arg, bool output, Detail written, const char *what,
                int argno);
/* Checks the name/value pairs of options in list against set. what names
   the call for messages. */
void check_options(Checker *ck, Node *list, BuiltinOptSet set, const char *what);

#endif /* RSLC_CHECK_IMPL_H */
