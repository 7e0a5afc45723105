/*
** calls.c: builtin calls in native code. Until the runtime is compiled
** to bitcode and inlined (issue 13), a call runs the VM runtime's lane
** function for its overload, bound by the same mangled name the VM back
** end gives it (vm/builtins.h), once per lane in the call's mask: the
** generated code spills the arguments as rows of W floats and calls
** native_rt_call, which gathers each lane, calls, and scatters the
** result. Only this file knows how calls are made.
**
** The implicit arguments the VM back end appends (backends/vm/vmcall.c)
** are passed where they are globals: P for lighting, Ng for
** faceforward(N, I). Those that are derivatives over the batch (Du, Dv,
** Deriv, area, calculatenormal, filterstep over a point, filtered
** texture lookups) are not lowered yet: native code processes W lanes
** at a time and has no neighbours.
**
** normalize and inversesqrt are lowered inline, as mathlib.c computes
** them (the VM has instructions for them too).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "rslc/builtins.h"
#include "runtime/mathlib.h"

static int letter_width(char c)
{
    return c == 'x' ? 0 : c == 'm' ? 16 : strchr("cpvn", c) ? 3 : 1;
}

static char kind_letter(IrKind k)
{
    return "xbfcpvnmst"[k];
}

/* The overload whose parameters match the call in number: the layout
   of its tuple. */
static bool call_sig(const IrIns *call, BuiltinSig *sig)
{
    const char *cursor = builtin_table[call->imm].sigs;
    while (builtin_sig_next(&cursor, sig))
        if (sig->nparams == call->nargs)
            return true;
    return false;
}

static char result_letter(const BuiltinSig *sig)
{
    switch (sig->ret.base) {
    case TY_FLOAT: return 'f';
    case TY_COLOR: return 'c';
    case TY_POINT: return 'p';
    case TY_VECTOR: return 'v';
    case TY_NORMAL: return 'n';
    case TY_MATRIX: return 'm';
    case TY_STRING: return 's';
    default: return 'x';
    }
}

/* A tuple holds the result's floats, then every argument at its width. */
int nl_tuple_offset(const IrIns *call, int which)
{
    BuiltinSig sig;
    if (which < 0 || !call_sig(call, &sig))
        return 0;
    int at = letter_width(result_letter(&sig));
    for (int i = 0; i < which; i++)
        at += nl_kind_width(call->args[i]->type.kind)
              * (call->args[i]->type.arraylen ? call->args[i]->type.arraylen : 1);
    return at;
}

void nl_declare_helpers(Lower *L)
{
    LLVMTypeRef cp[6] = { L->ptr, L->i32, L->i64, L->i32, L->ptr, L->ptr };
    L->call_ty = LLVMFunctionType(L->voidt, cp, 6, 0);
    L->call_fn = LLVMAddFunction(L->mod, "native_rt_call", L->call_ty);
    LLVMTypeRef mp[4] = { L->ptr, L->ptr, L->ptr, L->i32 };
    L->matdiv_ty = LLVMFunctionType(L->voidt, mp, 4, 0);
    L->matdiv_fn = LLVMAddFunction(L->mod, "native_rt_matdiv", L->matdiv_ty);
}

