/*
** prelude.c: derivatives (Du, Dv, and what the IR makes of Deriv, area,
** calculatenormal, filterstep and filtered lookups) in native code.
**
** A derivative needs its operand at the lane's two neighbours (VmDeriv,
** vm/vm.h), which may lie in a group of W lanes that has not run yet. So
** each operand is computed for the whole batch first, by a second entry
** point, the prelude: it runs the operand's backward slice (the values
** it depends on) group by group and stores the operand into a batch-wide
** buffer, one row of n floats per component. The shader's Du and Dv then
** read the buffer at the lane and its neighbours and solve as the VM does
** (vm_deriv_lane: one definition), so the two agree to the bit.
**
** The prelude computes a slice for every lane regardless of where the
** shader computes it, which is the shader's own value only when the slice
** is the same function of the point wherever it runs: each of its values
** pure (no renderer calls, no state: BC_PURE builtins), not merged from
** paths (no phis, whose value depends on the way taken, or on the loop
** iteration), reading only variables the shader never writes, and computed
** where every point of the batch computes it (not under a varying branch or
** in a light region: there the VM has the value at the points that ran the
** block only). Uniform control flow is fine: a pure value computed on one
** side of a uniform branch is the same value when the prelude computes it
** unconditionally. A derivative whose slice falls short of this makes the
** shader run on the VM, with a note saying why.
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "runtime/builtins.h"

/* ---- which derivatives native code computes ----------------------------------- */

static bool is_deriv(const IrIns *ins)
{
    if (ins->op != IR_intrin)
        return false;
    BuiltinId id = builtin_rows[ins->imm].fn;
    return id == BI_DU || id == BI_DV;
}

/* b's successors (a region's miss too) into out; their number. */
static int successors(const IrFunc *fn, const IrBlock *b, IrBlock **out)
{
    const IrIns *t = b->last;
    int k = 0;
    if (!t || t->op == IR_ret)
        return 0;
    out[k++] = t->succ[0];
    if ((t->op == IR_br || t->op == IR_region) && t->succ[1])
        out[k++] = t->succ[1];
    if (t->op == IR_region && fn->regions[t->imm].miss)
        out[k++] = fn->regions[t->imm].miss;
    return k;
}

/* Whether a path from `from` reaches `to` (to NULL: the function's exit)
   without passing `avoid` (NULL: none). seen: scratch, one per block id. */
static bool path(const IrFunc *fn, IrBlock *from, const IrBlock *to, const IrBlock *avoid,
                 bool *seen, IrBlock **stack)
{
    memset(seen, 0, (size_t)(fn->next_block_id + 1) * sizeof *seen);
    int sp = 0;
    stack[sp++] = from;
    seen[from->id] = true;
    while (sp) {
        IrBlock *b = stack[--sp], *succ[3];
        if (!to && b->last && b->last->op == IR_ret)
            return true;
        for (int k = successors(fn, b, succ) - 1; k >= 0; k--) {
            if (succ[k] == to)
                return true;
            if (succ[k] != avoid && !seen[succ[k]->id])
                seen[succ[k]->id] = true, stack[sp++] = succ[k];
        }
    }
    return false;
}

/* Whether every point of a batch that runs the shader runs b: for every
   varying branch or light region that reaches b, every way from it out of
   the shader passes through b. */
static bool all_points_run(Lower *L, IrBlock *b)
{
    IrFunc *fn = L->fn;
    if (L->dblock[b->id])
        return L->dblock[b->id] > 0;
    int nb = fn->next_block_id + 1;
    bool *seen = malloc((size_t)nb * sizeof *seen), ok = true;
    IrBlock **stack = malloc((size_t)nb * sizeof *stack);
    for (IrBlock *v = fn->entry; v && ok; v = v->next) {
        const IrIns *t = v->last;
        bool split = t && ((t->op == IR_br && t->args[0]->varying) || t->op == IR_region);
        if (split && v != b && v->rpo >= 0 && path(fn, v, b, NULL, seen, stack))
            ok = !path(fn, v, NULL, b, seen, stack);
    }
    free(seen);
    free(stack);
    L->dblock[b->id] = ok ? 1 : -1;
    return ok;
}

