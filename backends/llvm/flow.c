/*
** flow.c: the control flow of a lowered shader.
**
** Without a varying branch the IR's blocks become LLVM blocks one for
** one: uniform branches branch, phis are stores on their edges.
**
** With one, the function is linearised as the VM back end does it
** (backends/vm/linearize.c; Karrenberg and Hack's whole-function
** vectorisation for reducible CFGs): blocks in reverse postorder with
** every loop contiguous after its header; each block B has a lane mask
** m_B in a slot; B runs only if m_B has a lane (an empty loop header
** leaves its loop), clears m_B, runs its instructions, and ORs its
** outgoing edges' masks (m_B & c, m_B & !c) into its successors' masks,
** storing their phis under each edge's mask. The last block of a loop
** jumps back to its header. Definitions store into their slots under
** m_B (values.c), so each lane keeps what it computed on its own path.
** Lanes outside the batch are never in a mask: the entry runs on the
** batch's lanes.
**
** Light regions (illuminance, illuminate, solar) are loops over the
** host's lights as in the VM: each pass through the header asks the
** runtime for light `counter` at each lane; the lanes it lights run the
** body, the others wait in the header's mask for the next light, and all
** leave when the lights run out. gather is not lowered yet.
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native_impl.h"
#include "backends/vm/vmgen.h"
#include "runtime/builtins.h"

/* Reverse postorder with each natural loop contiguous after its header:
   its blocks follow the header in RPO already (the header dominates
   them), so the others in between move after the loop.
   requires rpo, dominators; fills order, norder, loop_end */
static void layout(Lower *L)
{
    IrFunc *fn = L->fn;
    int nb = fn->next_block_id + 1, n = 0;
    L->order = calloc((size_t)nb, sizeof *L->order);
    L->loop_end = malloc((size_t)nb * sizeof *L->loop_end);
    L->region_of = malloc((size_t)nb * sizeof *L->region_of);
    for (int i = 0; i < nb; i++)
        L->loop_end[i] = L->region_of[i] = -1;
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0) {
            L->order[b->rpo] = b;
            n++;
        }
    L->norder = n;
    bool *in = malloc((size_t)nb * sizeof *in);
    IrBlock **stack = malloc((size_t)nb * sizeof *stack), **rest = malloc((size_t)nb * sizeof *rest);
    for (int i = 0; i < n; i++) {
        IrBlock *h = L->order[i];
        int sp = 0;
        bool header = false;
        memset(in, 0, (size_t)nb * sizeof *in);
        in[h->id] = true;
        for (int p = 0; p < h->npreds; p++) { /* the latches */
            IrBlock *latch = h->preds[p];
            if (latch->rpo < 0 || !ir_dominates(h, latch))
                continue;
            header = true;
            if (!in[latch->id])
                in[latch->id] = true, stack[sp++] = latch;
        }
        if (!header)
            continue;
        while (sp) { /* the blocks that reach a latch without passing h */
            IrBlock *b = stack[--sp];
            for (int p = 0; p < b->npreds; p++)
                if (b->preds[p]->rpo >= 0 && !in[b->preds[p]->id])
                    in[b->preds[p]->id] = true, stack[sp++] = b->preds[p];
        }
        int reg = -1;
        for (int g = 0; g < fn->nregions; g++)
            if (fn->regions[g].header == h)
                reg = g;
        for (int j = 0; reg >= 0 && j < nb; j++) /* inner loops come later: innermost wins */
            if (in[j] && j != h->id)
                L->region_of[j] = reg;
        int k = i + 1, r = 0;
        for (int j = i + 1; j < n; j++)
            if (in[L->order[j]->id])
                L->order[k++] = L->order[j];
            else
                rest[r++] = L->order[j];
        L->loop_end[h->id] = k - 1;
        memcpy(L->order + k, rest, (size_t)r * sizeof *rest);
    }
    free(in);
    free(stack);
    free(rest);
}

