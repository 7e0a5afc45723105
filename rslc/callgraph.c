/*
** callgraph.c: the module's call graph for the inliner (pass.h): each
** function's index, how many calls name it, and whether it reaches itself
** through calls (Tarjan's strongly connected components, iterative: a
** chain of calls may be as long as the file has functions).
**
** Built once per question instead of walking the module for every call,
** which made inlining a chain of n functions cubic in n.
*/
#include <stdlib.h>

#include "rslc/pass.h"

typedef struct Entry {
    const IrFunc *fn;
    int index;
} Entry;

static int by_fn(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    return (x->fn > y->fn) - (x->fn < y->fn);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n + 1, size);
    if (!p) {
        perror("rslc");
        exit(1);
    }
    return p;
}

int callgraph_index(const CallGraph *g, const IrFunc *fn)
{
    Entry key = { fn, -1 }, *e = fn ? bsearch(&key, g->by_addr, (size_t)g->n, sizeof key, by_fn) : NULL;
    return e ? e->index : -1;
}

/* Tarjan over the edges: a component of more than one function, or one
   that calls itself, is cyclic. */
static void find_cycles(CallGraph *g)
{
    int n = g->n, *num = xcalloc((size_t)n, sizeof *num), *low = xcalloc((size_t)n, sizeof *low);
    int *stack = xcalloc((size_t)n, sizeof *stack), *call = xcalloc((size_t)n, sizeof *call);
    int *next = xcalloc((size_t)n, sizeof *next);
    bool *on = xcalloc((size_t)n, sizeof *on);
    int counter = 0, sp = 0;
    for (int root = 0; root < n; root++) {
        if (num[root])
            continue;
        int depth = 0;
        call[depth++] = root;
        num[root] = low[root] = ++counter;
        stack[sp++] = root, on[root] = true;
        while (depth) {
            int v = call[depth - 1];
            if (next[v] < g->nedges[v]) {
                int w = g->edges[v][next[v]++];
                if (w == v)
                    g->cyclic[v] = true;
                if (!num[w]) {
                    num[w] = low[w] = ++counter;
                    stack[sp++] = w, on[w] = true;
                    call[depth++] = w;
                } else if (on[w] && num[w] < low[v]) {
                    low[v] = num[w];
                }
                continue;
            }
            depth--;
            if (depth && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
            if (low[v] != num[v])
                continue;
            int w, size = 0;
            do {
                w = stack[--sp];
                on[w] = false;
                size++;
            } while (w != v);
            for (int k = sp; size > 1 && k < sp + size; k++)
                g->cyclic[stack[k]] = true;
        }
    }
    free(num), free(low), free(stack), free(call), free(next), free(on);
}

void callgraph_build(CallGraph *g, const IrModule *m)
{
    int n = g->n = m->nfuncs;
    g->by_addr = xcalloc((size_t)n, sizeof *g->by_addr);
    for (int k = 0; k < n; k++)
        g->by_addr[k] = (Entry){ m->funcs[k], k };
    qsort(g->by_addr, (size_t)n, sizeof *g->by_addr, by_fn);
    g->sites = xcalloc((size_t)n, sizeof *g->sites);
    g->cyclic = xcalloc((size_t)n, sizeof *g->cyclic);
    g->nedges = xcalloc((size_t)n, sizeof *g->nedges);
    g->edges = xcalloc((size_t)n, sizeof *g->edges);
    for (int k = 0; k < n; k++) {
        int cap = 0;
        for (const IrBlock *b = m->funcs[k]->entry; b; b = b->next)
            for (const IrIns *i = b->first; i; i = i->next) {
                int c = i->op == IR_call ? callgraph_index(g, i->callee) : -1;
                if (c < 0)
                    continue;
                g->sites[c]++;
                if (g->nedges[k] == cap) {
                    cap = cap ? 2 * cap : 4;
                    int *e = realloc(g->edges[k], (size_t)cap * sizeof *e);
                    if (!e) {
                        perror("rslc");
                        exit(1);
                    }
                    g->edges[k] = e;
                }
                g->edges[k][g->nedges[k]++] = c;
            }
    }
    find_cycles(g);
}

void callgraph_free(CallGraph *g)
{
    for (int k = 0; k < g->n; k++)
        free(g->edges[k]);
    free(g->edges);
    free(g->nedges);
    free(g->by_addr);
    free(g->sites);
    free(g->cyclic);
}
