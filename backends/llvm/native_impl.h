/*
** native_impl.h: what the files of the native back end share while they
** lower one shader (backends/llvm). module.c drives: values.c holds the
** representation of values, lower.c lowers each instruction, flow.c the
** control flow and its masks, calls.c builtin calls (and the C helpers
** the generated code calls), prelude.c derivatives, bitcode.c the
** runtime inlined from its bitcode, jit.c optimisation and ORC LLJIT.
**
** A value is NVal: its float components (1 for float, bool and string, 3
** for a triple, 16 for a matrix, times an array's length; a builtin's
** tuple as the VM lays it out), each a scalar when the IR says uniform
** and a <W x float> (<W x i1> for bool) vector when varying. Strings are
** string-table indexes in a float's bits, as in the VM.
**
** A value used only in its own block stays an LLVM value; any other (a
** phi, a value used in another block) lives in an alloca slot that its
** definition stores under the block's mask, so that lanes which left a
** loop early keep the value they left with; mem2reg turns the slots back
** into SSA.
*/
#ifndef BACKENDS_NATIVE_IMPL_H
#define BACKENDS_NATIVE_IMPL_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "backends/llvm/native.h"
#include "runtime/lighting.h"

typedef struct NVal {
    int n;
    bool varying;
    LLVMValueRef *c;            /* n components, owned by the Lower's arena */
} NVal;

/* An alloca holding a value of n components. */
typedef struct NSlot {
    LLVMValueRef p;
    int n;
    bool varying, isbool;
} NSlot;

/* A parameter or global in the VM object's register files, held in a
   slot from entry (loaded) to exit (stored back if written). */
typedef struct NVar {
    const char *name;
    bool param;
    const VmVar *var;
    bool written;
    NSlot slot;                 /* varying as in memory (the VmVar's flag) */
} NVar;

/* One builtin call site, for the helper that runs it per lane. */
typedef struct NativeSite {
    int callee;                 /* index into the shader's callees */
    int nargs;
    int argn[VM_MAX_ARGS];
    int outn;
    bool uniform;               /* one call, at lane 0 */
    char *file;                 /* its source line, where its warnings */
    int line;                   /* and faults are reported */
} NativeSite;

/* The results of a uniform call site in the batch's first group of W
   lanes, in the order made: the later groups take them rather than call
   again, so that a uniform call runs once per batch, as on the VM
   (random(), message passing into a uniform variable). */
typedef struct NativeMemo {
    float *vals;                /* outn floats per call */
    int n, cap;                 /* calls recorded */
    int used;                   /* calls taken by the running group */
} NativeMemo;

/* A loop's backward jump, where the step budget may run out (flow.c). */
typedef struct NativeBack {
    char *file;
    int line;
} NativeBack;

/* What a JIT'd batch sees beyond its register files (calls.c). The
   generated code decrements steps_left on every loop back edge and, past
   0, stores the back edge's index + 1 in overrun and returns: both first,
   at fixed offsets. On a GPU (ptx.c) a thread's NativeRt is only the
   first three fields, state pointing to the NativeGpuBatch. */
typedef struct NativeRt {
    int64_t steps_left;
    int32_t overrun;
    VmState *state;
    const VmBuiltin *builtins;  /* bound, by callee index */
    const NativeSite *sites;
    int W;
    NativeMemo *memo;           /* by site */
    bool later;                 /* running a group after the batch's first */
    /* The derivatives' operands over the batch (prelude.c): row r of
       dstride floats from dbuf + r * dstride. */
    float *dbuf;
    int64_t dstride;
    RslLights lights;           /* what the lighting calls see (wide.c) */
} NativeRt;

