/*
** ir.h: rslc's SSA intermediate representation, shared by every pass and
** every backend (bytecode VM, LLVM x86-64, LLVM NVPTX).
**
** A module holds functions (shaders and user functions). A function is a
** graph of basic blocks; a block is a list of instructions that starts with
** its phis and ends with exactly one terminator. Every instruction that
** produces a value IS that value (IrIns begins with an IrVal), so operands
** are IrVal pointers: instruction results, constants or undef.
**
** Uniform/varying: every value carries `varying`. A value is uniform when
** all its operands are uniform and it is not control dependent on a
** varying branch (a phi at the join of a varying branch is varying). A
** branch (br) whose condition is varying is a varying branch: backends run
** both sides under execution masks. Parameters start uniform unless
** declared varying; globals such as P are varying.
**
** Light and gather loops stay structured: the `region` terminator of a
** header block enters region fn->regions[imm], whose kind, arguments and
** blocks the backends implement over lights or rays. L, Cl and Ol inside
** are `light` instructions.
**
** Uninitialised variables: reading a local before any assignment yields
** the IR value `undef` of its type. Passes may assume any value for undef;
** backends materialise it as zero, so programs behave deterministically.
**
** Every instruction keeps the source location it came from, for the line
** table, the debugger and diagnostics.
*/
#ifndef RSLC_IR_H
#define RSLC_IR_H

#include <stdbool.h>
#include <stdio.h>

#include "rslc/ast.h"
#include "rslc/ops.h"

/* ---- types ------------------------------------------------------------------ */

/* IR value kinds. Triples keep their RSL flavour: the point/vector/normal
   distinction matters to transform() and to the backends' space handling. */
typedef enum IrKind {
    IRT_VOID, IRT_BOOL, IRT_FLOAT,
    IRT_COLOR, IRT_POINT, IRT_VECTOR, IRT_NORMAL,
    IRT_MATRIX, IRT_STRING,
    IRT_TUPLE              /* the result of a call with output arguments */
} IrKind;

typedef struct IrType {
    IrKind kind;
    int arraylen;          /* 0 = scalar; > 0 = fixed-length array */
} IrType;

/* ---- values ------------------------------------------------------------------ */

typedef enum IrValKind { IRV_INS, IRV_CONST, IRV_UNDEF } IrValKind;

typedef struct IrIns IrIns;
typedef struct IrBlock IrBlock;
typedef struct IrFunc IrFunc;

/* One use of a value: operand `index` of instruction `user`. */
typedef struct IrUse {
    IrIns *user;
    int index;
} IrUse;

typedef struct IrVal {
    IrValKind kind;
    IrType type;
    bool varying;
    int id;                /* printed as %id; unique within a function */
    IrUse *uses;           /* def-use chain, maintained by ir.c */
    int nuses, capuses;
} IrVal;

/* A constant, interned per function: equal constants are one pointer.
   Floats, triples and matrices use f[0..n-1]; strings use s (interned);
   arrays store arraylen * (1, 3 or 16) floats in fa. */
typedef struct IrConst {
    IrVal val;
    float f[16];
    const char *s;
    float *fa;
} IrConst;

/* ---- instructions and blocks ----------------------------------------------- */

enum { IR_PIN_VARYING = 1, IR_PIN_UNIFORM = -1 };

struct IrIns {
    IrVal val;             /* the result; val.type.kind == IRT_VOID if none */
    IrOp op;
    IrBlock *block;
    IrIns *prev, *next;    /* order within the block */
    IrVal **args;          /* operands; phis: one per predecessor, in order */
    int nargs, capargs;
    IrBlock *succ[2];      /* successors of terminators */
    int imm;               /* param/output index, builtin row (BO_*), callout index,
                              light value, region index */
    const char *sym;       /* global name (gget/gset), callee name (call) */
    IrFunc *callee;        /* call */
    int pin;               /* intrin: the detail the checker fixed (uniform.c):
                              IR_PIN_VARYING runs per point whatever its
                              operands (a BF_OUTDETAIL call into a varying
                              variable), IR_PIN_UNIFORM once per batch
                              (random() in a uniform context); 0 by its
                              row and operands */
    SrcLoc loc;            /* loc.inl: the inlined frame it runs in */
    int *dbg;              /* debug: the source variables (fn->dbgvars
                              indices) whose value this is */
    int ndbg, capdbg;
};

