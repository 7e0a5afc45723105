/*
** devcalls.c: builtin calls in code for a GPU (one lane per thread,
** W = 1; ptx.c). A call is a call of the device function that the
** builtin's row names, with the ABI that ptx.c's header documents:
** the arguments' floats spilled to a local array, the result read back
** from another. Maths that libdevice has (sin, pow, floor ...) is a
** direct call of the C library's function instead, on the scalar, which
** ptx.c binds to libdevice's __nv_ definition: mathlib.c computes these
** builtins with the same functions, so the VM and the GPU differ only by
** the libraries' rounding.
*/
#include <stddef.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "rslc/diag.h"
#include "runtime/builtins.h"
#include "runtime/mathlib.h"

/* The device function of a row is rsl_<FN>_<row>, its function's and
   row's names as builtins.def's columns spell them (rsl_MIN_fffr for
   min's "fff." row): devrt.c defines some with the same names. */
static const char row_names[BO_COUNT][40] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) [BO_##fn##_##row] = "rsl_" #fn "_" #row,
#include "runtime/builtins.def"
};

/* Each row's entry (builtins.def's last column): pure maths ("math") is
   devrt.c's rsl_math_at. */
static const char row_entries[BO_COUNT][20] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) [BO_##fn##_##row] = #entry,
#include "runtime/builtins.def"
};

static LLVMValueRef declare(Lower *L, const char *name, LLVMTypeRef ft)
{
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    return f ? f : LLVMAddFunction(L->mod, name, ft);
}

/* Component k of v as a scalar (a varying value is <1 x T>). */
static LLVMValueRef scalar(Lower *L, NVal v, int k)
{
    return v.varying ? LLVMBuildExtractElement(L->b, v.c[k], LLVMConstInt(L->i32, 0, 0), "") : v.c[k];
}

static LLVMValueRef widen(Lower *L, LLVMValueRef x, bool vary)
{
    return vary ? nl_splat(L, x) : x;
}

/* Where mathlib's table has the pure maths builtin of row with nargs
   arguments (the entry the VM binds), or -1 after an error. */
static int math_index(Lower *L, uint32_t row, int nargs)
{
    const char *name = builtin_fn_names[builtin_rows[row].fn];
    const RslMathFn *fn = rsl_builtin_find(name, nargs);
    if (!fn) {
        diag_error(L->rc, L->fn->loc, "PTX: the runtime has no maths '%s' of %d arguments", name,
                   nargs);
        L->failed = true;
        return -1;
    }
    return rsl_builtin_index(fn);
}

