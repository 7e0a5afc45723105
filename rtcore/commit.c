/*
** commit.c: what rtCommitScene builds: primitive boxes from the meshes
** and instances (dropping triangles that can never be hit), the binary
** SAH tree, its collapse to the device's width, the SoA triangle blocks,
** and the statistics. The phases that touch every triangle run on the
** device's threads.
*/
#include "config.h"
#include "rtcore/bigalloc.h"
#include "rtcore/build_sah.h"
#include "rtcore/collapse.h"
#include "rtcore/parallel.h"
#include "rtcore/scene.h"
#include "rtcore/tri.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Prep {
    const RtGeom *geoms;
    const uint32_t *mesh;     /* geometry ids of the meshes */
    const size_t *first;      /* first global triangle of each mesh, and the total */
    RtPrimRef *prims;
    atomic_size_t dropped;
} Prep;

static const float *vertex(const RtGeom *g, uint32_t i)
{
    return (const float *)((const char *)g->verts + (size_t)i * g->vstride);
}

/* The box of triangle t of g, or false for one no ray can hit: an index
   out of range (the buffer changed after attach), a non-finite vertex, or
   zero area (exactly, in double precision). */
static bool tri_ref(const RtGeom *g, uint32_t gid, uint32_t t, RtPrimRef *out)
{
    const uint32_t *ix = g->indices + 3 * (size_t)t;
    if (ix[0] >= g->nverts || ix[1] >= g->nverts || ix[2] >= g->nverts)
        return false;
    const float *v[3] = { vertex(g, ix[0]), vertex(g, ix[1]), vertex(g, ix[2]) };
    double e1[3], e2[3];
    for (int a = 0; a < 3; a++) {
        if (!isfinite(v[0][a]) || !isfinite(v[1][a]) || !isfinite(v[2][a]))
            return false;
        e1[a] = (double)v[1][a] - v[0][a];
        e2[a] = (double)v[2][a] - v[0][a];
        /* finite here: plain comparisons, not fminf's NaN rules (a call each) */
        float lo = v[0][a] < v[1][a] ? v[0][a] : v[1][a], hi = v[0][a] > v[1][a] ? v[0][a] : v[1][a];
        out->lower[a] = v[2][a] < lo ? v[2][a] : lo;
        out->upper[a] = v[2][a] > hi ? v[2][a] : hi;
    }
    if (e1[1] * e2[2] - e1[2] * e2[1] == 0 && e1[2] * e2[0] - e1[0] * e2[2] == 0 &&
        e1[0] * e2[1] - e1[1] * e2[0] == 0)
        return false;
    out->geomID = gid;
    out->primID = t;
    return true;
}

static void prep_tris(void *ctx, size_t begin, size_t end)
{
    Prep *p = ctx;
    size_t m = 0, dropped = 0;
    while (p->first[m + 1] <= begin)
        m++;
    for (size_t i = begin; i < end; i++) {
        while (p->first[m + 1] <= i)
            m++;
        uint32_t gid = p->mesh[m];
        if (!tri_ref(&p->geoms[gid], gid, (uint32_t)(i - p->first[m]), &p->prims[i])) {
            p->prims[i].geomID = RT_INVALID_ID;
            dropped++;
        }
    }
    atomic_fetch_add(&p->dropped, dropped);
}

/* Inverse and cofactor matrix of the instance's placement, in double. */
static void inst_setup(RtInst *in, const float xfm[12])
{
    double m[3][3], c[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = xfm[4 * i + j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            c[i][j] = m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1];
        }
    double det = m[0][0] * c[0][0] + m[0][1] * c[0][1] + m[0][2] * c[0][2];
    memcpy(in->xfm, xfm, sizeof in->xfm);
    for (int i = 0; i < 3; i++) {
        double t = 0;
        for (int j = 0; j < 3; j++) {
            double inv = c[j][i] / det;       /* inverse = adjugate / det */
            in->inv[4 * i + j] = (float)inv;
            in->cof[3 * i + j] = (float)c[i][j];
            t -= inv * xfm[4 * j + 3];
        }
        in->inv[4 * i + 3] = (float)t;
    }
}

/* The world box of an instance, false when it is empty or not finite. */
static bool inst_ref(const RtInst *in, uint32_t gid, uint32_t index, RtPrimRef *out)
{
    const RtBvh *b = in->bvh;
    for (int a = 0; a < 3; a++)
        out->lower[a] = INFINITY, out->upper[a] = -INFINITY;
    for (int k = 0; k < 8; k++) {
        float p[3] = { k & 1 ? b->upper[0] : b->lower[0], k & 2 ? b->upper[1] : b->lower[1],
                       k & 4 ? b->upper[2] : b->lower[2] }, w[3];
        rt_xfm_point(in->xfm, p, w);
        for (int a = 0; a < 3; a++) {
            out->lower[a] = fminf(out->lower[a], w[a]);
            out->upper[a] = fmaxf(out->upper[a], w[a]);
        }
    }
    out->geomID = gid | RT_PRIM_INST;
    out->primID = index;
    for (int a = 0; a < 3; a++)
        if (!(out->lower[a] <= out->upper[a]) || !isfinite(out->lower[a]) ||
            !isfinite(out->upper[a]))
            return false;
    return true;
}

typedef struct Fill {
    const RtGeom *geoms;
    const RtPrimRef *prims;
    const RtLeafJob *jobs;
    unsigned char *blocks;
} Fill;