typedef struct Lower {
    RslcCtx *rc;
    IrFunc *fn;
    const VmObject *obj;
    const NativeOptions *opt;
    int W;                      /* lanes: 4, 8 or 16 on the CPU, 1 on a GPU */
    bool gpu;                   /* SIMT for NVPTX: calls are device functions (ptx.c) */
    bool failed;

    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef func;
    LLVMTypeRef f32, i1, i8, i32, i64, ptr, vf, vb, vi32, voidt;
    LLVMTypeRef call_ty, matdiv_ty;  /* the helpers' function types */
    LLVMValueRef call_fn, matdiv_fn;
    LLVMTypeRef bad_index_ty;        /* native_rt_bad_index (lower.c) */
    LLVMValueRef bad_index_fn;
    LLVMBasicBlockRef entry_bb;      /* allocas and the inputs' loads */
    LLVMBuilderRef eb;               /* at its end */

    /* The entry's arguments (Uin: the uniform file as the batch began),
       and the batch's lane mask. */
    LLVMValueRef Uin, U, V, stride, base, rt, lanes;

    /* Per IR value (by id): its direct value, or its slot. */
    NVal *vals;
    bool *have;
    NSlot *slot;                /* .p NULL: none */

    /* Control flow (flow.c). */
    bool masked;
    IrBlock **order;
    int norder;
    int *loop_end;              /* by block id: last order index, or -1 */
    int *region_of;             /* by block id: innermost light region, or -1 */
    NSlot *light_cnt;           /* by region: the light a pass is at (uniform) */
    NSlot *light_val;           /* by region: that light's L, Cl, Ol, whether lit */
    LLVMValueRef *mask_slot;    /* by block id */
    LLVMBasicBlockRef *bb;      /* by block id: plain code's blocks */
    LLVMValueRef cur_mask;      /* the running block's lanes (<W x i1>) */
    bool at_entry;              /* in the entry block: stores need no mask */

    NVar *vars;
    int nvars, capvars;

    /* Builtin call sites and the callees they bind (calls.c). */
    NativeSite *sites;
    int nsites, capsites;
    VmCallee *callees;
    int ncallees, capcallees;
    /* Loop back edges, for the step budget's message (flow.c). */
    NativeBack *backs;
    int nbacks, capbacks;

    /* Derivatives (prelude.c): by IR value id, the first of an operand's
       rows in the batch's buffer (-1: none) and whether the prelude
       computes the value; by block id, whether every point runs the
       block (0 unknown, 1 yes, -1 no). */
    int *drow;
    bool *dslice;
    signed char *dblock;
    int drows;
    LLVMTypeRef deriv_ty;
    LLVMValueRef deriv_fn;

    /* Component arrays of NVals, freed together. */
    void **arena;
    int narena, caparena;
} Lower;

/* ---- module.c ------------------------------------------------------------- */

/* Lowers shader into a new module in ctx (L->mod) for W lanes, SPMD on
   the CPU or one lane per thread on a GPU: the entry function "shade"
   of module.c's header. False after diagnostics (the module disposed).
   nl_lower_done frees what lowering holds, whatever it returned. */
bool nl_lower(Lower *L, RslcCtx *rc, IrFunc *shader, const VmObject *obj,
              const NativeOptions *opt, LLVMContextRef ctx, int W, bool gpu);
void nl_lower_done(Lower *L);
/* Whether LLVM accepts mod; else a malloc'd message in *msg. */
bool nl_verified(LLVMModuleRef mod, char **msg);

/* ---- values.c ------------------------------------------------------------- */

void *nl_alloc(Lower *L, size_t size);
int nl_kind_width(IrKind k);
int nl_width(const Lower *L, const IrIns *ins, IrType t);
NVal nv_new(Lower *L, int n, bool varying);
LLVMValueRef nl_splat(Lower *L, LLVMValueRef scalar);
/* Component k, made a vector if want_varying and it is scalar. */
LLVMValueRef nv_comp(Lower *L, NVal v, int k, bool want_varying);
/* The value of an operand: constant, undef (zero), or computed. */
NVal nv_get(Lower *L, IrVal *v);
/* Records ins's value, storing it to its slot when it has one. */
void nv_define(Lower *L, IrIns *ins, NVal v);
/* Stores v into s for the lanes of mask (NULL: all); a uniform slot is
   stored if any lane is set. */
void nl_store(Lower *L, NSlot s, NVal v, LLVMValueRef mask);
NVal nl_load(Lower *L, NSlot s);
NSlot nl_alloca(Lower *L, int n, bool varying, bool isbool);
/* The mask stores of the running block take: NULL in the entry block. */
LLVMValueRef nl_store_mask(Lower *L);
/* Whether any lane of a <W x i1> is set (an i1). */
LLVMValueRef nl_any(Lower *L, LLVMValueRef m);
/* A <W x i1> mask as the lane bits of an i32. */
LLVMValueRef nl_mask_bits(Lower *L, LLVMValueRef m);
/* The variable (parameter or global) named name; NULL after an error. */
NVar *nl_var(Lower *L, const char *name, bool param, const IrIns *at);
void nl_vars_store(Lower *L);
/* Reports that native code lacks construct what at ins (the shader's
   line) and fails the compilation. */
