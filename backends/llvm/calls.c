/*
** calls.c: builtin calls in native code. A row that the runtime's
** bitcode defines (math, noise: bitcode.c) is inlined from it. Any other
** call runs the VM runtime's lane function for its overload, bound by
** row exactly as the VM back end binds it (vmgen_intrin_callee,
** backends/vm/vmcall.c; vm/builtins.h), once per lane in the call's
** mask: the generated code spills the arguments as rows of W floats and
** calls native_rt_call, which gathers each lane, calls, and scatters the
** result. Varying lighting calls are one call per group (wide.c); a
** varying ray query's lanes go to the host's rays together where it has
** them (host.h); a varying transform to named spaces asks the host for
** its matrix once per group.
**
** A call's implicit arguments (P for lighting, Ng for faceforward, s, t,
** du, dv, and the derivatives of its marked arguments) are already its
** last arguments in the IR, lowered from its row's implicit column: they
** are passed as they come. Derivatives are calls of Du and Dv, which
** prelude.c lowers.
**
** normalize and inversesqrt are lowered inline, as mathlib.c computes
** them (the VM has instructions for them too).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "backends/vm/vmgen.h"
#include "runtime/builtins.h"
#include "runtime/mathlib.h"
#include "vm/lanes.h"

/* A tuple holds the result's floats, then every argument at its width. */
int nl_tuple_offset(const IrIns *call, int which)
{
    return (int)vg_tuple_offset(call, which);
}

void nl_declare_helpers(Lower *L)
{
    LLVMTypeRef cp[6] = { L->ptr, L->i32, L->i64, L->i32, L->ptr, L->ptr };
    L->call_ty = LLVMFunctionType(L->voidt, cp, 6, 0);
    L->call_fn = LLVMAddFunction(L->mod, "native_rt_call", L->call_ty);
    LLVMTypeRef mp[4] = { L->ptr, L->ptr, L->ptr, L->i32 };
    L->matdiv_ty = LLVMFunctionType(L->voidt, mp, 4, 0);
    L->matdiv_fn = LLVMAddFunction(L->mod, "native_rt_matdiv", L->matdiv_ty);
    LLVMTypeRef bp[6] = { L->ptr, L->ptr, L->i32, L->ptr, L->i32, L->f32 };
    L->bad_index_ty = LLVMFunctionType(L->voidt, bp, 6, 0);
    L->bad_index_fn = LLVMAddFunction(L->mod, "native_rt_bad_index", L->bad_index_ty);
}

static int callee_index(Lower *L, const VmCallee *c)
{
    for (int i = 0; i < L->ncallees; i++)
        if (memcmp(&L->callees[i], c, sizeof *c) == 0)
            return i;
    if (L->ncallees == L->capcallees) {
        L->capcallees = L->capcallees ? 2 * L->capcallees : 16;
        L->callees = realloc(L->callees, (size_t)L->capcallees * sizeof *L->callees);
    }
    L->callees[L->ncallees] = *c;
    return L->ncallees++;
}

/* ---- inline builtins --------------------------------------------------------- */

static LLVMValueRef fsqrt(Lower *L, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    unsigned id = LLVMLookupIntrinsicID("llvm.sqrt", 9);
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(L->mod, id, &t, 1);
    return LLVMBuildCall2(L->b, LLVMIntrinsicGetType(L->ctx, id, &t, 1), f, &x, 1, "");
}

static LLVMValueRef fone(Lower *L, bool vary)
{
    LLVMValueRef one = LLVMConstReal(L->f32, 1.0);
    return vary ? nl_splat(L, one) : one;
}

/* normalize(a) = a / sqrt(a . a); inversesqrt(x) = 1 / sqrt(x). */
static bool inline_builtin(Lower *L, IrIns *ins)
{
    BuiltinId id = builtin_rows[ins->imm].fn;
    bool vary = ins->val.varying;
    if ((id != BI_NORMALIZE && id != BI_INVERSESQRT) || ins->nargs != 1)
        return false;
    NVal a = nv_get(L, ins->args[0]);
    NVal r = nv_new(L, id == BI_NORMALIZE ? 3 : 1, vary);
    if (id == BI_INVERSESQRT) {
        r.c[0] = LLVMBuildFDiv(L->b, fone(L, vary), fsqrt(L, nv_comp(L, a, 0, vary)), "");
    } else {
        LLVMValueRef d = NULL;
        for (int k = 0; k < 3; k++) {
            LLVMValueRef x = nv_comp(L, a, k, vary), p = LLVMBuildFMul(L->b, x, x, "");
            d = d ? LLVMBuildFAdd(L->b, d, p, "") : p;
        }
        LLVMValueRef len = fsqrt(L, d);
        for (int k = 0; k < 3; k++)
            r.c[k] = LLVMBuildFDiv(L->b, nv_comp(L, a, k, vary), len, "");
    }
    nv_define(L, ins, r);
    return true;
}