/* Whether the shader may write the variable that ins reads before ins
   reads it: earlier in its block, or in a block with a path to its block
   (itself, round a loop). A light region writes L (flow.c). */
static bool written_before(const IrFunc *fn, const IrIns *ins)
{
    bool param = ins->op == IR_param, found = false;
    if (!param && fn->nregions && strcmp(ins->sym, "L") == 0)
        return true;
    int nb = fn->next_block_id + 1;
    bool *seen = malloc((size_t)nb * sizeof *seen);
    IrBlock **stack = malloc((size_t)nb * sizeof *stack);
    for (IrBlock *b = fn->entry; b && !found; b = b->next) {
        bool earlier = b == ins->block;
        for (IrIns *i = b->first; i && !found; i = i->next) {
            earlier &= i != ins;
            found = (param ? i->op == IR_pset && i->imm == ins->imm
                           : i->op == IR_gset && strcmp(i->sym, ins->sym) == 0)
                 && (earlier || path(fn, b, ins->block, NULL, seen, stack));
        }
    }
    free(seen);
    free(stack);
    return found;
}

/* Marks v's slice for the prelude; NULL, or why it cannot be there. */
static const char *mark_slice(Lower *L, IrVal *v)
{
    if (v->kind != IRV_INS || L->dslice[v->id])
        return NULL;
    IrIns *ins = (IrIns *)v;
    L->dslice[v->id] = true;
    switch (ins->op) {
    case IR_param:
    case IR_gget: /* an input: the same wherever it is read */
        return written_before(L->fn, ins) ? "derivatives of a variable the shader has written"
                                          : NULL;
    case IR_phi:
        return "derivatives of a value merged from branches or loop iterations";
    case IR_light:
    case IR_call:
        return "derivatives of a light's values";
    case IR_intrin: {
        BuiltinClass cls = builtin_rows[ins->imm].cls;
        if (cls == BC_DERIV)
            return "derivatives of derivatives";
        if (cls != BC_PURE)
            return "derivatives of values from renderer calls or with side effects";
        break;
    }
    default:
        break;
    }
    if (!all_points_run(L, ins->block))
        return "derivatives of a value computed under varying control flow";
    for (int i = 0; i < ins->nargs; i++) {
        const char *why = mark_slice(L, ins->args[i]);
        if (why)
            return why;
    }
    return NULL;
}

bool nl_deriv_plan(Lower *L)
{
    IrFunc *fn = L->fn;
    int nv = fn->next_val_id + 1;
    L->drow = malloc((size_t)nv * sizeof *L->drow);
    L->dslice = calloc((size_t)nv, sizeof *L->dslice);
    L->dblock = calloc((size_t)fn->next_block_id + 1, sizeof *L->dblock);
    for (int i = 0; i < nv; i++)
        L->drow[i] = -1;
    ir_fill_rpo(fn);
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *ins = b->first; ins; ins = ins->next) {
            if (b->rpo < 0 || !is_deriv(ins) || L->gpu || !ins->args[0]->varying)
                continue;
            IrVal *x = ins->args[0];
            const char *why = mark_slice(L, x);
            if (why) {
                nl_lacks(L, ins, why);
                return false;
            }
            if (L->drow[x->id] < 0) {
                L->drow[x->id] = L->drows;
                L->drows += nl_width(L, NULL, x->type);
            }
        }
    return true;
}

/* ---- lowering ------------------------------------------------------------------ */

/* A field of the NativeRt at rt, loaded as type t. */
static LLVMValueRef rt_field(Lower *L, size_t offset, LLVMTypeRef t)
{
    LLVMValueRef off = LLVMConstInt(L->i64, offset, 0);
    return LLVMBuildLoad2(L->b, t, LLVMBuildInBoundsGEP2(L->b, L->i8, L->rt, &off, 1, ""), "");
}

