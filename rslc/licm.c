/*
** licm.c: loop-invariant code motion. Loops are found from back edges
** (an edge to a block that dominates its source); innermost loops go
** first, so an expression climbs out of a nest one level per loop.
**
** Only speculable instructions move (pure operators and pure math
** builtins, not those that look a name up: see opt_speculable): they
** cannot trap and do not depend on the execution mask, so computing them
** in the preheader for lanes that would not have run them is harmless. Derivatives, texture lookups and `light` values
** stay: a region body is a loop over lights, and whatever depends on L or
** Cl is not invariant because `light` never moves.
**
** A loop gets a preheader when it has none; a loop entered through a
** `region` or `next` edge (whose targets are fixed) is left alone.
**
** requires: ssa; preserves: regions; breaks: rpo, dom (new preheaders).
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/pass.h"

typedef struct Loop {
    IrBlock *header;
    PtrVec latches;            /* sources of the back edges */
} Loop;

static bool invariant(const IrIns *ins, const bool *inloop)
{
    if (!opt_speculable(ins) || ins->op == IR_param)
        return false;
    for (int k = 0; k < ins->nargs; k++) {
        const IrVal *a = ins->args[k];
        if (a->kind == IRV_INS && inloop[((const IrIns *)a)->block->id])
            return false;
    }
    return true;
}

/* Hoists out of loop l. order holds the blocks in reverse postorder; a new
   preheader joins it just before the header. */
static bool hoist(IrFunc *fn, Loop *l, IrBlock **order, int *norder, bool *inloop)
{
    PtrVec work = { 0 };
    inloop[l->header->id] = true;
    for (int i = 0; i < l->latches.n; i++)
        vec_push(&work, l->latches.p[i]);
    while (work.n) {
        IrBlock *b = work.p[--work.n];
        if (inloop[b->id])
            continue;
        inloop[b->id] = true;
        for (int p = 0; p < b->npreds; p++)
            vec_push(&work, b->preds[p]);
    }
    vec_free(&work);
    bool changed = false;
    bool created = false;
    IrBlock *pre = opt_preheader(fn, l->header, inloop, &created);
    if (created) {
        int at = 0;
        while (order[at] != l->header)
            at++;
        memmove(order + at + 1, order + at, (size_t)(*norder - at) * sizeof *order);
        order[at] = pre;
        ++*norder;
    }
    for (int i = 0; pre && i < *norder; i++) {
        if (!inloop[order[i]->id])
            continue;
        for (IrIns *ins = order[i]->first, *next; ins; ins = next) {
            next = ins->next;
            if (ins->op != IR_phi && invariant(ins, inloop)) {
                opt_move_before(ins, opt_term(pre));
                changed = true;
            }
        }
    }
    return changed;
}

bool pass_licm(IrFunc *fn)
{
    ir_fill_rpo(fn);
    ir_fill_dominators(fn);
    IrBlock **order = calloc((size_t)fn->nblocks * 2 + 1, sizeof *order);
    Loop *loops = calloc((size_t)fn->nblocks, sizeof *loops);
    int norder = 0, nloops = 0;
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0)
            order[b->rpo] = b, norder++;
    /* Headers by decreasing rpo: an inner header comes after its outer. */
    for (int i = norder - 1; i >= 0; i--) {
        IrBlock *h = order[i];
        Loop *l = &loops[nloops];
        for (int p = 0; p < h->npreds; p++)
            if (h->preds[p]->rpo >= 0 && ir_dominates(h, h->preds[p]))
                vec_push(&l->latches, h->preds[p]);
        if (l->latches.n)
            l->header = h, nloops++;
    }
    bool changed = false;
    bool *inloop = NULL;
    for (int i = 0; i < nloops; i++) {
        /* Preheaders add blocks: size the marks afresh. */
        free(inloop);
        inloop = calloc((size_t)fn->next_block_id + 1, sizeof *inloop);
        changed |= hoist(fn, &loops[i], order, &norder, inloop);
        vec_free(&loops[i].latches);
    }
    free(inloop);
    free(order);
    free(loops);
    return changed;
}