/* The stores of edge from -> to (the k-th such edge) into to's phis, as
   a parallel copy: every source is read before any phi is written. */
static void phi_stores(Lower *L, IrBlock *from, IrBlock *to, int k, LLVMValueRef mask)
{
    int idx = -1, seen = 0, nphi = 0;
    for (int p = 0; p < to->npreds && idx < 0; p++)
        if (to->preds[p] == from && seen++ == k)
            idx = p;
    for (IrIns *i = to->first; i && i->op == IR_phi; i = i->next)
        nphi++;
    if (idx < 0 || !nphi)
        return;
    NVal *src = malloc((size_t)nphi * sizeof *src);
    int n = 0;
    for (IrIns *i = to->first; i && i->op == IR_phi; i = i->next)
        src[n++] = nv_get(L, i->args[idx]);
    n = 0;
    for (IrIns *i = to->first; i && i->op == IR_phi; i = i->next)
        nl_store(L, L->slot[i->val.id], src[n++], mask);
    free(src);
}

static LLVMValueRef cond_mask(Lower *L, IrVal *c)
{
    return nv_comp(L, nv_get(L, c), 0, true);
}

static void or_mask(Lower *L, IrBlock *s, LLVMValueRef m)
{
    LLVMValueRef p = L->mask_slot[s->id];
    LLVMBuildStore(L->b, LLVMBuildOr(L->b, LLVMBuildLoad2(L->b, L->vb, p, ""), m, ""), p);
}

static int region_at(const Lower *L, const IrBlock *b)
{
    for (int r = 0; r < L->fn->nregions; r++)
        if (L->fn->regions[r].header == b)
            return r;
    return -1;
}

static NVal scalar(Lower *L, LLVMValueRef x)
{
    NVal v = nv_new(L, 1, false);
    v.c[0] = x;
    return v;
}

/* A light region's header with mask m (see the top of the file); returns
   the lanes that wait for the next light. */
static LLVMValueRef region_terminator(Lower *L, IrIns *t, LLVMValueRef m)
{
    int r = t->imm;
    IrRegionKind kind = L->fn->regions[r].kind;
    bool illuminance = kind == IRR_ILLUMINANCE;
    /* illuminance("category", ...): the category goes last to __light. */
    int first = illuminance && t->nargs && t->args[0]->type.kind == IRT_STRING;
    int given = t->nargs - first;
    if (kind == IRR_GATHER) {
        nl_lacks(L, t, "gather");
        return LLVMConstNull(L->vb);
    }
    if ((kind != IRR_SOLAR && given != 1 && given != 3)
        || (kind == IRR_SOLAR && given != 0 && given != 2)) {
        nl_lacks(L, t, "light regions of these arguments");
        return LLVMConstNull(L->vb);
    }
    VmCallee callee, count = { .row = BO_NLIGHTS_f, .result = 'f' };
    vmgen_light_callee(kind, given, first, &callee);
    LLVMValueRef cnt = nl_load(L, L->light_cnt[r]).c[0];
    LLVMValueRef n = illuminance ? nl_call(L, &count, NULL, NULL, 0, 1, false, m, t).c[0]
                                 : LLVMConstReal(L->f32, 1);
    LLVMValueRef more = LLVMBuildFCmp(L->b, LLVMRealOLT, cnt, n, "");
    NVal args[6];
    int argn[6], na = 0;
    if (illuminance)
        args[na] = scalar(L, cnt), argn[na++] = 1;
    for (int k = first; k < t->nargs && na < 5; k++) {
        args[na] = nv_get(L, t->args[k]);
        argn[na++] = nl_width(L, NULL, t->args[k]->type);
    }
    if (first) {
        args[na] = nv_get(L, t->args[0]);
        argn[na++] = nl_width(L, NULL, t->args[0]->type);
    }
    if (!illuminance) { /* Ps: the point as this light sees it */
        NVar *ps = nl_var(L, "Ps", false, t);
        if (!ps)
            return LLVMConstNull(L->vb);
        args[na] = nl_load(L, ps->slot), argn[na++] = 3;
    }
    LLVMValueRef live = LLVMBuildAnd(L->b, m, nl_splat(L, more), "");
    NVal lv = nl_call(L, &callee, args, argn, na, 16, true, live, t);
    nl_store(L, L->light_val[r], lv, live);
    LLVMValueRef lit = LLVMBuildFCmp(L->b, LLVMRealUNE, lv.c[9], LLVMConstNull(L->vf), "");
    LLVMValueRef body = LLVMBuildAnd(L->b, live, lit, "");
    if (!illuminance) { /* the renderer reads L where the region runs */
        NVar *l = nl_var(L, "L", false, t);
        if (!l)
            return LLVMConstNull(L->vb);
        l->written = true;
        nl_store(L, l->slot, lv, body);
    }
    LLVMValueRef out = LLVMBuildAnd(L->b, m, nl_splat(L, LLVMBuildNot(L->b, more, "")), "");
    LLVMValueRef next = LLVMBuildFAdd(L->b, cnt, LLVMConstReal(L->f32, 1), "");
    nl_store(L, L->light_cnt[r], scalar(L, next), NULL);
    LLVMValueRef e[2] = { body, out };
    for (int k = 0; k < 2; k++) {
        or_mask(L, t->succ[k], e[k]);
        phi_stores(L, t->block, t->succ[k], 0, e[k]);
    }
    return LLVMBuildAnd(L->b, live, LLVMBuildNot(L->b, lit, ""), "");
}

