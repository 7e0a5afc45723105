/*
** trav1.c: scalar reference traversal of the wide BVH, for any width. It
** reads the same nodes and blocks as the kernels and applies the same
** rules (conservative boxes, the watertight test of tri.h) in the plainest
** form: depth first, no ordering, one child and one triangle at a time.
** Only the tests call it: it is the oracle for the tree the SIMD kernels
** walk, as brute force over all triangles is for the scene.
*/
#include "config.h"
#include "rtcore/trav1.h"
#include "rtcore/scene.h"
#include "rtcore/tri.h"

#define BOX_ROUND_UP (1.0f + 1.0f / (1 << 21))

/* Entry distance of child c of a node of width w, or INFINITY on a miss. */
static float box(const float *b, int w, int c, const RtRay *r)
{
    float tn = r->tnear, tf = r->tfar;
    for (int a = 2; a >= 0; a--) {
        int s = r->rdir[a] < 0;
        float t0 = (b[(2 * a + s) * w + c] - r->org[a]) * r->rdir[a];
        float t1 = (b[(2 * a + 1 - s) * w + c] - r->org[a]) * r->rdir[a];
        /* NaN (a ray inside a slab plane) leaves the interval as it is */
        tn = t0 > tn ? t0 : tn;
        tf = t1 < tf ? t1 : tf;
    }
    return tn <= tf * BOX_ROUND_UP ? tn : INFINITY;
}

static int walk(const RtBvh *bvh, uint32_t ref, RtRay *r, RtHitRec *h,
                uint32_t instID, int occl);

static int leaf(const RtBvh *bvh, uint32_t ref, RtRay *r, RtHitRec *h,
                uint32_t instID, int occl)
{
    int found = 0;
    if (rt_ref_is_inst(ref)) {
        const RtInst *in = &bvh->insts[ref & ~(RT_REF_LEAF | RT_REF_INST)];
        float o[3], d[3];
        rt_xfm_point(in->inv, r->org, o);
        rt_xfm_vector(in->inv, r->dir, d);
        if (!rt_ray_valid(o, d, r->tnear, r->tfar))
            return 0;
        RtRay lr;
        RtHitRec lh;
        rt_ray_prepare(&lr, o, d, r->tnear, r->tfar);
        if (!walk(in->bvh, in->bvh->root, &lr, &lh, in->id, occl))
            return 0;
        r->tfar = lr.tfar;
        if (!occl) {
            *h = lh;
            for (int i = 0; i < 3; i++)
                h->Ng[i] = in->cof[3 * i] * lh.Ng[0] + in->cof[3 * i + 1] * lh.Ng[1] +
                           in->cof[3 * i + 2] * lh.Ng[2];
        }
        return 1;
    }
    const RtTriBlock *blk = (const RtTriBlock *)bvh->blocks + rt_ref_first(ref);
    for (uint32_t k = 0; k < rt_ref_count(ref) * RT_BLOCK_W; k++) {
        const RtTriBlock *b = &blk[k / RT_BLOCK_W];
        int l = (int)(k % RT_BLOCK_W);
        float p[3][3], t, u, vv;
        for (int i = 0; i < 3; i++)
            for (int a = 0; a < 3; a++)
                p[i][a] = b->v[i][a][l];
        if (!rt_tri_intersect(r, p[0], p[1], p[2], &t, &u, &vv))
            continue;
        if (occl)
            return 1;
        found = 1;
        r->tfar = t;
        h->u = u;
        h->v = vv;
        h->primID = b->primID[l];
        h->geomID = b->geomID[l];
        h->instID = instID;
        rt_tri_normal(p[0], p[1], p[2], h->Ng);
    }
    return found;
}

static int walk(const RtBvh *bvh, uint32_t ref, RtRay *r, RtHitRec *h,
                uint32_t instID, int occl)
{
    if (ref == RT_REF_EMPTY)
        return 0;
    if (rt_ref_is_leaf(ref))
        return leaf(bvh, ref, r, h, instID, occl);
    int w = bvh->width, found = 0;
    const unsigned char *node = (const unsigned char *)bvh->nodes + (size_t)ref * rt_node_bytes(w);
    const float *b = (const float *)node;
    const uint32_t *child = (const uint32_t *)(node + 24 * w);
    for (int c = 0; c < w && child[c] != RT_REF_EMPTY; c++) {
        if (box(b, w, c, r) == INFINITY)
            continue;
        if (walk(bvh, child[c], r, h, instID, occl)) {
            found = 1;
            if (occl)
                return 1;
        }
    }
    return found;
}

void rt_trav1_intersect(RTScene scene, RTRayHit *rh)
{
    const RtBvh *bvh = rt_query_bvh(scene, rh, "rt_trav1_intersect");
    RtRay r;
    RtHitRec h;
    if (bvh && rt_ray_from_api(&r, &rh->ray) && walk(bvh, bvh->root, &r, &h, RT_INVALID_ID, 0))
        rt_hit_to_api(rh, &r, &h);
}

void rt_trav1_occluded(RTScene scene, RTRay *q)
{
    const RtBvh *bvh = rt_query_bvh(scene, q, "rt_trav1_occluded");
    RtRay r;
    if (bvh && rt_ray_from_api(&r, q) && walk(bvh, bvh->root, &r, NULL, RT_INVALID_ID, 1))
        q->tfar = -INFINITY;
}
