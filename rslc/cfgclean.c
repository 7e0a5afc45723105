/*
** cfgclean.c: control-flow cleanup, repeated until nothing changes:
**   - a branch on a constant, or to one block both ways with the same phi
**     operands, becomes a jump;
**   - a block that only jumps on is skipped by its predecessors;
**   - a jump over a block that only branches on a phi (and whose phis
**     serve nothing else) goes straight to the side the phi's operand for
**     that edge selects (jump threading);
**   - a block with a single predecessor that jumps to it is merged into it;
**   - unreachable blocks are deleted.
** Region blocks (header, body, miss, exit) are never merged or skipped
** away and `region`/`next` edges are never redirected: the backends rely
** on the region's shape.
**
** requires: ssa; preserves: regions; breaks: rpo, dom, loops.
*/
#include <stdlib.h>

#include "rslc/pass.h"

static bool phis_agree(const IrBlock *to, int k0, int k1)
{
    for (const IrIns *p = to->first; p && p->op == IR_phi; p = p->next)
        if (p->args[k0] != p->args[k1])
            return false;
    return true;
}

static bool has_phis(const IrBlock *b)
{
    return b->first && b->first->op == IR_phi;
}

/* Edges that may be redirected: those of jumps and branches. */
static bool plain(const IrIns *t)
{
    return t->op == IR_jmp || t->op == IR_br;
}

static bool fold_branch(IrIns *t)
{
    bool c;
    if (t->op != IR_br)
        return false;
    if (opt_const_bool(t->args[0], &c)) {
        opt_br_to_jmp(t, c ? 0 : 1);
        return true;
    }
    IrBlock *to = t->succ[0], *b = t->block;
    if (to != t->succ[1])
        return false;
    if (!phis_agree(to, opt_pred_index(to, b, 0), opt_pred_index(to, b, 1)))
        return false;
    opt_br_to_jmp(t, 0);
    return true;
}

/* b holds a lone jump: its predecessors go to the target directly. The
   target's phis get b's operand for each new edge; a predecessor that
   already reaches the target would need two operands, so it stays. */
static bool skip_empty(IrFunc *fn, IrBlock *b)
{
    IrIns *t = opt_term(b);
    IrBlock *to = t->succ[0];
    if (t->op != IR_jmp || b->first != t || b == fn->entry || to == b || !b->npreds
        || opt_region_block(fn, b))
        return false;
    for (int k = 0; k < b->npreds; k++)
        if (!plain(opt_term(b->preds[k]))
            || (has_phis(to) && opt_pred_index(to, b->preds[k], 0) >= 0))
            return false;
    PtrVec vals = { 0 };
    int kb = opt_pred_index(to, b, 0);
    for (IrIns *p = to->first; p && p->op == IR_phi; p = p->next)
        vec_push(&vals, p->args[kb]);
    while (b->npreds) {
        IrIns *pt = opt_term(b->preds[0]);
        opt_retarget(pt, pt->succ[0] == b ? 0 : 1, to, (IrVal **)vals.p);
    }
    vec_free(&vals);
    return true;
}

/* Are the phis of b used only by its branch and, along b's own edges, by
   the phis of its successors? Then b's values matter nowhere else. */
static bool phis_local(const IrBlock *b)
{
    for (const IrIns *p = b->first; p && p->op == IR_phi; p = p->next)
        for (int u = 0; u < p->val.nuses; u++) {
            const IrIns *user = p->val.uses[u].user;
            if (user == b->last)
                continue;
            if (user->op != IR_phi || user->block->preds[p->val.uses[u].index] != b)
                return false;
        }
    return true;
}

/* The operand on edge (from -> b) of v as seen at the end of b: a phi of b
   gives its operand k, anything else is itself. */
static IrVal *through(IrVal *v, const IrBlock *b, int k)
{
    const IrIns *p = (const IrIns *)v;
    return v->kind == IRV_INS && p->op == IR_phi && p->block == b ? p->args[k] : v;
}

static bool thread(IrFunc *fn, IrBlock *b)
{
    IrIns *t = opt_term(b);
    IrVal *cond = t->op == IR_br ? t->args[0] : NULL;
    if (!cond || cond->kind != IRV_INS || ((IrIns *)cond)->block != b
        || ((IrIns *)cond)->op != IR_phi || t->succ[0] == t->succ[1]
        || opt_region_block(fn, b) || !phis_local(b))
        return false;
    for (IrIns *i = b->first; i != t; i = i->next)
        if (i->op != IR_phi)
            return false;
    for (int k = 0; k < b->npreds; k++) {
        IrBlock *p = b->preds[k];
        IrIns *pt = opt_term(p);
        bool c;
        if (!plain(pt) || !opt_const_bool(((IrIns *)cond)->args[k], &c)
            || opt_pred_index(b, p, 1) >= 0)
            continue;
        IrBlock *to = t->succ[c ? 0 : 1];
        if (to == b || (has_phis(to) && opt_pred_index(to, p, 0) >= 0))
            continue;
        PtrVec vals = { 0 };
        int kb = opt_pred_index(to, b, 0);
        for (IrIns *q = to->first; q && q->op == IR_phi; q = q->next)
            vec_push(&vals, through(q->args[kb], b, k));
        opt_retarget(pt, pt->succ[0] == b ? 0 : 1, to, (IrVal **)vals.p);
        vec_free(&vals);
        return true;
    }
    return false;
}

static bool merge(IrFunc *fn, IrBlock *b)
{
    IrIns *t = opt_term(b);
    IrBlock *s = t->succ[0];
    if (t->op != IR_jmp || s == b || s->npreds != 1 || s == fn->entry
        || opt_region_block(fn, s))
        return false;
    opt_merge_blocks(b, s);
    return true;
}

/* One sweep: unreachable blocks go, then each block is edited until no
   rule applies to it (no rule deletes the block it is applied to; merge
   deletes its successor). A sweep that restarted after every edit made
   the pass quadratic in the blocks of a large inlined shader. */
static bool clean_once(IrFunc *fn)
{
    bool changed = opt_remove_unreachable(fn);
    for (IrBlock *b = fn->entry; b;)
        if (fold_branch(opt_term(b)) || merge(fn, b) || skip_empty(fn, b) || thread(fn, b))
            changed = true;
        else
            b = b->next;
    return changed;
}

bool pass_cfgclean(IrFunc *fn)
{
    bool changed = false;
    while (clean_once(fn))
        changed = true;
    return changed;
}