bool nl_lower_deriv(Lower *L, IrIns *ins)
{
    if (!is_deriv(ins) || L->gpu)
        return false;
    IrVal *x = ins->args[0];
    int w = nl_width(L, ins, ins->val.type);
    NVal r = nv_new(L, w, ins->val.varying);
    if (!x->varying) { /* a uniform value does not change over the surface */
        for (int k = 0; k < w; k++)
            r.c[k] = LLVMConstNull(ins->val.varying ? L->vf : L->f32);
        nv_define(L, ins, r);
        return true;
    }
    LLVMValueRef out = LLVMBuildArrayAlloca(L->eb, L->vf, LLVMConstInt(L->i32, (unsigned)w, 0), "");
    LLVMValueRef args[6] = { L->rt, L->base, LLVMConstInt(L->i32, (unsigned)L->drow[x->id], 0),
                             LLVMConstInt(L->i32, (unsigned)w, 0),
                             LLVMConstInt(L->i32, builtin_rows[ins->imm].fn == BI_DV, 0), out };
    LLVMBuildCall2(L->b, L->deriv_ty, L->deriv_fn, args, 6, "");
    for (int k = 0; k < w; k++) {
        LLVMValueRef i = LLVMConstInt(L->i32, (unsigned)k, 0);
        r.c[k] = LLVMBuildLoad2(L->b, L->vf, LLVMBuildInBoundsGEP2(L->b, L->vf, out, &i, 1, ""), "");
    }
    nv_define(L, ins, r);
    return true;
}

void nl_declare_deriv(Lower *L)
{
    LLVMTypeRef p[6] = { L->ptr, L->i64, L->i32, L->i32, L->i32, L->ptr };
    L->deriv_ty = LLVMFunctionType(L->voidt, p, 6, 0);
    L->deriv_fn = LLVMAddFunction(L->mod, "native_rt_deriv", L->deriv_ty);
}

/* The prelude's body: the slices in an order that defines every value
   before its uses (blocks in reverse postorder, which puts a definition's
   block before its uses' blocks), then each operand's components stored
   to its rows of the buffer at the group's lanes. */
void nl_lower_prelude(Lower *L)
{
    IrFunc *fn = L->fn;
    IrBlock **order = calloc((size_t)fn->next_block_id + 1, sizeof *order);
    int n = 0;
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0)
            order[b->rpo] = b, n++;
    for (int k = 0; k < n && !L->failed; k++)
        for (IrIns *ins = order[k]->first; ins && !L->failed; ins = ins->next)
            if (L->dslice[ins->val.id])
                nl_lower_ins(L, ins);
    free(order);
    LLVMValueRef buf = rt_field(L, offsetof(NativeRt, dbuf), L->ptr);
    LLVMValueRef stride = rt_field(L, offsetof(NativeRt, dstride), L->i64);
    for (IrBlock *b = fn->entry; b && !L->failed; b = b->next)
        for (IrIns *ins = b->first; ins; ins = ins->next) {
            if (ins->val.type.kind == IRT_VOID || L->drow[ins->val.id] < 0)
                continue;
            NVal v = nv_get(L, &ins->val);
            for (int k = 0; k < v.n; k++) {
                LLVMValueRef row = LLVMConstInt(L->i64, (unsigned)(L->drow[ins->val.id] + k), 0);
                LLVMValueRef at = LLVMBuildAdd(L->b, LLVMBuildMul(L->b, row, stride, ""), L->base, "");
                LLVMValueRef p = LLVMBuildInBoundsGEP2(L->b, L->f32, buf, &at, 1, "");
                LLVMSetAlignment(LLVMBuildStore(L->b, nv_comp(L, v, k, true), p), 4);
            }
        }
}

/* ---- the helper the shader calls ------------------------------------------------ */

void native_rt_deriv(NativeRt *rt, int64_t base, int32_t row, int32_t w, int32_t dir, float *out)
{
    const VmState *s = rt->state;
    for (int k = 0; k < w; k++) {
        const float *f = rt->dbuf + (size_t)(row + k) * (size_t)rt->dstride;
        for (int lane = 0; lane < rt->W; lane++) {
            int i = (int)base + lane;
            out[k * rt->W + lane] = i < s->n ? vm_deriv_lane(s->deriv, s->n, i, f, 1, dir) : 0;
        }
    }
}