static void masked_terminator(Lower *L, IrIns *t, LLVMValueRef m)
{
    IrBlock *b = t->block;
    if (t->op == IR_jmp || t->op == IR_next) {
        int r = region_at(L, t->succ[0]);
        if (r >= 0 && t->op == IR_jmp) /* entering a region: its first light */
            nl_store(L, L->light_cnt[r], scalar(L, LLVMConstReal(L->f32, 0)), NULL);
        or_mask(L, t->succ[0], m);
        phi_stores(L, b, t->succ[0], 0, m);
    } else if (t->op == IR_br) {
        LLVMValueRef c = cond_mask(L, t->args[0]);
        LLVMValueRef e[2] = { LLVMBuildAnd(L->b, m, c, ""),
                              LLVMBuildAnd(L->b, m, LLVMBuildNot(L->b, c, ""), "") };
        for (int k = 0; k < 2; k++) {
            or_mask(L, t->succ[k], e[k]);
            phi_stores(L, b, t->succ[k], k && t->succ[0] == t->succ[1], e[k]);
        }
    } else if (t->op == IR_region) {
        or_mask(L, b, region_terminator(L, t, m));
    }
    /* ret: the lanes are done and flow nowhere. */
}

static LLVMBasicBlockRef new_bb(Lower *L, const char *name)
{
    return LLVMAppendBasicBlockInContext(L->ctx, L->func, name);
}

static void lower_block(Lower *L, IrBlock *b, LLVMValueRef m)
{
    for (IrIns *ins = b->first; ins && !L->failed; ins = ins->next)
        if (!(ir_op_flags(ins->op) & OP_TERM))
            nl_lower_ins(L, ins);
        else if (L->masked)
            masked_terminator(L, ins, m);
}

/* A loop's back edge at loc: one step of the batch's budget (rt's
   steps_left); past it, the back edge's index + 1 goes to rt's overrun
   and the batch returns (native_session_run reports it as the VM does). */