/* ---- calls through the VM runtime -------------------------------------------- */

/* Why a call needs what native code lacks, or NULL. */
static const char *lacking(const IrIns *ins)
{
    if (ins->nargs > VM_MAX_ARGS)
        return "builtin calls of more than 32 arguments";
    return NULL;
}

static LLVMValueRef row_ptr(Lower *L, LLVMValueRef buf, int row)
{
    LLVMValueRef i = LLVMConstInt(L->i32, (unsigned)row, 0);
    return LLVMBuildInBoundsGEP2(L->b, L->vf, buf, &i, 1, "");
}

NVal nl_call(Lower *L, const VmCallee *callee, const NVal *args, const int *argn, int nargs, int outn,
             bool vary, LLVMValueRef mask, const IrIns *at)
{
    if (L->gpu)
        return nl_device_call(L, callee, args, argn, nargs, outn, vary, mask);
    NVal wide;
    if (vary && nw_call(L, callee, args, argn, nargs, outn, mask, &wide))
        return wide;
    if (L->nsites == L->capsites) {
        L->capsites = L->capsites ? 2 * L->capsites : 16;
        L->sites = realloc(L->sites, (size_t)L->capsites * sizeof *L->sites);
    }
    int site = L->nsites++, total = 0;
    NativeSite *s = &L->sites[site];
    *s = (NativeSite){ .callee = callee_index(L, callee), .nargs = nargs, .outn = outn, .uniform = !vary,
                       .file = strdup(at->loc.file ? at->loc.file : "?"), .line = at->loc.line };
    for (int i = 0; i < nargs; i++)
        total += s->argn[i] = argn[i];
    LLVMValueRef abuf = LLVMBuildArrayAlloca(L->eb, L->vf, LLVMConstInt(L->i32, (unsigned)(total + 1), 0), "");
    LLVMValueRef obuf = LLVMBuildArrayAlloca(L->eb, L->vf, LLVMConstInt(L->i32, (unsigned)(outn + 1), 0), "");
    for (int i = 0, row = 0; i < nargs; i++)
        for (int k = 0; k < argn[i]; k++)
            LLVMBuildStore(L->b, nv_comp(L, args[i], k, true), row_ptr(L, abuf, row++));
    LLVMValueRef bits = vary ? nl_mask_bits(L, mask) : LLVMConstInt(L->i32, 1, 0);
    LLVMValueRef cargs[6] = { L->rt, LLVMConstInt(L->i32, (unsigned)site, 0), L->base, bits,
                              abuf, obuf };
    LLVMBuildCall2(L->b, L->call_ty, L->call_fn, cargs, 6, "");
    NVal r = nv_new(L, outn, vary);
    for (int k = 0; k < outn; k++) {
        r.c[k] = LLVMBuildLoad2(L->b, L->vf, row_ptr(L, obuf, k), "");
        if (!vary)
            r.c[k] = LLVMBuildExtractElement(L->b, r.c[k], LLVMConstInt(L->i32, 0, 0), "");
    }
    return r;
}

void nl_lower_intrin(Lower *L, IrIns *ins)
{
    if (inline_builtin(L, ins) || (L->gpu && nl_device_math(L, ins)) || nl_lower_deriv(L, ins))
        return;
    const char *why = lacking(ins);
    if (why) {
        nl_lacks(L, ins, why);
        return;
    }
    VmCallee callee;
    vmgen_intrin_callee(ins, &callee);
    int nargs = ins->nargs, total = 0, argn[VM_MAX_ARGS];
    NVal vals[VM_MAX_ARGS];
    bool any_varying = false;
    for (int i = 0; i < nargs; i++) {
        vals[i] = nv_get(L, ins->args[i]);
        total += argn[i] = nl_width(L, NULL, ins->args[i]->type);
        any_varying |= ins->args[i]->varying;
    }
    int outn = nl_width(L, ins, ins->val.type);
    if (outn > VM_MAX_VALUE || total > VM_MAX_ARGS * VM_MAX_VALUE) {
        nl_lacks(L, ins, "builtin calls with values this wide");
        return;
    }
    /* Varying as the IR says: uniform.c has settled it, the pin of a
       message-passing call (IrIns.pin) included; a call without a result
       runs per lane too when any argument varies. */
    bool vary = ins->val.varying || (ins->val.type.kind == IRT_VOID && any_varying);
    if (!L->gpu && nb_lower_call(L, ins, vals, argn, nargs, outn, vary))
        return;
    NVal r = nl_call(L, &callee, vals, argn, nargs, outn, vary, L->cur_mask, ins);
    if (ins->val.type.kind != IRT_VOID)
        nv_define(L, ins, r);
}

