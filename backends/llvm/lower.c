/*
** lower.c: one IR instruction to LLVM IR (everything but control flow,
** flow.c, and builtin calls, calls.c). Arithmetic is componentwise over
** the value's components; a varying result makes uniform operands
** vectors. Results match the VM's: the same operations in the same
** order, no fast-math (so no contraction into FMA), matrices row major
** as mathlib.c multiplies them.
*/
#include <string.h>

#include "backends/llvm/native_impl.h"

typedef LLVMValueRef (*BinFn)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *);

/* r[k] = f(a[k], b[k]) over n components. */
static NVal componentwise(Lower *L, NVal a, NVal b, int n, bool vary, BinFn f)
{
    NVal r = nv_new(L, n, vary);
    for (int k = 0; k < n; k++)
        r.c[k] = f(L->b, nv_comp(L, a, k, vary), nv_comp(L, b, k, vary), "");
    return r;
}

static LLVMValueRef fdot(Lower *L, NVal a, NVal b, bool vary)
{
    LLVMValueRef s = LLVMBuildFMul(L->b, nv_comp(L, a, 0, vary), nv_comp(L, b, 0, vary), "");
    for (int k = 1; k < 3; k++)
        s = LLVMBuildFAdd(L->b, s, LLVMBuildFMul(L->b, nv_comp(L, a, k, vary),
                                                 nv_comp(L, b, k, vary), ""), "");
    return s;
}

/* a b, row major, each element summed as rsl_matmul sums it. */
static NVal matmul(Lower *L, NVal a, NVal b, bool vary)
{
    NVal r = nv_new(L, 16, vary);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            LLVMValueRef s = NULL;
            for (int k = 0; k < 4; k++) {
                LLVMValueRef p = LLVMBuildFMul(L->b, nv_comp(L, a, i * 4 + k, vary),
                                               nv_comp(L, b, k * 4 + j, vary), "");
                s = s ? LLVMBuildFAdd(L->b, s, p, "") : p;
            }
            r.c[i * 4 + j] = s;
        }
    return r;
}

/* Spills a value's components to a stack array of W-wide rows. */
static LLVMValueRef spill(Lower *L, NVal v, int n)
{
    LLVMValueRef buf = LLVMBuildArrayAlloca(L->eb, L->vf, LLVMConstInt(L->i32, (unsigned)n, 0), "");
    for (int k = 0; k < n; k++) {
        LLVMValueRef i = LLVMConstInt(L->i32, (unsigned)k, 0);
        LLVMBuildStore(L->b, nv_comp(L, v, k, true), LLVMBuildInBoundsGEP2(L->b, L->vf, buf, &i, 1, ""));
    }
    return buf;
}

static NVal unspill(Lower *L, LLVMValueRef buf, int n, bool vary)
{
    NVal r = nv_new(L, n, true);
    for (int k = 0; k < n; k++) {
        LLVMValueRef i = LLVMConstInt(L->i32, (unsigned)k, 0);
        r.c[k] = LLVMBuildLoad2(L->b, L->vf, LLVMBuildInBoundsGEP2(L->b, L->vf, buf, &i, 1, ""), "");
    }
    if (!vary) { /* a uniform result: lane 0 */
        for (int k = 0; k < n; k++)
            r.c[k] = LLVMBuildExtractElement(L->b, r.c[k], LLVMConstInt(L->i32, 0, 0), "");
        r.varying = false;
    }
    return r;
}

/* a / b for matrices: a times b's inverse (zero when b is singular), by
   mathlib.c per lane. */
static NVal matdiv(Lower *L, NVal a, NVal b, bool vary)
{
    LLVMValueRef pa = spill(L, a, 16), pb = spill(L, b, 16);
    LLVMValueRef out = LLVMBuildArrayAlloca(L->eb, L->vf, LLVMConstInt(L->i32, 16, 0), "");
    LLVMValueRef args[4] = { pa, pb, out, LLVMConstInt(L->i32, (unsigned)L->W, 0) };
    LLVMBuildCall2(L->b, L->matdiv_ty, L->matdiv_fn, args, 4, "");
    return unspill(L, out, 16, vary);
}

