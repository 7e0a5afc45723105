/*
** uniform.c: uniform/varying inference after SSA construction.
**
** A value is varying when it may differ between the shading points of a
** batch. Sources: parameters declared varying (function formals unless
** declared uniform: a function is compiled for any caller), shader
** globals other than the uniform ones of RISpec (E, ncomps, time,
** dtime; globals.c), light values, builtins whose result is always
** varying (BF_VARYING), builtin calls the checker pinned varying (a
** message passing call into a varying variable: IrIns.pin), and calls
** whose callee returns a varying value. A call pinned uniform (random()
** in a uniform context) is uniform when its operands are.
** An operation is varying if an operand is; a builtin with BF_UNIFORM
** never is.
**
** Control dependence: a branch on a varying condition (and every region,
** whose body runs for some points only) splits the points. With P its
** immediate post-dominator, let R_s be the blocks reachable from
** successor s without passing P. Phis in P, in blocks of two different
** R_s (paths from both sides meet) and in loop headers that dominate the
** branch and lie in some R_s (the points leave the loop in different
** iterations) are varying. A loop inside one side of a varying branch
** keeps its uniform counter.
**
** Values only become varying, so iterating to a fixpoint terminates.
**
** requires: the callees' inference done (the module lists them first).
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/lower_impl.h"

typedef struct Graph {
    IrFunc *fn;
    IrBlock **blk;           /* by id */
    int n;                   /* ids 0..n-1; n is the virtual exit */
    int *ipdom;              /* by id, n for the virtual exit, -1 unknown */
} Graph;

static int succs(const Graph *g, const IrBlock *b, int *out)
{
    const IrIns *t = b->last;
    int k = 0;
    if (!t)
        return 0;
    for (int s = 0; s < 2; s++)
        if (t->succ[s] && (t->op == IR_jmp || t->op == IR_br || t->op == IR_region
                           || t->op == IR_next) && (s == 0 || t->op != IR_jmp))
            out[k++] = t->succ[s]->id;
    if (t->op == IR_region && g->fn->regions[t->imm].miss)
        out[k++] = g->fn->regions[t->imm].miss->id;
    if (t->op == IR_ret)
        out[k++] = g->n;
    return k;
}

/* Post-dominators: Cooper, Harvey and Kennedy on the reversed graph. */
static void postdominators(Graph *g)
{
    int n = g->n, *order = calloc((size_t)n + 1, sizeof *order), norder = 0;
    int *po = calloc((size_t)n + 1, sizeof *po);
    bool *seen = calloc((size_t)n + 1, sizeof *seen);
    int *stack = calloc((size_t)n + 1, sizeof *stack), *it = calloc((size_t)n + 1, sizeof *it);
    /* DFS from the exit over predecessors: postorder of the reverse graph. */
    int sp = 0;
    stack[sp++] = n;
    seen[n] = true;
    while (sp) {
        int v = stack[sp - 1];
        IrBlock **preds = NULL;
        int np = 0;
        if (v == n) {
            /* The exit's predecessors: blocks that return. */
            int k = it[v];
            while (k < n && !(g->blk[k] && g->blk[k]->last && g->blk[k]->last->op == IR_ret))
                k++;
            it[v] = k + 1;
            if (k < n && !seen[k]) {
                seen[k] = true;
                stack[sp++] = k;
            } else if (k >= n) {
                po[v] = norder, order[norder++] = v, sp--;
            }
            continue;
        }
        preds = g->blk[v]->preds;
        np = g->blk[v]->npreds;
        /* A miss block's predecessor is its region's header. */
        IrBlock *vp = NULL;
        for (int r = 0; r < g->fn->nregions; r++)
            if (g->fn->regions[r].miss == g->blk[v])
                vp = g->fn->regions[r].header;
        if (it[v] < np + (vp != NULL)) {
            IrBlock *p = it[v] < np ? preds[it[v]] : vp;
            it[v]++;
            if (!seen[p->id]) {
                seen[p->id] = true;
                stack[sp++] = p->id;
            }
        } else {
            po[v] = norder, order[norder++] = v, sp--;
        }
    }
    for (int i = 0; i <= n; i++)
        g->ipdom[i] = -1;
    g->ipdom[n] = n;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = norder - 1; i >= 0; i--) {
            int v = order[i], s[3], ns, best = -1;
            if (v == n)
                continue;
            ns = succs(g, g->blk[v], s);
            for (int k = 0; k < ns; k++) {
                int w = s[k];
                if (!seen[w] || g->ipdom[w] < 0)
                    continue;
                if (best < 0) {
                    best = w;
                    continue;
                }
                int a = best, b = w;
                while (a != b) {
                    while (po[a] < po[b])
                        a = g->ipdom[a];
                    while (po[b] < po[a])
                        b = g->ipdom[b];
                }
                best = a;
            }
            if (best >= 0 && g->ipdom[v] != best) {
                g->ipdom[v] = best;
                changed = true;
            }
        }
    }
    free(order), free(po), free(seen), free(stack), free(it);
}