static void back_edge(Lower *L, SrcLoc loc)
{
    if (L->nbacks == L->capbacks) {
        L->capbacks = L->capbacks ? 2 * L->capbacks : 8;
        L->backs = realloc(L->backs, (size_t)L->capbacks * sizeof *L->backs);
    }
    L->backs[L->nbacks] = (NativeBack){ strdup(loc.file ? loc.file : "?"), loc.line };
    int site = ++L->nbacks;
    LLVMValueRef left = LLVMBuildLoad2(L->b, L->i64, L->rt, "");
    left = LLVMBuildSub(L->b, left, LLVMConstInt(L->i64, 1, 0), "");
    LLVMBuildStore(L->b, left, L->rt);
    LLVMValueRef over = LLVMBuildICmp(L->b, LLVMIntSLT, left, LLVMConstInt(L->i64, 0, 0), "");
    LLVMBasicBlockRef stop = new_bb(L, "overrun"), go = new_bb(L, "again");
    LLVMBuildCondBr(L->b, over, stop, go);
    LLVMPositionBuilderAtEnd(L->b, stop);
    LLVMValueRef off = LLVMConstInt(L->i64, offsetof(NativeRt, overrun), 0);
    LLVMValueRef at = LLVMBuildInBoundsGEP2(L->b, L->i8, L->rt, &off, 1, "");
    LLVMBuildStore(L->b, LLVMConstInt(L->i32, (unsigned)site, 0), at);
    LLVMBuildRetVoid(L->b);
    LLVMPositionBuilderAtEnd(L->b, go);
}

static void lower_masked(Lower *L, LLVMBasicBlockRef done)
{
    int n = L->norder;
    LLVMBasicBlockRef *chk = malloc((size_t)(n + 1) * sizeof *chk);
    LLVMBasicBlockRef *exit = calloc((size_t)(n + 1), sizeof *exit);
    for (int i = 0; i < n; i++) {
        chk[i] = new_bb(L, "block");
        if (i > 0) { /* every mask starts empty */
            L->mask_slot[L->order[i]->id] = LLVMBuildAlloca(L->eb, L->vb, "");
            LLVMBuildStore(L->eb, LLVMConstNull(L->vb), L->mask_slot[L->order[i]->id]);
        }
        if (L->loop_end[L->order[i]->id] >= 0)
            exit[i] = new_bb(L, "loopexit");
    }
    chk[n] = done;
    LLVMBuildBr(L->b, chk[0]);
    for (int i = 0; i < n && !L->failed; i++) {
        IrBlock *b = L->order[i];
        LLVMPositionBuilderAtEnd(L->b, chk[i]);
        LLVMBasicBlockRef skip = NULL;
        L->at_entry = i == 0;
        L->cur_mask = L->lanes;
        if (i > 0) {
            L->cur_mask = LLVMBuildLoad2(L->b, L->vb, L->mask_slot[b->id], "");
            LLVMBasicBlockRef body = new_bb(L, "body");
            skip = exit[i] ? NULL : new_bb(L, "skip");
            LLVMBuildCondBr(L->b, nl_any(L, L->cur_mask), body, exit[i] ? exit[i] : skip);
            LLVMPositionBuilderAtEnd(L->b, body);
            /* Cleared first: a block may be its own successor. */
            LLVMBuildStore(L->b, LLVMConstNull(L->vb), L->mask_slot[b->id]);
        }
        lower_block(L, b, L->cur_mask);
        if (skip) {
            LLVMBuildBr(L->b, skip);
            LLVMPositionBuilderAtEnd(L->b, skip);
        }
        /* Loops ending here go back to their headers, innermost first;
           leaving one lands after its back jump. */
        for (int h = i; h >= 0; h--)
            if (L->loop_end[L->order[h]->id] == i) {
                back_edge(L, b->last ? b->last->loc : L->fn->loc);
                LLVMBuildBr(L->b, chk[h]);
                LLVMPositionBuilderAtEnd(L->b, exit[h]);
            }
        LLVMBuildBr(L->b, chk[i + 1]);
    }
    free(chk);
    free(exit);
}

/* at: each block's place in the layout; a jump to a block not after its
   own is a loop's back edge. */