static LLVMValueRef fcmp(Lower *L, LLVMRealPredicate p, NVal a, NVal b, bool vary)
{
    return LLVMBuildFCmp(L->b, p, nv_comp(L, a, 0, vary), nv_comp(L, b, 0, vary), "");
}

/* Every component equal (strings: the same index, compared as bits). */
static LLVMValueRef equal(Lower *L, IrType t, NVal a, NVal b, bool vary)
{
    int n = nl_width(L, NULL, t);
    LLVMValueRef r = NULL;
    for (int k = 0; k < n; k++) {
        LLVMValueRef x = nv_comp(L, a, k, vary), y = nv_comp(L, b, k, vary), e;
        if (t.kind == IRT_BOOL) {
            e = LLVMBuildICmp(L->b, LLVMIntEQ, x, y, "");
        } else if (t.kind == IRT_STRING) {
            LLVMTypeRef it = vary ? L->vi32 : L->i32;
            e = LLVMBuildICmp(L->b, LLVMIntEQ, LLVMBuildBitCast(L->b, x, it, ""),
                              LLVMBuildBitCast(L->b, y, it, ""), "");
        } else {
            e = LLVMBuildFCmp(L->b, LLVMRealOEQ, x, y, "");
        }
        r = r ? LLVMBuildAnd(L->b, r, e, "") : e;
    }
    return r;
}

static NVal one(Lower *L, LLVMValueRef x, bool vary)
{
    NVal r = nv_new(L, 1, vary);
    r.c[0] = x;
    return r;
}

/* An array index as the VM clamps it: !(i > 0) is 0, past the end is
   the last element, else truncated. An i32 (vector when varying). */
static LLVMValueRef clamp_index(Lower *L, NVal idx, int len, bool vary)
{
    LLVMValueRef f = nv_comp(L, idx, 0, vary);
    LLVMTypeRef ft = vary ? L->vf : L->f32, it = vary ? L->vi32 : L->i32;
    LLVMValueRef zero = LLVMConstNull(ft), last = LLVMConstReal(L->f32, (double)(len - 1));
    if (vary)
        last = nl_splat(L, last);
    LLVMValueRef pos = LLVMBuildFCmp(L->b, LLVMRealOGT, f, zero, "");
    LLVMValueRef big = LLVMBuildFCmp(L->b, LLVMRealOGE, f, last, "");
    LLVMValueRef c = LLVMBuildSelect(L->b, big, last, LLVMBuildSelect(L->b, pos, f, zero, ""), "");
    return LLVMBuildFPToUI(L->b, c, it, "");
}

static LLVMValueRef index_is(Lower *L, LLVMValueRef idx, int e, bool vary)
{
    LLVMValueRef k = LLVMConstInt(L->i32, (unsigned)e, 0);
    return LLVMBuildICmp(L->b, LLVMIntEQ, idx, vary ? nl_splat(L, k) : k, "");
}

/* The array's name as the VM's warning gives it: a parameter's or a
   global's, else "" (a local array). */
static const char *array_name(Lower *L, IrVal *a)
{
    const IrIns *def = a->kind == IRV_INS ? (const IrIns *)a : NULL;
    if (def && def->op == IR_param && def->imm >= 0 && def->imm < L->fn->nparams)
        return L->fn->params[def->imm].name;
    if (def && def->op == IR_gget && def->sym)
        return def->sym;
    return "";
}

/* The VM's warning on an index out of bounds, !(-1 < i < len), at the
   first active lane that has one: a branch to a cold call of
   native_rt_bad_index, so that indexing in range costs a compare. A GPU
   thread has no host to warn through; its index is clamped alike. */
