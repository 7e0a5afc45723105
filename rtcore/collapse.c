/*
** collapse.c: BVH2 -> BVH4/BVH8. Each wide node starts from a binary
** node's two children and keeps opening the child with the largest
** surface area (the one a ray is likeliest to enter) until it has `width`
** children or only leaves are left. Also sums the SAH cost of the result:
** 1 per wide node and 1 per leaf block a ray enters, areas relative to
** the root's.
*/
#include "config.h"
#include "rtcore/collapse.h"
#include "rtcore/node.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Ctx {
    const RtBvh2Node *b2;
    const RtPrimRef *prims;
    int width;
    unsigned char *nodes;     /* scratch, one node per binary inner node */
    size_t nnodes;
    RtLeafJob *jobs;
    size_t njobs;
    size_t nblocks;
    double sah;
} Ctx;

static double area(const RtBvh2Node *n)
{
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = (double)n->upper[a] - n->lower[a];
    return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
}

static int is_leaf(const RtBvh2Node *n)
{
    return (n->b & RT_BVH2_LEAF) != 0;
}

static uint32_t collapse(Ctx *c, uint32_t i)
{
    const RtBvh2Node *n = &c->b2[i];
    if (is_leaf(n)) {
        const RtPrimRef *p = &c->prims[n->a];
        if (p->geomID & RT_PRIM_INST) {
            c->sah += area(n);
            return rt_ref_inst_leaf(p->primID);
        }
        uint32_t count = n->b & ~RT_BVH2_LEAF;
        uint32_t nb = (count + RT_BLOCK_W - 1) / RT_BLOCK_W;
        RtLeafJob *j = &c->jobs[c->njobs++];
        *j = (RtLeafJob){ n->a, count, (uint32_t)c->nblocks };
        c->nblocks += nb;
        c->sah += area(n) * nb;
        return rt_ref_tri_leaf(j->block, nb);
    }
    uint32_t kids[RT_MAX_WIDTH] = { n->a, n->b };
    int k = 2;
    while (k < c->width) {
        int best = -1;
        double best_area = -1;
        for (int j = 0; j < k; j++) {
            const RtBvh2Node *m = &c->b2[kids[j]];
            if (!is_leaf(m) && area(m) > best_area)
                best = j, best_area = area(m);
        }
        if (best < 0)
            break;
        const RtBvh2Node *m = &c->b2[kids[best]];
        kids[best] = m->a;
        kids[k++] = m->b;
    }
    c->sah += area(n);
    size_t idx = c->nnodes++;
    int w = c->width;
    float *b = (float *)(c->nodes + idx * rt_node_bytes(w));
    uint32_t *child = (uint32_t *)(b + 6 * w);
    for (int j = 0; j < w; j++) {
        const RtBvh2Node *m = &c->b2[kids[j < k ? j : 0]];
        for (int a = 0; a < 3; a++) {
            b[(2 * a) * w + j] = j < k ? m->lower[a] : INFINITY;
            b[(2 * a + 1) * w + j] = j < k ? m->upper[a] : -INFINITY;
        }
        child[j] = RT_REF_EMPTY;
        child[w + j] = 0;    /* padding */
    }
    for (int j = 0; j < k; j++) {
        uint32_t ref = collapse(c, kids[j]);
        /* the scratch array never moves, so b and child are still valid */
        child[j] = ref;
    }
    return (uint32_t)idx;
}

int rt_collapse(const RtBvh2Node *b2, size_t nb2, const RtPrimRef *prims,
                int width, RtWide *out)
{
    size_t inner = nb2 / 2;       /* a full binary tree: inner = leaves - 1 */
    size_t leaves = inner + 1;
    Ctx c = { b2, prims, width, NULL, 0, NULL, 0, 0, 0 };
    c.nodes = malloc((inner ? inner : 1) * rt_node_bytes(width));
    c.jobs = malloc(leaves * sizeof *c.jobs);
    if (!c.nodes || !c.jobs) {
        free(c.nodes);
        free(c.jobs);
        return 0;
    }
    uint32_t root = collapse(&c, 0);
    size_t bytes = c.nnodes * rt_node_bytes(width);
    void *nodes = aligned_alloc(64, bytes ? bytes : 64);
    if (!nodes) {
        free(c.nodes);
        free(c.jobs);
        return 0;
    }
    memcpy(nodes, c.nodes, bytes);
    free(c.nodes);
    double root_area = area(&b2[0]);
    *out = (RtWide){ nodes, c.nnodes, root, c.jobs, c.njobs, c.nblocks,
                     root_area > 0 ? c.sah / root_area : c.sah };
    return 1;
}