/* ---- the helpers the generated code calls ------------------------------------ */

/* The ray queries of a group's lanes (lane_of[k] the lane of q[k]) asked
   of the host's rays at once; their results to out's rows. */
static void ask_rays(const VmBuiltin *bi, VmState *st, int64_t base, int W, const VmRay *q,
                     const int *lane_of, int n, int outn, float *out)
{
    float res[RSL_LIGHT_MAX_W][3];
    char err[200];
    const VmHost *h = bi->host;
    if (h->rays(h->user, q, n, res, err, sizeof err)) {
        VmCall call = { bi, st, (int)base + lane_of[0], 0, NULL, NULL };
        vm_lane_fault(&call, "%s", err);
        return;
    }
    for (int k = 0; k < n; k++)
        for (int c = 0; c < outn && c < 3; c++)
            out[c * W + lane_of[k]] = res[k][c];
}

/* A varying transform, vtransform or ntransform with named spaces whose
   lanes name the same spaces (and matrix), as nearly every call does:
   the host's spaces are asked and the matrix made (an inversion among
   it) once for the group, at its first lane, rather than at every lane;
   each lane then applies it as the lane function would, through the math
   builtin of (matrix, value). False where the lanes differ: the lane
   function runs at each. */
static bool group_transform(NativeRt *rt, const NativeSite *s, const VmBuiltin *bi, int64_t base,
                            int32_t bits, const float *args, float *out)
{
    int W = rt->W, first = __builtin_ctz((unsigned)bits), shared = 0;
    for (int i = 0; i + 1 < s->nargs; i++)
        shared += s->argn[i];
    for (int lane = first + 1; lane < W; lane++)
        for (int row = 0; (bits >> lane & 1) && row < shared; row++)
            if (memcmp(&args[row * W + lane], &args[row * W + first], sizeof *args) != 0)
                return false;
    float vals[1 + 16 + 3], m[16]; /* (from, to or m, value): at most this */
    const float *argp[VM_MAX_ARGS];
    if (shared + 3 > (int)(sizeof vals / sizeof *vals))
        return false;
    for (int i = 0, row = 0; i < s->nargs; i++) {
        argp[i] = vals + row;
        for (int k = 0; k < s->argn[i]; k++, row++)
            vals[row] = args[row * W + first];
    }
    VmCall call = { bi, rt->state, (int)base + first, s->nargs, argp, s->argn };
    if (!vm_lane_transform_matrix(&call, m)) /* a fault, which ends the run */
        return true;
    const RslMathFn *fn = rsl_builtin_find(bi->base, 2);
    const int argn[2] = { 16, 3 };
    for (int lane = first; lane < W; lane++) {
        if (!(bits >> lane & 1))
            continue;
        float v[3], res[3] = { 0, 0, 0 };
        for (int k = 0; k < 3; k++)
            v[k] = args[(shared + k) * W + lane];
        const float *a[2] = { m, v };
        if (fn)
            rsl_builtin_apply(fn, 2, a, argn, res, 3);
        for (int k = 0; k < s->outn && k < 3; k++)
            out[k * W + lane] = res[k];
    }
    return true;
}