void nl_lacks(Lower *L, const IrIns *ins, const char *what);

/* ---- lower.c, flow.c, calls.c ------------------------------------------- */

void nl_lower_ins(Lower *L, IrIns *ins);
void nl_lower_body(Lower *L);
void nl_declare_helpers(Lower *L);
void nl_lower_intrin(Lower *L, IrIns *ins);
/* Calls the runtime's builtin for callee (bound by row, vm/builtins.h)
   on args (args[i] of argn[i] floats) for the lanes of mask, or once for
   a uniform result, for instruction at (its source line); returns its
   outn floats. */
NVal nl_call(Lower *L, const VmCallee *callee, const NVal *args, const int *argn, int nargs, int outn,
             bool vary, LLVMValueRef mask, const IrIns *at);
int nl_tuple_offset(const IrIns *call, int which);

/* ---- prelude.c: derivatives ---------------------------------------------- */

/* Finds the shader's derivatives and their operands' slices; false after
   nl_lacks naming why one cannot be computed in native code. */
bool nl_deriv_plan(Lower *L);
void nl_declare_deriv(Lower *L);
/* Lowers ins if it is Du or Dv (on the CPU); false if it is not. */
bool nl_lower_deriv(Lower *L, IrIns *ins);
/* The prelude's body, in L->func (its entry made as the shader's). */
void nl_lower_prelude(Lower *L);

/* ---- devcalls.c: builtin calls on a GPU ---------------------------------- */

/* nl_call's device function call (the ABI of ptx.c's header). */
NVal nl_device_call(Lower *L, const VmCallee *callee, const NVal *args, const int *argn,
                    int nargs, int outn, bool vary, LLVMValueRef mask);
/* Lowers ins inline when it is maths libdevice has (sin, pow ...): a
   call of the C library's function, which ptx.c links to libdevice's
   __nv_ one. False if it is not. */
bool nl_device_math(Lower *L, IrIns *ins);

/* ---- wide.c ------------------------------------------------------------------ */

/* nl_call of a varying lighting call on the CPU, one call per group into
   the runtime's lighting (runtime/lighting.h) with its result in *out;
   false if callee's row is not one wide.c makes. */
bool nw_call(Lower *L, const VmCallee *callee, const NVal *args, const int *argn, int nargs,
             int outn, LLVMValueRef mask, NVal *out);

/* ---- bitcode.c ------------------------------------------------------------- */

/* Lowers ins (args[i] of argn[i] floats, outn results) to a call of the
   runtime's entry for its row, to be inlined from the runtime's bitcode;
   false if its row has none (calls.c then calls through the VM's lane
   functions). */
bool nb_lower_call(Lower *L, IrIns *ins, const NVal *args, const int *argn, int nargs, int outn,
                   bool vary);
/* Links the runtime's bitcode into mod (its target set) and makes its
   definitions mod's own, internal, dropping those the shader does not
   call; mod's own definitions (its entries) stay external. NULL, or a
   malloc'd message. */
char *nb_link_runtime(LLVMModuleRef mod);

/* Adds the runtime's bitcode, all that may link into a shader, to s
   (codecache.c's key). */
struct Sha256;
void nb_hash_runtime(struct Sha256 *s);

/* ---- codecache.c ------------------------------------------------------------ */

/* The key of the code of mod (lowered, before linking) for isa at
   level. */
void ncache_key(const NativeCache *c, LLVMModuleRef mod, NativeIsa isa, int level,
                unsigned char key[32]);
/* The object file stored under key, malloc'd, of *size bytes; NULL on a
   miss (after a one-line warning where the entry is unusable). */
char *ncache_load(NativeCache *c, const unsigned char key[32], size_t *size);
/* Stores obj under key; a failure warns, once per cache. */
void ncache_store(NativeCache *c, const unsigned char key[32], const void *obj, size_t size);

/* The helpers the JIT binds by address. */
void native_rt_call(NativeRt *rt, int32_t site, int64_t base, int32_t bits, const float *args,
                    float *out);
/* The warning on an array index out of bounds (lower.c), as the VM's. */
void native_rt_bad_index(NativeRt *rt, const char *file, int32_t line, const char *array,
                         int32_t len, float index);
void native_rt_matdiv(const float *a, const float *b, float *out, int32_t W);
void native_rt_deriv(NativeRt *rt, int64_t base, int32_t row, int32_t w, int32_t dir, float *out);

#endif /* BACKENDS_NATIVE_IMPL_H */
