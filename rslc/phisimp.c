/*
** phisimp.c: removes redundant phis (Braun et al., "Simple and Efficient
** Construction of SSA Form", 2013, sections 3.1 and 3.2).
**
** A phi is trivial when its operands are one value v and itself: it
** becomes v (undef if it only names itself). A strongly connected set of
** phis that together see a single outside value (loops nested in loops
** leave such cycles) is replaced by that value as a whole; Tarjan's
** algorithm finds the sets, and a set with several outside values is
** searched again among its inner phis, whose operands all lie inside.
**
** requires: ssa; preserves: cfg, dom, loops, regions.
*/
#include <stdlib.h>

#include "rslc/pass.h"

static bool trivial_phis(IrFunc *fn)
{
    bool changed = false, again = true;
    while (again) {
        again = false;
        for (IrBlock *b = fn->entry; b; b = b->next)
            for (IrIns *p = b->first, *next; p && p->op == IR_phi; p = next) {
                next = p->next;
                IrVal *same = NULL;
                bool trivial = true;
                for (int k = 0; k < p->nargs && trivial; k++) {
                    IrVal *a = p->args[k];
                    if (a == same || a == &p->val)
                        continue;
                    trivial = !same;
                    same = a;
                }
                if (!trivial)
                    continue;
                opt_replace(p, same ? same : ir_undef(fn, p->val.type));
                again = changed = true;
            }
    }
    return changed;
}

/* ---- strongly connected phis ------------------------------------------------ */

typedef struct Scc {
    int *index, *low;          /* by value id; index 0 = not visited */
    bool *onstack, *member;    /* member: in the set being searched */
    PtrVec stack, found;       /* found: the SCCs, each a NULL-ended run */
    PtrVec dead;               /* replaced phis, deleted at the end */
    int counter;
} Scc;

static bool in_set(Scc *s, const IrVal *v)
{
    return v->kind == IRV_INS && s->member[v->id];
}

/* Tarjan, recursive: phi chains are as deep as the loop nest at most. */
static void connect(Scc *s, IrIns *p)
{
    int id = p->val.id;
    s->index[id] = s->low[id] = ++s->counter;
    vec_push(&s->stack, p);
    s->onstack[id] = true;
    for (int k = 0; k < p->nargs; k++) {
        IrVal *a = p->args[k];
        if (!in_set(s, a))
            continue;
        if (!s->index[a->id]) {
            connect(s, (IrIns *)a);
            if (s->low[a->id] < s->low[id])
                s->low[id] = s->low[a->id];
        } else if (s->onstack[a->id] && s->index[a->id] < s->low[id]) {
            s->low[id] = s->index[a->id];
        }
    }
    if (s->low[id] != s->index[id])
        return;
    IrIns *q;
    do {
        q = s->stack.p[--s->stack.n];
        s->onstack[q->val.id] = false;
        vec_push(&s->found, q);
    } while (q != p);
    vec_push(&s->found, NULL);
}

static bool search(Scc *s, IrIns **set, int n);

/* One SCC: a single outside value replaces it; otherwise its inner phis
   may hold a smaller redundant cycle. */
static bool process(Scc *s, IrIns **scc, int n)
{
    IrVal *outer = NULL;
    bool single = true;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < scc[i]->nargs; k++) {
            IrVal *a = scc[i]->args[k];
            if (in_set(s, a) || a == outer)
                continue;
            single = single && !outer;
            outer = a;
        }
    if (single && outer) {
        for (int i = 0; i < n; i++) {
            ir_replace_uses(&scc[i]->val, outer);
            vec_push(&s->dead, scc[i]);
        }
        return true;
    }
    if (n == 1)
        return false;
    IrIns **inner = malloc((size_t)n * sizeof *inner);
    int ninner = 0;
    for (int i = 0; i < n; i++) {
        bool all_in = true;
        for (int k = 0; k < scc[i]->nargs; k++)
            all_in = all_in && in_set(s, scc[i]->args[k]);
        if (all_in)
            inner[ninner++] = scc[i];
    }
    for (int i = 0; i < n; i++)
        s->member[scc[i]->val.id] = false;
    bool changed = ninner > 0 && ninner < n && search(s, inner, ninner);
    free(inner);
    return changed;
}

/* Finds the SCCs among set[0..n-1] (phis) and processes each. */
static bool search(Scc *s, IrIns **set, int n)
{
    for (int i = 0; i < n; i++) {
        int id = set[i]->val.id;
        s->member[id] = true;
        s->index[id] = 0;
    }
    int base = s->found.n;
    for (int i = 0; i < n; i++)
        if (!s->index[set[i]->val.id])
            connect(s, set[i]);
    for (int i = 0; i < n; i++)
        s->member[set[i]->val.id] = false;
    /* Copy out: processing nested sets reuses `found`. */
    int len = s->found.n - base;
    IrIns **runs = malloc((size_t)len * sizeof *runs);
    for (int i = 0; i < len; i++)
        runs[i] = s->found.p[base + i];
    s->found.n = base;
    bool changed = false;
    for (int i = 0, start = 0; i < len; i++) {
        if (runs[i])
            continue;
        for (int j = start; j < i; j++)
            s->member[runs[j]->val.id] = true;
        changed |= process(s, runs + start, i - start);
        for (int j = start; j < i; j++)
            s->member[runs[j]->val.id] = false;
        start = i + 1;
    }
    free(runs);
    return changed;
}

static bool phi_cycles(IrFunc *fn)
{
    PtrVec phis = { 0 };
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *p = b->first; p && p->op == IR_phi; p = p->next)
            vec_push(&phis, p);
    size_t n = (size_t)fn->next_val_id;
    Scc s = { .index = calloc(n, sizeof(int)), .low = calloc(n, sizeof(int)),
              .onstack = calloc(n, sizeof(bool)), .member = calloc(n, sizeof(bool)) };
    bool changed = search(&s, (IrIns **)phis.p, phis.n);
    opt_delete_all((IrIns **)s.dead.p, s.dead.n);
    free(s.index);
    free(s.low);
    free(s.onstack);
    free(s.member);
    vec_free(&s.stack);
    vec_free(&s.found);
    vec_free(&s.dead);
    vec_free(&phis);
    return changed;
}

bool pass_phisimp(IrFunc *fn)
{
    bool changed = trivial_phis(fn);
    if (phi_cycles(fn)) {
        trivial_phis(fn);
        changed = true;
    }
    return changed;
}