static int name_index(Lower *L, const char *name)
{
    for (int i = 0; i < L->nnames; i++)
        if (strcmp(L->names[i], name) == 0)
            return i;
    if (L->nnames == L->capnames) {
        L->capnames = L->capnames ? 2 * L->capnames : 16;
        L->names = realloc(L->names, (size_t)L->capnames * sizeof *L->names);
    }
    L->names[L->nnames] = strdup(name);
    return L->nnames++;
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
    BuiltinId id = (BuiltinId)ins->imm;
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

/* Why a call needs what native code lacks (derivatives over the batch),
   or NULL. */
static const char *lacking(const IrIns *ins)
{
    const Builtin *b = &builtin_table[ins->imm];
    if (b->cls == BC_DERIV && !(b->id == BI_FILTERSTEP && ins->nargs >= 3
                                && ins->args[2]->type.kind == IRT_FLOAT))
        return "derivatives (Du, Dv, Deriv, area, calculatenormal, filterstep)";
    if (b->id == BI_TEXTURE || b->id == BI_ENVIRONMENT || b->id == BI_SHADOW) {
        int ncoord = 0;
        while (1 + ncoord < ins->nargs && ins->args[1 + ncoord]->type.kind != IRT_STRING)
            ncoord++;
        if (ncoord != 4 && ncoord != 8 && (b->id == BI_TEXTURE || ncoord == 1))
            return "texture lookups filtered by derivatives";
    }
    return NULL;
}

typedef struct Arg {
    NVal v;
    int n;
    char letter;
    int arraylen;
} Arg;

static Arg global_arg(Lower *L, const IrIns *ins, const char *name, IrKind kind)
{
    NVar *var = nl_var(L, name, false, ins);
    Arg a = { var ? nl_load(L, var->slot) : nv_new(L, 3, false), 3, kind_letter(kind), 0 };
    if (!var)
        for (int k = 0; k < 3; k++)
            a.v.c[k] = LLVMConstReal(L->f32, 0);
    return a;
}

/* "base(letters|extras)result", as backends/vm/vmcall.c names it. */
static void mangle(const IrIns *ins, const Arg *args, int nargs, char *out, size_t size)
{
    BuiltinSig sig;
    bool tuple = ins->val.type.kind == IRT_TUPLE && call_sig(ins, &sig);
    int n = snprintf(out, size, "%s(", builtin_table[ins->imm].name);
    for (int i = 0; i < nargs && n < (int)size - 32; i++) {
        if (i == ins->nargs)
            n += snprintf(out + n, size - (size_t)n, "|");
        n += snprintf(out + n, size - (size_t)n, "%c", args[i].letter);
        if (args[i].arraylen)
            n += snprintf(out + n, size - (size_t)n, "[%d]", args[i].arraylen);
        if (tuple && i < ins->nargs && sig.param[i].output)
            n += snprintf(out + n, size - (size_t)n, "&");
    }
    snprintf(out + n, size - (size_t)n, ")%c",
             tuple ? result_letter(&sig) : kind_letter(ins->val.type.kind));
}

static LLVMValueRef row_ptr(Lower *L, LLVMValueRef buf, int row)
{
    LLVMValueRef i = LLVMConstInt(L->i32, (unsigned)row, 0);
    return LLVMBuildInBoundsGEP2(L->b, L->vf, buf, &i, 1, "");
}

NVal nl_call(Lower *L, const char *name, const NVal *args, const int *argn, int nargs, int outn,
             bool vary, LLVMValueRef mask)
{
    if (L->nsites == L->capsites) {
        L->capsites = L->capsites ? 2 * L->capsites : 16;
        L->sites = realloc(L->sites, (size_t)L->capsites * sizeof *L->sites);
    }
    int site = L->nsites++, total = 0;
    NativeSite *s = &L->sites[site];
    *s = (NativeSite){ .name = name_index(L, name), .nargs = nargs, .outn = outn, .uniform = !vary };
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
    if (inline_builtin(L, ins))
        return;
    const char *why = lacking(ins);
    if (why) {
        nl_lacks(L, ins, why);
        return;
    }
    const Builtin *b = &builtin_table[ins->imm];
    Arg args[VM_MAX_ARGS];
    int nargs = 0, total = 0, argn[VM_MAX_ARGS];
    NVal vals[VM_MAX_ARGS];
    bool any_varying = false;
    for (int i = 0; i < ins->nargs && nargs < VM_MAX_ARGS - 2; i++) {
        IrType t = ins->args[i]->type;
        args[nargs++] = (Arg){ nv_get(L, ins->args[i]), nl_width(L, NULL, t), kind_letter(t.kind),
                               t.arraylen };
        any_varying |= ins->args[i]->varying;
    }
    if (b->cls == BC_LIGHT)
        args[nargs++] = global_arg(L, ins, "P", IRT_POINT);
    if (b->id == BI_FACEFORWARD && ins->nargs == 2)
        args[nargs++] = global_arg(L, ins, "Ng", IRT_NORMAL);
    char name[512];
    mangle(ins, args, nargs, name, sizeof name);
    for (int i = 0; i < nargs; i++) {
        vals[i] = args[i].v;
        total += argn[i] = args[i].n;
    }
    int outn = nl_width(L, ins, ins->val.type);
    if (outn > VM_MAX_VALUE || total > VM_MAX_ARGS * VM_MAX_VALUE) {
        nl_lacks(L, ins, "builtin calls with values this wide");
        return;
    }
    bool vary = ins->val.type.kind == IRT_VOID ? any_varying : ins->val.varying;
    NVal r = nl_call(L, name, vals, argn, nargs, outn, vary, L->cur_mask);
    if (ins->val.type.kind != IRT_VOID)
        nv_define(L, ins, r);
}

/* ---- the helpers the generated code calls ------------------------------------ */

void native_rt_call(NativeRt *rt, int32_t site, int64_t base, int32_t bits, const float *args,
                    float *out)
{
    const NativeSite *s = &rt->sites[site];
    const VmBuiltin *bi = &rt->builtins[s->name];
    int W = rt->W;
    for (int lane = 0; lane < W; lane++) {
        if (!(bits >> lane & 1))
            continue;
        float vals[VM_MAX_VALUE * 4], res[VM_MAX_VALUE];
        const float *argp[VM_MAX_ARGS];
        float *big = NULL, *v = vals;
        int total = 0;
        for (int i = 0; i < s->nargs; i++)
            total += s->argn[i];
        if (total > (int)(sizeof vals / sizeof *vals))
            v = big = malloc((size_t)total * sizeof *big);
        memset(res, 0, sizeof res);
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
        bi->fn(res, &call);
        for (int k = 0; k < s->outn; k++)
            out[k * W + lane] = res[k];
        free(big);
    }
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