static void warn_bad_index(Lower *L, IrIns *ins, NVal i, int len)
{
    if (L->gpu)
        return;
    bool vary = i.varying;
    LLVMValueRef f = nv_comp(L, i, 0, vary);
    LLVMValueRef lo = LLVMConstReal(L->f32, -1.0), hi = LLVMConstReal(L->f32, (double)len);
    if (vary)
        lo = nl_splat(L, lo), hi = nl_splat(L, hi);
    LLVMValueRef in = LLVMBuildAnd(L->b, LLVMBuildFCmp(L->b, LLVMRealOGT, f, lo, ""),
                                   LLVMBuildFCmp(L->b, LLVMRealOLT, f, hi, ""), "");
    LLVMValueRef bad = LLVMBuildNot(L->b, in, "");
    LLVMValueRef bits = NULL;
    if (vary) {
        bad = LLVMBuildAnd(L->b, bad, L->cur_mask, "");
        bits = LLVMBuildBitCast(L->b, bad, LLVMIntTypeInContext(L->ctx, (unsigned)L->W), "");
        bad = LLVMBuildICmp(L->b, LLVMIntNE, bits, LLVMConstNull(LLVMTypeOf(bits)), "");
    }
    LLVMBasicBlockRef cold = LLVMAppendBasicBlockInContext(L->ctx, L->func, "badindex");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(L->ctx, L->func, "badindex.done");
    LLVMBuildCondBr(L->b, bad, cold, cont);
    LLVMPositionBuilderAtEnd(L->b, cold);
    LLVMValueRef value = f;
    if (vary) {
        LLVMTypeRef bt = LLVMTypeOf(bits);
        unsigned id = LLVMLookupIntrinsicID("llvm.cttz", 9);
        LLVMValueRef cttz = LLVMGetIntrinsicDeclaration(L->mod, id, &bt, 1);
        LLVMValueRef cargs[2] = { bits, LLVMConstInt(L->i1, 0, 0) };
        LLVMValueRef lane = LLVMBuildCall2(L->b, LLVMIntrinsicGetType(L->ctx, id, &bt, 1), cttz,
                                           cargs, 2, "");
        value = LLVMBuildExtractElement(L->b, f, lane, "");
    }
    LLVMValueRef args[6] = { L->rt,
                             LLVMBuildGlobalStringPtr(L->b, ins->loc.file ? ins->loc.file : "?", ""),
                             LLVMConstInt(L->i32, (unsigned)ins->loc.line, 0),
                             LLVMBuildGlobalStringPtr(L->b, array_name(L, ins->args[0]), ""),
                             LLVMConstInt(L->i32, (unsigned)len, 0), value };
    LLVMBuildCall2(L->b, L->bad_index_ty, L->bad_index_fn, args, 6, "");
    LLVMBuildBr(L->b, cont);
    LLVMPositionBuilderAtEnd(L->b, cont);
}

static NVal array_get(Lower *L, IrIns *ins, bool vary)
{
    IrType at = ins->args[0]->type;
    int w = nl_kind_width(at.kind), len = at.arraylen;
    NVal a = nv_get(L, ins->args[0]), i = nv_get(L, ins->args[1]);
    warn_bad_index(L, ins, i, len);
    LLVMValueRef idx = clamp_index(L, i, len, i.varying);
    NVal r = nv_new(L, w, vary);
    for (int k = 0; k < w; k++) {
        r.c[k] = nv_comp(L, a, k, vary);
        for (int e = 1; e < len; e++)
            r.c[k] = LLVMBuildSelect(L->b, index_is(L, idx, e, i.varying),
                                     nv_comp(L, a, e * w + k, vary), r.c[k], "");
    }
    return r;
}

static NVal array_set(Lower *L, IrIns *ins, bool vary)
{
    IrType at = ins->args[0]->type;
    int w = nl_kind_width(at.kind), len = at.arraylen;
    NVal a = nv_get(L, ins->args[0]), i = nv_get(L, ins->args[1]), c = nv_get(L, ins->args[2]);
    warn_bad_index(L, ins, i, len);
    LLVMValueRef idx = clamp_index(L, i, len, i.varying);
    NVal r = nv_new(L, w * len, vary);
    for (int e = 0; e < len; e++) {
        LLVMValueRef hit = index_is(L, idx, e, i.varying);
        for (int k = 0; k < w; k++)
            r.c[e * w + k] = LLVMBuildSelect(L->b, hit, nv_comp(L, c, k, vary),
                                             nv_comp(L, a, e * w + k, vary), "");
    }
    return r;
}

