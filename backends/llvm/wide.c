/*
** wide.c: varying lighting calls in native code (on the CPU) as one call
** per group of W lanes into the runtime's lighting (runtime/lighting.h),
** inlined from its bitcode with W a constant: ambient, diffuse, specular
** and phong, illuminance's per-light sample without a category, and
** illuminate's (its L and cone test) and solar's in a light shader. The
** arguments go as rows of W floats, zero in the lanes outside the mask
** (so that NaN or infinity there reaches nothing); the runtime asks the
** host for each light once per group and keeps the samples in the run's
** NativeRt.lights, so that the calls of a shader at the same points ask
** each light once.
**
** Other calls, a uniform lighting call (once per batch, memoised) and
** illuminance("category", ...) (whose category test and warning are the
** VM's, vm/lights.c) go through native_rt_call lane by lane (calls.c).
*/
#include <stddef.h>

#include "backends/llvm/native_impl.h"
#include "runtime/builtins.h"

static LLVMValueRef i32c(Lower *L, int v)
{
    return LLVMConstInt(L->i32, (unsigned long long)v, 0);
}

/* The runtime function name with these parameters (declared once). */
static LLVMValueRef runtime_fn(Lower *L, const char *name, LLVMTypeRef *params, unsigned n,
                               LLVMTypeRef *type)
{
    *type = LLVMFunctionType(L->voidt, params, n, 0);
    LLVMValueRef f = LLVMGetNamedFunction(L->mod, name);
    return f ? f : LLVMAddFunction(L->mod, name, *type);
}

enum { LIGHT_SAMPLE = -1, NOT_WIDE = -2, ILLUMINATE = -3, SOLAR = -4 };

/* The lighting kind of a row (RslShade), or one of the above. */
static int kind_of(uint32_t row)
{
    switch (row) {
    case BO_AMBIENT_c:
        return RSL_SHADE_AMBIENT;
    case BO_DIFFUSE_cn:
        return RSL_SHADE_DIFFUSE;
    case BO_SPECULAR_cnvf:
        return RSL_SHADE_SPECULAR;
    case BO_PHONG_cnvf:
        return RSL_SHADE_PHONG;
    case BO_LIGHT_mfp:
    case BO_LIGHT_mfpvf:
        return LIGHT_SAMPLE;
    case BO_ILLUMINATE_mpp:
    case BO_ILLUMINATE_mpvfp:
        return ILLUMINATE;
    case BO_SOLAR_mp:
    case BO_SOLAR_mvfp:
        return SOLAR;
    default:
        return NOT_WIDE;
    }
}

bool nw_call(Lower *L, const VmCallee *callee, const NVal *args, const int *argn, int nargs,
             int outn, LLVMValueRef mask, NVal *out)
{
    int kind = kind_of(callee->row);
    if (kind == NOT_WIDE)
        return false;
    bool sample = kind == LIGHT_SAMPLE, light = sample || kind == ILLUMINATE || kind == SOLAR;
    int first = sample, rows = 0; /* a sample's light index goes alone */
    for (int i = first; i < nargs; i++)
        rows += argn[i];
    LLVMValueRef abuf = LLVMBuildArrayAlloca(L->eb, L->vf, i32c(L, rows), "");
    LLVMValueRef obuf = LLVMBuildArrayAlloca(L->eb, L->vf, i32c(L, light ? 10 : 3), "");
    LLVMValueRef zero = LLVMConstNull(L->vf);
    for (int i = first, r = 0; i < nargs; i++)
        for (int k = 0; k < argn[i]; k++, r++) {
            LLVMValueRef v = LLVMBuildSelect(L->b, mask, nv_comp(L, args[i], k, true), zero, "");
            LLVMValueRef ix = i32c(L, r);
            LLVMBuildStore(L->b, v, LLVMBuildInBoundsGEP2(L->b, L->vf, abuf, &ix, 1, ""));
        }
    LLVMValueRef off = LLVMConstInt(L->i64, offsetof(NativeRt, lights), 0);
    LLVMValueRef lights = LLVMBuildInBoundsGEP2(L->b, L->i8, L->rt, &off, 1, "");
    LLVMValueRef base = LLVMBuildTrunc(L->b, L->base, L->i32, "");
    LLVMValueRef bits = nl_mask_bits(L, mask);
    LLVMTypeRef t;
    if (sample) {
        LLVMTypeRef p[8] = { L->ptr, L->i32, L->i32, L->i32, L->i32, L->i32, L->ptr, L->ptr };
        LLVMValueRef f = runtime_fn(L, "rsl_light_sample", p, 8, &t);
        LLVMValueRef i = LLVMBuildFPToSI(L->b, nv_comp(L, args[0], 0, false), L->i32, "");
        LLVMValueRef a[8] = { lights, i, i32c(L, nargs > 2), base, i32c(L, L->W), bits, abuf, obuf };
        LLVMBuildCall2(L->b, t, f, a, 8, "");
    } else if (kind == ILLUMINATE || kind == SOLAR) { /* [from,] [axis, angle,] Ps */
        bool solar = kind == SOLAR; /* its flag: an axis given; illuminate's: a cone */
        LLVMTypeRef p[5] = { L->i32, L->i32, L->i32, L->ptr, L->ptr };
        LLVMValueRef f = runtime_fn(L, solar ? "rsl_solar" : "rsl_illuminate", p, 5, &t);
        LLVMValueRef a[5] = { i32c(L, nargs > (solar ? 1 : 2)), i32c(L, L->W), bits, abuf, obuf };
        LLVMBuildCall2(L->b, t, f, a, 5, "");
    } else {
        LLVMTypeRef p[7] = { L->ptr, L->i32, L->i32, L->i32, L->i32, L->ptr, L->ptr };
        LLVMValueRef f = runtime_fn(L, "rsl_shade_lights", p, 7, &t);
        LLVMValueRef a[7] = { lights, i32c(L, kind), base, i32c(L, L->W), bits, abuf, obuf };
        LLVMBuildCall2(L->b, t, f, a, 7, "");
    }
    *out = nv_new(L, outn, true);
    for (int k = 0; k < outn; k++) {
        LLVMValueRef ix = i32c(L, k);
        out->c[k] = k < (light ? 10 : 3)
                        ? LLVMBuildLoad2(L->b, L->vf, LLVMBuildInBoundsGEP2(L->b, L->vf, obuf, &ix, 1, ""), "")
                        : zero;
    }
    return true;
}