/* Marks in mark[] (with bit) the blocks reachable from `from` not
   passing stop. */
static void reach(const Graph *g, int from, int stop, unsigned *mark, unsigned bit)
{
    int *work = malloc(((size_t)g->n + 1) * 4 * sizeof *work), nw = 0;
    if (from == stop || from == g->n || (mark[from] & bit)) {
        free(work);
        return;
    }
    mark[from] |= bit;
    work[nw++] = from;
    while (nw) {
        int v = work[--nw], s[3], ns = succs(g, g->blk[v], s);
        for (int k = 0; k < ns; k++)
            if (s[k] != stop && s[k] != g->n && !(mark[s[k]] & bit)) {
                mark[s[k]] |= bit;
                work[nw++] = s[k];
            }
    }
    free(work);
}

static bool mark_phis(IrBlock *b)
{
    bool changed = false;
    for (IrIns *i = b->first; i && i->op == IR_phi; i = i->next)
        if (!i->val.varying)
            i->val.varying = changed = true;
    return changed;
}

/* The phis made varying by the divergent branch ending block b. */
static bool diverge(Graph *g, IrBlock *b)
{
    int s[3], ns = succs(g, b, s), stop = g->ipdom[b->id];
    bool changed = false;
    unsigned *mark = calloc((size_t)g->n + 1, sizeof *mark);
    for (int k = 0; k < ns; k++)
        reach(g, s[k], stop, mark, 1u << k);
    for (int v = 0; v < g->n; v++) {
        IrBlock *x = g->blk[v];
        if (!x || !mark[v])
            continue;
        bool both = (mark[v] & (mark[v] - 1)) != 0;
        if (both || (x->rpo >= 0 && b->rpo >= 0 && ir_dominates(x, b)))
            changed |= mark_phis(x);
    }
    if (stop >= 0 && stop < g->n && g->blk[stop])
        changed |= mark_phis(g->blk[stop]);
    free(mark);
    return changed;
}

/* Is the value a callee returns (any of its ret operands) varying? */
static bool callee_varying(const IrFunc *f)
{
    if (!f)
        return true;
    for (const IrBlock *b = f->entry; b; b = b->next)
        if (b->last && b->last->op == IR_ret)
            for (int k = 0; k < b->last->nargs; k++)
                if (b->last->args[k]->varying)
                    return true;
    return false;
}

static bool source(const IrFunc *fn, const IrIns *i)
{
    bool any = false;
    for (int k = 0; k < i->nargs; k++)
        any |= i->args[k]->varying;
    switch (i->op) {
    case IR_param:
        return fn->params[i->imm].varying;
    case IR_gget: {
        const GlobalVar *g = global_lookup(i->sym);
        return !g || g->detail != DETAIL_UNIFORM;
    }
    case IR_light:
        return true;
    case IR_intrin: {
        unsigned f = i->imm >= 0 && i->imm < BO_COUNT ? builtin_rows[i->imm].flags : BF_VARYING;
        if (i->pin)
            return i->pin == IR_PIN_VARYING || any;
        return (f & BF_VARYING) || any;   /* the verifier wants uniform operands of a uniform value, BF_UNIFORM or not */
    }
    case IR_call:
        return any || callee_varying(i->callee);
    default:
        return any;
    }
}

void uniform_infer(IrFunc *fn)
{
    Graph g = { .fn = fn, .n = fn->next_block_id };
    g.blk = calloc((size_t)g.n + 1, sizeof *g.blk);
    g.ipdom = calloc((size_t)g.n + 1, sizeof *g.ipdom);
    for (IrBlock *b = fn->entry; b; b = b->next)
        g.blk[b->id] = b;
    ir_fill_rpo(fn);
    ir_fill_dominators(fn);
    postdominators(&g);
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            i->val.varying = false;
    for (bool changed = true; changed;) {
        changed = false;
        for (IrBlock *b = fn->entry; b; b = b->next)
            for (IrIns *i = b->first; i; i = i->next)
                if (!i->val.varying && i->val.type.kind != IRT_VOID && source(fn, i))
                    i->val.varying = changed = true;
        for (IrBlock *b = fn->entry; b; b = b->next) {
            IrIns *t = b->last;
            if (t && (t->op == IR_region || (t->op == IR_br && t->args[0]->varying)))
                changed |= diverge(&g, b);
        }
    }
    free(g.blk);
    free(g.ipdom);
}