static NVal arith(Lower *L, IrIns *ins, bool vary)
{
    BinFn f = ins->op == IR_add ? LLVMBuildFAdd : ins->op == IR_sub ? LLVMBuildFSub
            : ins->op == IR_mul ? LLVMBuildFMul : LLVMBuildFDiv;
    NVal a = nv_get(L, ins->args[0]), b = nv_get(L, ins->args[1]);
    if (ins->val.type.kind == IRT_MATRIX && ins->op == IR_mul)
        return matmul(L, a, b, vary);
    if (ins->val.type.kind == IRT_MATRIX && ins->op == IR_div)
        return matdiv(L, a, b, vary);
    return componentwise(L, a, b, nl_width(L, ins, ins->val.type), vary, f);
}

static NVal select_value(Lower *L, IrIns *ins, bool vary)
{
    NVal c = nv_get(L, ins->args[0]), a = nv_get(L, ins->args[1]), b = nv_get(L, ins->args[2]);
    int n = nl_width(L, ins, ins->val.type);
    NVal r = nv_new(L, n, vary);
    LLVMValueRef cond = nv_comp(L, c, 0, c.varying);
    for (int k = 0; k < n; k++)
        r.c[k] = LLVMBuildSelect(L->b, cond, nv_comp(L, a, k, vary), nv_comp(L, b, k, vary), "");
    return r;
}

static NVal parts(Lower *L, IrIns *ins, bool vary)
{
    NVal r = nv_new(L, ins->nargs, vary);
    for (int k = 0; k < ins->nargs; k++)
        r.c[k] = nv_comp(L, nv_get(L, ins->args[k]), 0, vary);
    return r;
}

static NVal splat(Lower *L, IrIns *ins, bool vary)
{
    NVal a = nv_get(L, ins->args[0]);
    bool m = ins->val.type.kind == IRT_MATRIX;
    NVal r = nv_new(L, m ? 16 : 3, vary);
    LLVMValueRef x = nv_comp(L, a, 0, vary), zero = LLVMConstNull(vary ? L->vf : L->f32);
    for (int k = 0; k < r.n; k++)
        r.c[k] = !m || k % 5 == 0 ? x : zero;
    return r;
}

/* A parameter or global read: the variable's current value. */
static void read_var(Lower *L, IrIns *ins, bool param)
{
    const char *name = param ? L->fn->params[ins->imm].name : ins->sym;
    NVar *v = nl_var(L, name, param, ins);
    if (!v)
        return;
    NVal x = nl_load(L, v->slot);
    x.n = nl_width(L, ins, ins->val.type) < x.n ? nl_width(L, ins, ins->val.type) : x.n;
    NVal r = nv_new(L, x.n, ins->val.varying);
    for (int k = 0; k < x.n; k++)
        r.c[k] = nv_comp(L, x, k, ins->val.varying);
    nv_define(L, ins, r);
}

static void write_var(Lower *L, IrIns *ins, bool param)
{
    const char *name = param ? L->fn->params[ins->imm].name : ins->sym;
    NVar *v = nl_var(L, name, param, ins);
    if (!v)
        return;
    v->written = true;
    nl_store(L, v->slot, nv_get(L, ins->args[0]), nl_store_mask(L));
}