struct IrBlock {
    int id;                /* printed as @id */
    IrFunc *fn;
    IrIns *first, *last;   /* phis first, terminator last */
    IrBlock **preds;
    int npreds, cappreds;
    IrBlock *next, *prev;  /* layout order in the function */

    /* Analyses (cfg.c); valid after ir_fill_* until the CFG changes. */
    int rpo;               /* reverse postorder number, -1 if unreachable */
    IrBlock *idom;         /* immediate dominator */
    int dom_pre, dom_last; /* preorder number in the dominator tree and the
                              largest in its subtree; -1 until filled */
    int loop_depth;
};

/* ---- regions: illuminance, illuminate, solar, gather --------------------- */

typedef enum IrRegionKind {
    IRR_ILLUMINANCE,       /* loop over lights: body once per visible light */
    IRR_ILLUMINATE,        /* light shader: body once if the point is lit */
    IRR_SOLAR,             /* light shader: distant light, body once */
    IRR_GATHER             /* loop over ray hits; else-body on misses */
} IrRegionKind;

typedef struct IrRegion {
    IrRegionKind kind;
    IrBlock *header;       /* ends in `region`; loops come back to it */
    IrBlock *body;         /* first block of the body */
    IrBlock *miss;         /* gather's else body, or NULL */
    IrBlock *exit;         /* first block after the region */
    const char *category;  /* illuminance/gather category string or NULL */
} IrRegion;

/* ---- debug information ------------------------------------------------------ */

/* Inlining makes frames: a copied instruction's loc.inl names the call
   it was inlined through (index into fn->frames; frame 0 is the
   function's own code, parent -1), so the debugger can rebuild the
   backtrace. Source variables are recorded per frame: lowering names
   the values it assigns to each, ir_replace_uses hands the names on to
   the replacement, and a value that disappears takes its names with it
   (the debugger then says "optimized out"). */
typedef struct IrFrame {
    const char *func;
    SrcLoc call;           /* the call site, in the parent frame */
    int parent;
} IrFrame;

typedef struct IrDbgVar {
    const char *name;
    IrType type;
    int frame;
} IrDbgVar;

/* ---- functions and modules ------------------------------------------------ */

typedef struct IrParam {
    const char *name;
    IrType type;
    bool varying;
    bool output;
    IrConst *def;          /* constant default, or NULL if computed */
} IrParam;

struct IrFunc {
    const char *name;
    ShaderKind kind;       /* SHADER_FUNCTION for user functions */
    IrType ret;
    IrParam *params;
    int nparams;
    IrBlock *entry;        /* first block; layout list continues via next */
    int nblocks;
    IrRegion *regions;
    int nregions;
    int next_val_id, next_block_id;
    SrcLoc loc;
    IrFrame *frames;       /* debug (see above); empty: only frame 0 */
    int nframes, capframes;
    IrDbgVar *dbgvars;
    int ndbgvars, capdbgvars;

    /* Constant pool and arena, private to ir.c. */
    struct IrPool *pool;
};

typedef struct IrModule {
    IrFunc **funcs;
    int nfuncs;
} IrModule;

/* ---- building and editing (ir.c) ---------------------------------------- */

IrModule *ir_module_new(void);
void ir_module_free(IrModule *m);
IrFunc *ir_func_new(IrModule *m, const char *name, ShaderKind kind, IrType ret);
/* Appends a new empty block to fn's layout; or puts it right after
   `after` (without walking the layout to its end). */
