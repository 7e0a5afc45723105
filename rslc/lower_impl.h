/*
** lower_impl.h: what the parts of the lowering share: the state while
** one function is built (lower.c: functions, shaders and statements;
** lower_funcs.c: the unit's functions and their captures;
** lower_expr.c: expressions and calls), the SSA construction over source
** variables (ssa.c) and the uniformity inference run afterwards
** (uniform.c).
**
** Conventions the lowering adds to ir.h (the backends rely on them):
**  - A user function's IR parameters are its formals, then its captures:
**    the variables of enclosing functions or shaders (extern) and the
**    shader globals its body, or a function it calls, uses. Each capture
**    is passed in by the caller and, when the function assigns it, is
**    also an output passed back. So a function never reads or writes a
**    global behind its caller's back: P written by the shader before a
**    call is what the call sees.
**  - callout i reads output parameter i. A function that has output
**    parameters (declared or captures) and returns a value returns it
**    through one more output parameter, "return", placed last; the IR
**    function is then void. So `ret` carries exactly the outputs.
**  - A builtin with output arguments (fresnel, setcomp, rayinfo, output
**    options) is an intrin of type tuple; callout i reads argument i's
**    final value, callout -1 the builtin's own result.
**  - texture("map"[c], ...): the channel travels as one more option pair
**    "channel", c at the end of the call.
**  - In a region body L, Cl, Ol are `light 0/1/2` (illuminance) and L is
**    `light 0` (illuminate, solar). In a gather hit body, `light k` is the
**    value the hit gives for name/value option pair k (counted from 0 over
**    all pairs) whose value is an output: the variable takes it on entry.
**  - A shader parameter whose default is not a constant gets IrParam.def
**    NULL and its default from the function "SHADER.defaults", which takes
**    every shader parameter (in order, each an output) and returns them
**    with the computed defaults filled in; the renderer calls it when it
**    instances the shader, before binding the values it was given.
*/
#ifndef RSLC_LOWER_IMPL_H
#define RSLC_LOWER_IMPL_H

#include "rslc/builtins.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "rslc/ir.h"
#include "rslc/sym.h"

/* ---- source variables in SSA form (ssa.c) ----------------------------------------------- */

/* What a variable holds on entry to the function, before any assignment. */
typedef enum VarEntry {
    VE_UNDEF,       /* a local, or the result: undef (ir.h) */
    VE_PARAM,       /* parameter `param` of the function */
    VE_GLOBAL,      /* shader global: gget at the top of the entry block */
    VE_NOREGION     /* L, Cl, Ol outside a light region: an error */
} VarEntry;

typedef struct Var {
    const void *key;        /* Symbol* or GlobalVar*; the function's Node*
                               for its result */
    const char *name;
    IrType type;
    VarEntry entry;
    int param;
    bool written;           /* assigned somewhere in this function */
    int dbg;                /* its debug variable (ir.h), -1 for none */
    SrcLoc written_at;
    IrVal **def;            /* current definition by block id (Braun's
                               currentDef), NULL where not known yet */
    int capdef;
} Var;

/* Per block: sealed once all its predecessors are known. */
typedef struct BlockState {
    bool sealed;
    IrBlock *vpred;         /* gather's miss block: entered from its header
                               by the region, not by an edge */
    IrIns **iphi;           /* incomplete phis of an unsealed block */
    int *ivar;
    int niphi, capiphi;
} BlockState;

/* break/continue targets, innermost last. Regions are barriers: jumps do
   not leave them (they stay structured); illuminate and solar are no
   loops for the count. */
typedef struct Jump {
    IrBlock *brk, *cont;    /* regions: cont made on first continue */
    bool loop, region;
} Jump;

typedef struct FuncInfo FuncInfo;

/* What the lowering of one unit shares across its functions: the
   compilation it reports to, and (lower_funcs.c) the unit's functions and
   shaders and which of them declares each variable. */
typedef struct LowerUnit {
    RslcCtx *rc;
    FuncInfo **infos;
    int ninfos, capinfos;
    struct Owner { const Symbol *sym; FuncInfo *fi; } *owners;
    int nowners, capowners;
} LowerUnit;