static void plain_terminator(Lower *L, IrIns *t, LLVMBasicBlockRef done, const int *at)
{
    IrBlock *b = t->block;
    if (t->op == IR_ret) {
        LLVMBuildBr(L->b, done);
    } else if (t->op == IR_jmp) {
        phi_stores(L, b, t->succ[0], 0, NULL);
        if (at[t->succ[0]->id] <= at[b->id])
            back_edge(L, t->loc);
        LLVMBuildBr(L->b, L->bb[t->succ[0]->id]);
    } else if (t->op == IR_br) {
        LLVMValueRef c = nv_comp(L, nv_get(L, t->args[0]), 0, false);
        LLVMBasicBlockRef e[2] = { new_bb(L, "edge"), new_bb(L, "edge") };
        LLVMBuildCondBr(L->b, c, e[0], e[1]);
        for (int k = 0; k < 2; k++) {
            LLVMPositionBuilderAtEnd(L->b, e[k]);
            phi_stores(L, b, t->succ[k], k && t->succ[0] == t->succ[1], NULL);
            if (at[t->succ[k]->id] <= at[b->id])
                back_edge(L, t->loc);
            LLVMBuildBr(L->b, L->bb[t->succ[k]->id]);
        }
    } else { /* regions make the function masked */
        LLVMBuildBr(L->b, done);
    }
}

static void lower_plain(Lower *L, LLVMBasicBlockRef done)
{
    int *at = calloc((size_t)L->fn->next_block_id + 1, sizeof *at);
    for (int i = 0; i < L->norder; i++) {
        L->bb[L->order[i]->id] = new_bb(L, "block");
        at[L->order[i]->id] = i;
    }
    LLVMBuildBr(L->b, L->bb[L->order[0]->id]);
    L->at_entry = true;
    L->cur_mask = L->lanes;
    for (int i = 0; i < L->norder && !L->failed; i++) {
        IrBlock *b = L->order[i];
        LLVMPositionBuilderAtEnd(L->b, L->bb[b->id]);
        lower_block(L, b, L->lanes);
        if (!L->failed)
            plain_terminator(L, b->last, done, at);
    }
    free(at);
}

/* Which values need slots: phis, and values used outside their block. */
static void assign_slots(Lower *L)
{
    for (IrBlock *b = L->fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next) {
            if (i->val.type.kind == IRT_VOID)
                continue;
            bool need = i->op == IR_phi;
            for (int u = 0; u < i->val.nuses && !need; u++)
                need = i->val.uses[u].user->block != b || i->val.uses[u].user->op == IR_phi;
            if (need)
                L->slot[i->val.id] = nl_alloca(L, nl_width(L, i, i->val.type), i->val.varying,
                                                i->val.type.kind == IRT_BOOL);
        }
}

void nl_lower_body(Lower *L)
{
    IrFunc *fn = L->fn;
    ir_fill_rpo(fn);
    ir_fill_dominators(fn);
    layout(L);
    L->masked = fn->nregions > 0;
    L->light_cnt = calloc((size_t)fn->nregions + 1, sizeof *L->light_cnt);
    L->light_val = calloc((size_t)fn->nregions + 1, sizeof *L->light_val);
    for (int r = 0; r < fn->nregions; r++) {
        L->light_cnt[r] = nl_alloca(L, 1, false, false);
        L->light_val[r] = nl_alloca(L, 16, true, false);
    }
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0 && b->last && b->last->op == IR_br && b->last->args[0]->varying)
            L->masked = true;
    int nb = fn->next_block_id + 1;
    L->mask_slot = calloc((size_t)nb, sizeof *L->mask_slot);
    L->bb = calloc((size_t)nb, sizeof *L->bb);
    assign_slots(L);
    LLVMBasicBlockRef done = new_bb(L, "exit");
    if (L->masked)
        lower_masked(L, done);
    else
        lower_plain(L, done);
    LLVMPositionBuilderAtEnd(L->b, done);
    nl_vars_store(L);
    LLVMBuildRetVoid(L->b);
}