IrBlock *ir_block_new(IrFunc *fn);
IrBlock *ir_block_new_after(IrBlock *after);
/* Removes an (unreachable, unused) block and its instructions. */
void ir_block_delete(IrBlock *b);
/* Makes an instruction; insert it with ir_insert_* or ir_append. */
IrIns *ir_ins_new(IrFunc *fn, IrOp op, IrType type, SrcLoc loc);
void ir_ins_add_arg(IrIns *ins, IrVal *arg);
void ir_ins_set_arg(IrIns *ins, int index, IrVal *arg);
void ir_append(IrBlock *b, IrIns *ins);
void ir_insert_before(IrIns *pos, IrIns *ins);
/* Unlinks and frees an instruction with no remaining uses. */
void ir_ins_delete(IrIns *ins);
/* Replaces every use of old by new; new (an instruction) also takes
   old's variable names. */
void ir_replace_uses(IrVal *old, IrVal *new_val);
/* Debug information: a new frame (the first call adds frame 0 for fn
   itself), a new source variable, and naming a value after one. */
int ir_frame_add(IrFunc *fn, const char *func, SrcLoc call, int parent);
int ir_dbgvar_add(IrFunc *fn, const char *name, IrType type, int frame);
void ir_dbg_name(IrVal *v, int var);
/* The same without the search for a duplicate, for callers that know
   (inlining names one value after thousands of copies of a parameter). */
void ir_dbg_name_fresh(IrVal *v, int var);
/* Adds/removes a CFG edge (keeps preds and phi operands consistent). */
void ir_set_succ(IrIns *term, int which, IrBlock *to);
void ir_remove_pred(IrBlock *b, IrBlock *pred);

IrConst *ir_const_float(IrFunc *fn, float f);
IrConst *ir_const_triple(IrFunc *fn, IrKind kind, float x, float y, float z);
IrConst *ir_const_matrix(IrFunc *fn, const float m[16]);
IrConst *ir_const_string(IrFunc *fn, const char *s);
IrConst *ir_const_bool(IrFunc *fn, bool b);
/* An array constant: type.arraylen elements of 1, 3 or 16 floats each. */
IrConst *ir_const_array(IrFunc *fn, IrType type, const float *vals);
IrVal *ir_undef(IrFunc *fn, IrType type);
/* A copy of s that lives as long as fn (names read by the IR parser). */
const char *ir_intern(IrFunc *fn, const char *s);

static inline IrType ir_type(IrKind kind) { IrType t = { kind, 0 }; return t; }
bool ir_type_equal(IrType a, IrType b);
bool ir_is_triple(IrKind k);
/* An IR type's name ("float", "color[3]"), by value as type_name. */
TypeName ir_type_name(IrType t);
const char *ir_kind_name(IrKind k);
const char *ir_op_name(IrOp op);
int ir_op_nargs(IrOp op);
unsigned ir_op_flags(IrOp op);

/* ---- text form (irprint.c / irparse.c) --------------------------------- */

/* Prints a module in the stable textual form of --emit=ir. */
void ir_print_module(FILE *out, const IrModule *m);
void ir_print_func(FILE *out, const IrFunc *fn);
/* One operand as the text form writes it (%3, 0.5, color(1 0 0) ...). */
void ir_print_value(FILE *out, const IrVal *v);
const char *ir_region_kind_name(IrRegionKind k);
/* Parses the textual form (for pass tests); reports errors through rc's
   diag and returns NULL on failure. */
IrModule *ir_parse(RslcCtx *rc, const char *text, const char *filename);

/* ---- analyses (cfg.c) ------------------------------------------------------- */

void ir_fill_rpo(IrFunc *fn);
void ir_fill_dominators(IrFunc *fn);
void ir_fill_loops(IrFunc *fn);
bool ir_dominates(const IrBlock *a, const IrBlock *b);

/* ---- construction and checking ------------------------------------------- */

/* Lowers a checked unit to SSA (lower.c, ssa.c), reporting to rc. */
IrModule *ir_lower_unit(RslcCtx *rc, const Unit *unit);
/* Checks SSA dominance, operand types and uniformity consistency; prints
   each violation and returns false if any (verify.c). */
bool ir_verify(const IrFunc *fn, FILE *report);

#endif /* RSLC_IR_H */