typedef struct Lower {
    LowerUnit *u;
    IrModule *m;
    IrFunc *fn;
    FuncInfo *info;          /* the function or shader being built */
    ShaderKind kind;         /* shader kind; SHADER_FUNCTION in functions */
    IrBlock *cur;            /* where code goes; NULL after a jump */
    Var *vars;
    int nvars, capvars;
    BlockState *bs;
    int capbs;
    IrVal **fwd;             /* removed trivial phi (by id) -> its value */
    int capfwd;
    bool *busy;              /* phis whose operands are being read */
    int capbusy;
    IrIns **dead;            /* removed phis, deleted when the function is done */
    int ndead, capdead;
    IrIns *prologue;         /* last entry value at the top of the entry block */
    Jump *jumps;
    int njumps, capjumps;
    IrBlock *exit;           /* where return goes */
    int region_depth;
} Lower;

void *lower_alloc(size_t n);
void *lower_grow(void *p, int *cap, int need, size_t size);

/* The variable for key (made on first use from the other arguments). */
int var_get(Lower *L, const void *key, const char *name, IrType type, VarEntry entry,
            int param);
IrBlock *ssa_block(Lower *L);
void ssa_seal(Lower *L, IrBlock *b);
void ssa_write(Lower *L, int var, IrBlock *b, IrVal *v);
IrVal *ssa_read(Lower *L, int var, IrBlock *b, SrcLoc loc);
/* Deletes the phis that turned out trivial; frees the per-function state. */
void ssa_finish(Lower *L);

/* ---- lower.c, lower_funcs.c -------------------------------------------------------------------------------- */

/* A variable a function uses from outside: extern or shader global. */
typedef struct Capture {
    Symbol *sym;
    bool written;
} Capture;

struct FuncInfo {
    Node *def;               /* N_FUNCTION or N_SHADER */
    IrFunc *fn;
    FuncInfo *owner;         /* enclosing function or shader, or NULL */
    Capture *caps;
    int ncaps, capcaps;
    int nouts;               /* output parameters, captures included */
    int ret_param;           /* index of the "return" output, or -1 */
};

/* lower_funcs.c: the unit's functions and shaders (callees first) with
   their captures; lower_forget frees them. */
FuncInfo **lower_collect(LowerUnit *u, const Unit *unit, int *n);
void lower_forget(LowerUnit *u);
FuncInfo *lower_func_info(const LowerUnit *u, const Symbol *fn);
/* The function or shader that declares variable sym. */
FuncInfo *lower_owner(const LowerUnit *u, const Symbol *sym);

/* lower.c: the variable that holds sym in the function being built. */
int lower_var(Lower *L, Symbol *sym);
IrType lower_type(Type t);
IrIns *emit(Lower *L, IrOp op, IrType type, SrcLoc loc);
/* Ends the current block with a jump to b (if code can reach here). */
void lower_jump(Lower *L, IrBlock *b, SrcLoc loc);

/* ---- lower_expr.c ------------------------------------------------------------------------- */

/* The value of e; NULL only for void calls. */
IrVal *lower_expr(Lower *L, const Node *e);
/* Lowers a condition as jumps: to t when it holds, else to f. */
void lower_cond(Lower *L, const Node *e, IrBlock *t, IrBlock *f);
/* v converted to type to: splat, retype, or as is. */
IrVal *lower_convert(Lower *L, IrVal *v, Type to, SrcLoc loc);
/* Stores v into the lvalue lhs (N_IDENT or N_INDEX), converted to its type. */
void lower_store(Lower *L, const Node *lhs, IrVal *v);
/* The constant value of a literal expression as type to, or NULL. */
IrConst *lower_const(IrFunc *fn, const Node *e, Type to);
/* Is argument i of a call or gather statement an output? */
bool lower_arg_is_output(const LowerUnit *u, const Node *call, int i);
/* Adds the arguments of a region statement to the region instruction,
   converted to the statement's form. */
void lower_region_args(Lower *L, const Node *s, IrIns *region);

/* ---- uniform.c ---------------------------------------------------------------------------- */

/* Infers uniform/varying for every value of fn (callees done before). */
void uniform_infer(IrFunc *fn);

#endif /* RSLC_LOWER_IMPL_H */