/* Writes the triangles of leaf jobs [begin, end) into their blocks. */
static void fill_blocks(void *ctx, size_t begin, size_t end)
{
    const Fill *f = ctx;
    const uint32_t w = RT_BLOCK_W;
    for (size_t j = begin; j < end; j++) {
        const RtLeafJob *job = &f->jobs[j];
        uint32_t nb = (job->n + w - 1) / w;
        for (uint32_t k = 0; k < nb * w; k++) {
            unsigned char *blk = f->blocks + (size_t)(job->block + k / w) * RT_BLOCK_BYTES;
            float *v = (float *)blk;
            uint32_t *ids = (uint32_t *)(blk + 36 * w), lane = k % w;
            if (k >= job->n) {
                for (int i = 0; i < 9; i++)
                    v[i * w + lane] = NAN;
                ids[lane] = ids[w + lane] = RT_INVALID_ID;
                continue;
            }
            const RtPrimRef *p = &f->prims[job->begin + k];
            const RtGeom *g = &f->geoms[p->geomID];
            const uint32_t *ix = g->indices + 3 * (size_t)p->primID;
            for (int i = 0; i < 3; i++) {
                const float *src = vertex(g, ix[i]);
                for (int a = 0; a < 3; a++)
                    v[(i * 3 + a) * w + lane] = src[a];
            }
            ids[lane] = p->primID;
            ids[w + lane] = p->geomID;
        }
    }
}

void rt_bvh_free(RtBvh *bvh)
{
    free(bvh->nodes);
    free(bvh->blocks);
    free(bvh->insts);
    bvh->nodes = bvh->blocks = NULL;
    bvh->insts = NULL;
    bvh->root = RT_REF_EMPTY;
    for (int a = 0; a < 3; a++)
        bvh->lower[a] = INFINITY, bvh->upper[a] = -INFINITY;
}

/* Builds from the n prims (n >= 1) into s->bvh and s->stats. */
static bool build_tree(RTScene s, RtPrimRef *prims, size_t n)
{
    const int w = s->bvh.width, threads = s->device->threads;
    RtBuildSettings set = { threads, RT_BLOCK_W, RT_LEAF_MAX_BLOCKS * RT_BLOCK_W };
    size_t nb2;
    RtBvh2Node *b2 = rt_build_sah(prims, n, &set, &nb2);
    RtWide wide;
    if (!b2 || !rt_collapse(b2, nb2, prims, w, &wide)) {
        free(b2);
        return false;
    }
    for (int a = 0; a < 3; a++)
        s->bvh.lower[a] = b2[0].lower[a], s->bvh.upper[a] = b2[0].upper[a];
    free(b2);
    s->bvh.nodes = wide.nodes;
    s->bvh.root = wide.root;
    s->bvh.blocks = rt_big_alloc((size_t)wide.nblocks * RT_BLOCK_BYTES);
    if (!s->bvh.blocks) {
        free(wide.jobs);
        return false;
    }
    Fill f = { s->geoms, prims, wide.jobs, s->bvh.blocks };
    rt_parallel_for(threads, wide.njobs, &f, fill_blocks);
    free(wide.jobs);
    s->stats.sah_cost = wide.sah;
    s->stats.inner_nodes = wide.nnodes;
    s->stats.leaves = wide.nblocks;
    s->stats.bytes = wide.nnodes * rt_node_bytes(w) + wide.nblocks * RT_BLOCK_BYTES;
    return true;
}

bool rt_scene_build(RTScene s)
{
    rt_bvh_free(&s->bvh);
    s->stats = (RTSceneStats){ .width = s->bvh.width };
    size_t nmesh = 0, ninst = 0;
    for (size_t i = 0; i < s->ngeoms; i++)
        s->geoms[i].instance ? ninst++ : nmesh++;
    uint32_t *mesh = malloc((nmesh + 1) * sizeof *mesh);
    size_t *first = malloc((nmesh + 1) * sizeof *first);
    s->bvh.insts = ninst ? malloc(ninst * sizeof *s->bvh.insts) : NULL;
    bool ok = mesh && first && (!ninst || s->bvh.insts);
    size_t ntris = 0;
    for (size_t i = 0, m = 0; ok && i < s->ngeoms; i++) {
        if (!s->geoms[i].instance) {
            mesh[m] = (uint32_t)i;
            first[m++] = ntris;
            ntris += s->geoms[i].ntris;
        }
    }
    if (ok)
        first[nmesh] = ntris;
    RtPrimRef *prims = ok && ntris + ninst < RT_ID_LIMIT
                           ? malloc((ntris + ninst + 1) * sizeof *prims) : NULL;
    ok = ok && prims;
    size_t n = 0;
    if (ok) {
        Prep p = { s->geoms, mesh, first, prims, 0 };
        rt_parallel_for(s->device->threads, ntris, &p, prep_tris);
        n = ntris;
        if (atomic_load(&p.dropped)) {
            n = 0;
            for (size_t i = 0; i < ntris; i++)
                if (prims[i].geomID != RT_INVALID_ID)
                    prims[n++] = prims[i];
        }
        s->stats.triangles = n;
        for (size_t i = 0, k = 0; i < s->ngeoms; i++) {
            const RtGeom *g = &s->geoms[i];
            if (!g->instance)
                continue;
            RtInst *in = &s->bvh.insts[k];
            inst_setup(in, g->xfm);
            in->id = (uint32_t)i;
            in->bvh = &g->source->bvh;
            if (inst_ref(in, (uint32_t)i, (uint32_t)k, &prims[n]))
                n++;
            k++;
        }
        if (n)
            ok = build_tree(s, prims, n);
        s->stats.bytes += ninst * sizeof(RtInst);
    }
    free(prims);
    free(mesh);
    free(first);
    if (!ok)
        rt_bvh_free(&s->bvh);
    return ok;
}