NVal nl_device_call(Lower *L, const VmCallee *callee, const NVal *args, const int *argn,
                    int nargs, int outn, bool vary, LLVMValueRef mask)
{
    int math = strcmp(row_entries[callee->row], "math") == 0 ? math_index(L, callee->row, nargs) : -1;
    int total = 0;
    for (int i = 0; i < nargs; i++)
        total += argn[i];
    LLVMTypeRef at = LLVMArrayType(L->f32, (unsigned)(total + 1));
    LLVMTypeRef ot = LLVMArrayType(L->f32, (unsigned)(outn + 1));
    LLVMTypeRef nt = LLVMArrayType(L->i32, (unsigned)(nargs + 1));
    LLVMValueRef abuf = LLVMBuildAlloca(L->eb, at, ""), obuf = LLVMBuildAlloca(L->eb, ot, "");
    LLVMValueRef nbuf = LLVMBuildAlloca(L->eb, nt, "");
    /* A builtin with outputs (&) returns a tuple, its result then every
       argument; it starts as the arguments' values, so that an output
       the builtin leaves keeps its value. */
    bool tuple = strchr(builtin_rows[callee->row].sig, '&') != NULL;
    int rw = outn - total;
    for (int i = 0, row = 0; i < nargs; i++) {
        LLVMValueRef n = LLVMBuildInBoundsGEP2(L->b, L->i32, nbuf,
                                               (LLVMValueRef[]){ LLVMConstInt(L->i32, (unsigned)i, 0) }, 1, "");
        LLVMBuildStore(L->b, LLVMConstInt(L->i32, (unsigned)argn[i], 0), n);
        for (int k = 0; k < argn[i]; k++, row++) {
            LLVMValueRef x = scalar(L, args[i], k);
            LLVMValueRef ai = LLVMConstInt(L->i32, (unsigned)row, 0);
            LLVMBuildStore(L->b, x, LLVMBuildInBoundsGEP2(L->b, L->f32, abuf, &ai, 1, ""));
            if (tuple) {
                LLVMValueRef oi = LLVMConstInt(L->i32, (unsigned)(rw + row), 0);
                LLVMBuildStore(L->b, x, LLVMBuildInBoundsGEP2(L->b, L->f32, obuf, &oi, 1, ""));
            }
        }
    }
    /* A varying call runs in the threads of the mask (its own thread's
       one lane); a uniform one in every thread, as no lane is first. */
    LLVMBasicBlockRef after = NULL;
    if (vary && mask) {
        LLVMBasicBlockRef run = LLVMAppendBasicBlockInContext(L->ctx, L->func, "call");
        after = LLVMAppendBasicBlockInContext(L->ctx, L->func, "called");
        LLVMBuildCondBr(L->b, nl_any(L, mask), run, after);
        LLVMPositionBuilderAtEnd(L->b, run);
    }
    LLVMValueRef vouts = LLVMConstInt(L->i32, (unsigned)outn, 0), vn = LLVMConstInt(L->i32, (unsigned)nargs, 0);
    if (math >= 0) {
        LLVMTypeRef p[6] = { L->i32, L->ptr, L->i32, L->ptr, L->ptr, L->i32 };
        LLVMTypeRef ft = LLVMFunctionType(L->voidt, p, 6, 0);
        LLVMValueRef cargs[6] = { LLVMConstInt(L->i32, (unsigned)math, 0), obuf, vouts, abuf, nbuf, vn };
        LLVMBuildCall2(L->b, ft, declare(L, "rsl_math_at", ft), cargs, 6, "");
    } else {
        /* The batch: the third field of the thread's NativeRt (ptx.c). */
        LLVMValueRef off = LLVMConstInt(L->i64, offsetof(NativeRt, state), 0);
        LLVMValueRef batch = LLVMBuildLoad2(L->b, L->ptr, LLVMBuildInBoundsGEP2(L->b, L->i8, L->rt, &off, 1, ""), "");
        LLVMTypeRef p[7] = { L->ptr, L->i32, L->ptr, L->ptr, L->i32, L->ptr, L->i64 };
        LLVMTypeRef ft = LLVMFunctionType(L->voidt, p, 7, 0);
        LLVMValueRef cargs[7] = { obuf, vouts, abuf, nbuf, vn, batch, L->base };
        LLVMBuildCall2(L->b, ft, declare(L, row_names[callee->row], ft), cargs, 7, "");
    }
    if (after) {
        LLVMBuildBr(L->b, after);
        LLVMPositionBuilderAtEnd(L->b, after);
    }
    NVal r = nv_new(L, outn, vary);
    for (int k = 0; k < outn; k++) {
        LLVMValueRef oi = LLVMConstInt(L->i32, (unsigned)k, 0);
        LLVMValueRef x = LLVMBuildLoad2(L->b, L->f32, LLVMBuildInBoundsGEP2(L->b, L->f32, obuf, &oi, 1, ""), "");
        r.c[k] = widen(L, x, vary);
    }
    return r;
}

/* The rows whose builtin is one function of the C library, as mathlib.c
   computes it, and that function. */
static const struct {
    BuiltinRowId row;
    char fn[8];
} libm_rows[] = {
    { BO_SIN_ff, "sinf" },     { BO_COS_ff, "cosf" },     { BO_TAN_ff, "tanf" },
    { BO_ASIN_ff, "asinf" },   { BO_ACOS_ff, "acosf" },   { BO_ATAN_ff, "atanf" },
    { BO_ATAN_fff, "atan2f" }, { BO_POW_fff, "powf" },    { BO_EXP_ff, "expf" },
    { BO_SQRT_ff, "sqrtf" },   { BO_LOG_ff, "logf" },     { BO_ABS_ff, "fabsf" },
    { BO_FLOOR_ff, "floorf" }, { BO_CEIL_ff, "ceilf" },   { BO_ROUND_ff, "roundf" },
};

bool nl_device_math(Lower *L, IrIns *ins)
{
    int nargs = ins->nargs;
    for (size_t i = 0; i < sizeof libm_rows / sizeof *libm_rows; i++) {
        if (libm_rows[i].row != ins->imm || nargs > 2 || ins->val.type.kind != IRT_FLOAT)
            continue;
        LLVMTypeRef p[2] = { L->f32, L->f32 };
        LLVMValueRef fn = declare(L, libm_rows[i].fn, LLVMFunctionType(L->f32, p, (unsigned)nargs, 0));
        LLVMValueRef a[2];
        for (int k = 0; k < nargs; k++)
            a[k] = scalar(L, nv_get(L, ins->args[k]), 0);
        NVal r = nv_new(L, 1, ins->val.varying);
        r.c[0] = widen(L, LLVMBuildCall2(L->b, LLVMGlobalGetValueType(fn), fn, a, (unsigned)nargs, ""),
                       ins->val.varying);
        nv_define(L, ins, r);
        return true;
    }
    return false;
}