void native_rt_call(NativeRt *rt, int32_t site, int64_t base, int32_t bits, const float *args,
                    float *out)
{
    const NativeSite *s = &rt->sites[site];
    const VmBuiltin *bi = &rt->builtins[s->callee];
    int W = rt->W;
    NativeMemo *memo = s->uniform ? &rt->memo[site] : NULL;
    if (memo && rt->later && memo->used < memo->n) { /* made by the first group */
        for (int k = 0; k < s->outn; k++)
            out[k * W] = memo->vals[(size_t)memo->used * (size_t)s->outn + (size_t)k];
        memo->used++;
        return;
    }
    /* A uniform call runs at the group's first active point, its result
       in lane 0. */
    int first = 0;
    const VmState *st = rt->state;
    while (memo && first + 1 < W && (base + first >= st->n || (st->active && !st->active[base + first])))
        first++;
    rt->state->call_warned = false; /* vm_lane_warn: once per call and group */
    rt->state->call_file = s->file, rt->state->call_line = (uint32_t)s->line;
    if (!memo && bits && bi->fn == vm_lane_transform
        && group_transform(rt, s, bi, base, bits, args, out))
        return;
    int total = 0, zeroed = bi->outn > s->outn ? bi->outn : s->outn;
    if (zeroed > VM_MAX_VALUE)
        zeroed = VM_MAX_VALUE;
    for (int i = 0; i < s->nargs; i++)
        total += s->argn[i];
    /* A varying ray query's lanes go to a host that takes them together
       as one call of its rays. */
    VmRay q[RSL_LIGHT_MAX_W];
    int lane_of[RSL_LIGHT_MAX_W], nq = 0;
    bool rays = !memo && bi->fn == vm_lane_ray && bi->host && bi->host->rays && W <= RSL_LIGHT_MAX_W;
    for (int lane = 0; lane < W; lane++) {
        if (memo ? lane != first : !(bits >> lane & 1))
            continue;
        float vals[VM_MAX_VALUE * 4], res[VM_MAX_VALUE];
        const float *argp[VM_MAX_ARGS];
        float *big = NULL, *v = vals;
        if (total > (int)(sizeof vals / sizeof *vals))
            v = big = malloc((size_t)total * sizeof *big);
        /* The builtin's result, zeroed as the VM gives it (vm.h): only
           its floats, not the whole buffer (a kilobyte per lane). */
        memset(res, 0, (size_t)zeroed * sizeof *res);
        for (int i = 0, row = 0, at = bi->retn; i < s->nargs; i++) {
            argp[i] = v + row;
            for (int k = 0; k < s->argn[i]; k++, row++)
                v[row] = args[(size_t)row * (size_t)W + (size_t)lane];
            if (bi->retn >= 0) { /* a tuple starts with the arguments' values */
                memcpy(res + at, argp[i], (size_t)s->argn[i] * sizeof *res);
                at += s->argn[i];
            }
        }
        VmCall call = { bi, rt->state, (int)base + lane, s->nargs, argp, s->argn };
        if (rays) {
            if (vm_lane_ray_query(&call, &q[nq]))
                lane_of[nq++] = lane;
            free(big);
            continue;
        }
        bi->fn(res, &call);
        for (int k = 0; k < s->outn; k++)
            out[k * W + (memo ? 0 : lane)] = res[k];
        free(big);
        if (memo && memo->used == memo->n) {
            if (memo->n == memo->cap) {
                memo->cap = memo->cap ? 2 * memo->cap : 4;
                memo->vals = realloc(memo->vals, (size_t)memo->cap * (size_t)(s->outn + 1) * sizeof *memo->vals);
            }
            memcpy(memo->vals + (size_t)memo->n * (size_t)s->outn, res, (size_t)s->outn * sizeof *res);
            memo->n++;
        }
        if (memo)
            memo->used++;
    }
    if (nq)
        ask_rays(bi, rt->state, base, W, q, lane_of, nq, s->outn, out);
}

/* Through the state's warn, as a builtin's warning from this line: the
   session reports each line once, in the VM's words (vm/session.c). */
void native_rt_bad_index(NativeRt *rt, const char *file, int32_t line, const char *array,
                         int32_t len, float index)
{
    VmState *s = rt->state;
    char msg[240];
    snprintf(msg, sizeof msg, "index %g out of bounds for array%s%s%s of length %d", (double)index,
             *array ? " '" : "", array, *array ? "'" : "", (int)len);
    s->call_file = file, s->call_line = (uint32_t)line;
    if (s->warn)
        s->warn(s, 0, msg, s->warn_data);
    else
        fprintf(stderr, "%s:%d: warning: %s\n", file, (int)line, msg);
}

void native_rt_matdiv(const float *a, const float *b, float *out, int32_t W)
{
    for (int lane = 0; lane < W; lane++) {
        float x[16], y[16], inv[16], r[16];
        for (int k = 0; k < 16; k++)
            x[k] = a[k * W + lane], y[k] = b[k * W + lane];
        rsl_matinv(y, inv);
        rsl_matmul(x, inv, r);
        for (int k = 0; k < 16; k++)
            out[k * W + lane] = r[k];
    }
}