void nl_lower_ins(Lower *L, IrIns *ins)
{
    bool vary = ins->val.varying;
    NVal r = { 0 };
    switch (ins->op) {
    case IR_nop:
    case IR_phi: /* flow.c stores phis on their edges */
        return;
    case IR_copy:
    case IR_retype: {
        NVal a = nv_get(L, ins->args[0]);
        r = nv_new(L, a.n, vary);
        for (int k = 0; k < a.n; k++)
            r.c[k] = nv_comp(L, a, k, vary);
        break;
    }
    case IR_add: case IR_sub: case IR_mul: case IR_div:
        r = arith(L, ins, vary);
        break;
    case IR_neg: {
        NVal a = nv_get(L, ins->args[0]);
        r = nv_new(L, a.n, vary);
        for (int k = 0; k < a.n; k++)
            r.c[k] = LLVMBuildFNeg(L->b, nv_comp(L, a, k, vary), "");
        break;
    }
    case IR_dot:
        r = one(L, fdot(L, nv_get(L, ins->args[0]), nv_get(L, ins->args[1]), vary), vary);
        break;
    case IR_cross: {
        NVal a = nv_get(L, ins->args[0]), b = nv_get(L, ins->args[1]);
        r = nv_new(L, 3, vary);
        for (int k = 0; k < 3; k++) {
            int i = (k + 1) % 3, j = (k + 2) % 3;
            r.c[k] = LLVMBuildFSub(
                L->b, LLVMBuildFMul(L->b, nv_comp(L, a, i, vary), nv_comp(L, b, j, vary), ""),
                LLVMBuildFMul(L->b, nv_comp(L, a, j, vary), nv_comp(L, b, i, vary), ""), "");
        }
        break;
    }
    case IR_lt: case IR_le: case IR_gt: case IR_ge: {
        static const LLVMRealPredicate preds[] = { [IR_lt] = LLVMRealOLT, [IR_le] = LLVMRealOLE,
                                                   [IR_gt] = LLVMRealOGT, [IR_ge] = LLVMRealOGE };
        r = one(L, fcmp(L, preds[ins->op], nv_get(L, ins->args[0]), nv_get(L, ins->args[1]), vary),
                vary);
        break;
    }
    case IR_eq:
    case IR_ne: {
        LLVMValueRef e = equal(L, ins->args[0]->type, nv_get(L, ins->args[0]),
                               nv_get(L, ins->args[1]), vary);
        r = one(L, ins->op == IR_eq ? e : LLVMBuildNot(L->b, e, ""), vary);
        break;
    }
    case IR_and:
    case IR_or:
        r = componentwise(L, nv_get(L, ins->args[0]), nv_get(L, ins->args[1]), 1, vary,
                          ins->op == IR_and ? LLVMBuildAnd : LLVMBuildOr);
        break;
    case IR_not:
        r = one(L, LLVMBuildNot(L->b, nv_comp(L, nv_get(L, ins->args[0]), 0, vary), ""), vary);
        break;
    case IR_select:
        r = select_value(L, ins, vary);
        break;
    case IR_splat:
        r = splat(L, ins, vary);
        break;
    case IR_triple:
    case IR_matrix:
        r = parts(L, ins, vary);
        break;
    case IR_aget:
        r = array_get(L, ins, vary);
        break;
    case IR_aset:
        r = array_set(L, ins, vary);
        break;
    case IR_param:
    case IR_gget:
        read_var(L, ins, ins->op == IR_param);
        return;
    case IR_gset:
    case IR_pset:
        write_var(L, ins, ins->op == IR_pset);
        return;
    case IR_intrin:
        nl_lower_intrin(L, ins);
        return;
    case IR_callout: {
        NVal t = nv_get(L, ins->args[0]);
        int at = nl_tuple_offset((const IrIns *)ins->args[0], ins->imm);
        r = nv_new(L, nl_width(L, ins, ins->val.type), vary);
        for (int k = 0; k < r.n; k++)
            r.c[k] = nv_comp(L, t, at + k, vary);
        break;
    }
    case IR_call:
        nl_lacks(L, ins, "calls of functions that could not be inlined");
        return;
    case IR_light: { /* L, Cl or Ol of the region's light (flow.c) */
        int reg = L->region_of[ins->block->id];
        if (reg < 0 || ins->imm < 0 || ins->imm > 2) {
            nl_lacks(L, ins, "this light value");
            return;
        }
        NVal lv = nl_load(L, L->light_val[reg]);
        r = nv_new(L, 3, vary);
        for (int k = 0; k < 3; k++)
            r.c[k] = nv_comp(L, lv, 3 * ins->imm + k, vary);
        break;
    }
    default: /* terminators: flow.c */
        return;
    }
    nv_define(L, ins, r);
}
