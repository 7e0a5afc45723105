/*
** cfg.c: control-flow analyses: reverse postorder, dominators (Cooper,
** Harvey and Kennedy's iterative algorithm over the RPO) and loop depth
** from natural loops. A region's header also flows into its miss block
** (gather's else), which no terminator names.
**
** Results live in the blocks (rpo, idom, loop_depth) and stay valid until
** the CFG changes; passes that edit edges recompute what they need.
*/
#include <stdlib.h>

#include "rslc/ir.h"

/* Successors of b, including a region's miss block; returns how many. */
static int successors(const IrBlock *b, IrBlock **out)
{
    const IrIns *t = b->last;
    int n = 0;
    if (!t || !(ir_op_flags(t->op) & OP_TERM))
        return 0;
    for (int s = 0; s < 2; s++)
        if (t->succ[s])
            out[n++] = t->succ[s];
    if (t->op == IR_region && t->imm >= 0 && t->imm < b->fn->nregions
        && b->fn->regions[t->imm].miss)
        out[n++] = b->fn->regions[t->imm].miss;
    return n;
}

void ir_fill_rpo(IrFunc *fn)
{
    int nb = fn->next_block_id;
    for (IrBlock *b = fn->entry; b; b = b->next)
        b->rpo = b->dom_pre = b->dom_last = -1, b->idom = NULL;
    if (!fn->entry)
        return;
    /* Iterative DFS; postorder numbers, then reversed. */
    IrBlock **stack = calloc((size_t)nb + 1, sizeof *stack);
    int *next = calloc((size_t)nb + 1, sizeof *next), sp = 0, count = 0;
    IrBlock **post = calloc((size_t)nb + 1, sizeof *post);
    bool *seen = calloc((size_t)nb + 1, sizeof *seen);
    stack[sp++] = fn->entry;
    seen[fn->entry->id] = true;
    while (sp) {
        IrBlock *b = stack[sp - 1], *succ[3];
        int n = successors(b, succ);
        if (next[b->id] < n) {
            IrBlock *s = succ[next[b->id]++];
            if (!seen[s->id]) {
                seen[s->id] = true;
                stack[sp++] = s;
            }
        } else {
            post[count++] = b;
            sp--;
        }
    }
    for (int i = 0; i < count; i++)
        post[i]->rpo = count - 1 - i;
    free(stack);
    free(next);
    free(post);
    free(seen);
}

static IrBlock *intersect(IrBlock *a, IrBlock *b)
{
    while (a != b) {
        while (a->rpo > b->rpo)
            a = a->idom;
        while (b->rpo > a->rpo)
            b = b->idom;
    }
    return a;
}

/* Numbers the dominator tree of the n reachable blocks order[] (by rpo)
   in preorder, so that ir_dominates is two comparisons instead of a walk
   up the tree, which made the checks that ask it for every use quadratic
   in the nesting depth. */
static void number_dom_tree(IrBlock **order, int n)
{
    /* Children as linked lists over rpo numbers: first child, next
       sibling; then an iterative DFS. */
    int *kid = malloc(((size_t)n + 1) * sizeof *kid);
    int *sib = malloc(((size_t)n + 1) * sizeof *sib);
    int *stack = malloc(((size_t)n + 1) * sizeof *stack);
    if (!kid || !sib || !stack)
        goto out;
    for (int i = 0; i < n; i++)
        kid[i] = sib[i] = -1;
    for (int i = n - 1; i > 0; i--) {
        if (!order[i]->idom)
            continue;
        int p = order[i]->idom->rpo;
        sib[i] = kid[p];
        kid[p] = i;
    }
    int sp = 0, pre = 0;
    stack[sp++] = 0;
    order[0]->dom_pre = pre++;
    while (sp) {
        int v = stack[sp - 1];
        if (kid[v] >= 0) {
            int c = kid[v];
            kid[v] = sib[c];
            order[c]->dom_pre = pre++;
            stack[sp++] = c;
        } else {
            order[v]->dom_last = pre - 1;
            sp--;
        }
    }
out:
    free(kid);
    free(sib);
    free(stack);
}

void ir_fill_dominators(IrFunc *fn)
{
    int n = 0;
    for (IrBlock *b = fn->entry; b; b = b->next)
        n += b->rpo >= 0;
    IrBlock **order = calloc((size_t)n + 1, sizeof *order);
    for (IrBlock *b = fn->entry; b; b = b->next) {
        b->idom = NULL, b->dom_pre = b->dom_last = -1;
        if (b->rpo >= 0)
            order[b->rpo] = b;
    }
    if (!n) {
        free(order);
        return;
    }
    order[0]->idom = order[0];
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 1; i < n; i++) {
            IrBlock *b = order[i], *idom = NULL;
            for (int p = 0; p < b->npreds; p++) {
                IrBlock *q = b->preds[p];
                if (q->rpo >= 0 && q->idom)
                    idom = idom ? intersect(q, idom) : q;
            }
            /* gather's miss block is entered from its region's header,
               an edge no predecessor list records. */
            for (int r = 0; r < fn->nregions; r++) {
                IrBlock *h = fn->regions[r].header;
                if (fn->regions[r].miss == b && h && h->rpo >= 0 && h->idom)
                    idom = idom ? intersect(h, idom) : h;
            }
            if (idom && b->idom != idom) {
                b->idom = idom;
                changed = true;
            }
        }
    }
    number_dom_tree(order, n);
    free(order);
}

bool ir_dominates(const IrBlock *a, const IrBlock *b)
{
    if (a->rpo < 0 || b->rpo < 0)
        return false;
    if (a->dom_pre >= 0 && b->dom_pre >= 0)
        return a->dom_pre <= b->dom_pre && b->dom_pre <= a->dom_last;
    for (;;) {
        if (a == b)
            return true;
        if (!b->idom || b->idom == b)
            return false;
        b = b->idom;
    }
}

void ir_fill_loops(IrFunc *fn)
{
    int nb = fn->next_block_id;
    bool *in = calloc((size_t)nb + 1, sizeof *in);
    IrBlock **work = calloc((size_t)nb + 1, sizeof *work);
    for (IrBlock *b = fn->entry; b; b = b->next)
        b->loop_depth = 0;
    for (IrBlock *h = fn->entry; h; h = h->next) {
        bool header = false;
        for (int p = 0; p < h->npreds; p++)
            header |= ir_dominates(h, h->preds[p]);
        if (!header)
            continue;
        /* The natural loop: h and whatever reaches a latch without h. */
        for (int i = 0; i < nb; i++)
            in[i] = false;
        int nw = 0;
        in[h->id] = true;
        for (int p = 0; p < h->npreds; p++) {
            IrBlock *l = h->preds[p];
            if (ir_dominates(h, l) && !in[l->id])
                in[l->id] = true, work[nw++] = l;
        }
        while (nw) {
            IrBlock *b = work[--nw];
            for (int p = 0; p < b->npreds; p++)
                if (b->preds[p]->rpo >= 0 && !in[b->preds[p]->id])
                    in[b->preds[p]->id] = true, work[nw++] = b->preds[p];
        }
        for (IrBlock *b = fn->entry; b; b = b->next)
            b->loop_depth += in[b->id];
    }
    free(in);
    free(work);
}
