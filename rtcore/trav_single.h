/*
** trav_single.h: single-ray traversal of a wide BVH, written once for any
** width and included by each ISA's kernel file after its simd/ header
** (which defines VW and the vf operations). One ray meets all VW children
** of a node in one go; the hit children are visited nearest first, the
** others pushed with their entry distance (Embree's scheme). Leaves test
** a block of 4 triangles at once with the watertight test of tri.h, lane
** by lane the same arithmetic.
*/
#ifndef RTCORE_TRAV_SINGLE_H
#define RTCORE_TRAV_SINGLE_H

#include <float.h>
#include "rtcore/node.h"
#include "rtcore/tri.h"

#define RT_CAT_(a, b) a##b
#define RT_CAT(a, b) RT_CAT_(a, b)
typedef RT_CAT(RtNode, VW) Node;
typedef RtTriBlock Block;

/* Deepest BVH the builder makes (build_sah.c caps it) times the children a
   node can leave on the stack, plus the root. */
#define STACK_SIZE (1 + 72 * (VW - 1))

/* Box exits are pushed out by 2^-21 relative: the slab distances carry at
   most four roundings of 2^-24 (1/dir, the push itself where it is applied
   to 1/dir beforehand, the subtraction, the product), so this keeps boxes
   conservative and no ray skips a box that holds its watertight hit. */
#define BOX_ROUND_UP (1.0f + 1.0f / (1 << 21))

typedef struct StackEnt {
    uint32_t ref;
    float d;        /* entry distance, for culling after the ray shrinks */
} StackEnt;

static int trav_closest(const RtBvh *bvh, uint32_t root, RtRay *r,
                        RtHitRec *h, uint32_t instID);
static int trav_any(const RtBvh *bvh, uint32_t root, RtRay *r);

/* Tests one block of RT_BLOCK_W triangles; on the closest hit so far
   updates r->tfar and h. Returns whether anything was hit. */
static inline __attribute__((always_inline)) int
block_hit(const Block *b, RtRay *r, RtHitRec *h, uint32_t instID, const int occl)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    const v4 okx = v4_set1(r->org[kx]), oky = v4_set1(r->org[ky]), okz = v4_set1(r->org[kz]);
    const v4 sx = v4_set1(r->Sx), sy = v4_set1(r->Sy), sz = v4_set1(r->Sz);
    const v4 zero = v4_set1(0.0f);
    v4 akx = v4_sub(v4_load(b->v[0][kx]), okx), aky = v4_sub(v4_load(b->v[0][ky]), oky);
    v4 akz = v4_sub(v4_load(b->v[0][kz]), okz);
    v4 bkx = v4_sub(v4_load(b->v[1][kx]), okx), bky = v4_sub(v4_load(b->v[1][ky]), oky);
    v4 bkz = v4_sub(v4_load(b->v[1][kz]), okz);
    v4 ckx = v4_sub(v4_load(b->v[2][kx]), okx), cky = v4_sub(v4_load(b->v[2][ky]), oky);
    v4 ckz = v4_sub(v4_load(b->v[2][kz]), okz);
    v4 Ax = v4_sub(akx, v4_mul(sx, akz)), Ay = v4_sub(aky, v4_mul(sy, akz));
    v4 Bx = v4_sub(bkx, v4_mul(sx, bkz)), By = v4_sub(bky, v4_mul(sy, bkz));
    v4 Cx = v4_sub(ckx, v4_mul(sx, ckz)), Cy = v4_sub(cky, v4_mul(sy, ckz));
    v4 U = v4_sub(v4_mul(Cx, By), v4_mul(Cy, Bx));
    v4 V = v4_sub(v4_mul(Ax, Cy), v4_mul(Ay, Cx));
    v4 W = v4_sub(v4_mul(Bx, Ay), v4_mul(By, Ax));
    v4 pos = v4_and(v4_and(v4_ge(U, zero), v4_ge(V, zero)), v4_ge(W, zero));
    v4 neg = v4_and(v4_and(v4_le(U, zero), v4_le(V, zero)), v4_le(W, zero));
    v4 det = v4_add(v4_add(U, V), W);
    v4 m = v4_and(v4_or(pos, neg), v4_ne(det, zero));
    if (!v4_bits(m))
        return 0;
    v4 inv = v4_div(v4_set1(1.0f), det);
    v4 t = v4_add(v4_add(v4_mul(v4_mul(U, inv), v4_mul(sz, akz)),
                         v4_mul(v4_mul(V, inv), v4_mul(sz, bkz))),
                  v4_mul(v4_mul(W, inv), v4_mul(sz, ckz)));
    m = v4_and(m, v4_and(v4_ge(t, v4_set1(r->tnear)), v4_le(t, v4_set1(r->tfar))));
    int bits = v4_bits(m);
    if (!bits || occl)
        return bits != 0;
    v4 tm = v4_select(m, t, v4_set1(INFINITY));
    float tmin = v4_hmin(tm);
    int l = __builtin_ctz(v4_bits(v4_eq(tm, v4_set1(tmin))) & bits);
    _Alignas(16) float vs[RT_BLOCK_W], ws[RT_BLOCK_W], is[RT_BLOCK_W];
    v4_store(vs, V);
    v4_store(ws, W);
    v4_store(is, inv);
    r->tfar = tmin;
    h->u = vs[l] * is[l];
    h->v = ws[l] * is[l];
    h->primID = b->primID[l];
    h->geomID = b->geomID[l];
    h->instID = instID;
    float p[3][3];
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 3; a++)
            p[i][a] = b->v[i][a][l];
    rt_tri_normal(p[0], p[1], p[2], h->Ng);
    return 1;
}

/* The ray enters an instance: move it to object space, trace the
   instanced BVH, and on a hit bring t back and the normal to world space. */
static int inst_hit(const RtInst *in, RtRay *r, RtHitRec *h, const int occl)
{
    float o[3], d[3];
    rt_xfm_point(in->inv, r->org, o);
    rt_xfm_vector(in->inv, r->dir, d);
    if (!rt_ray_valid(o, d, r->tnear, r->tfar))
        return 0;
    RtRay lr;
    rt_ray_prepare(&lr, o, d, r->tnear, r->tfar);
    if (occl)
        return trav_any(in->bvh, in->bvh->root, &lr);
    RtHitRec lh;
    if (!trav_closest(in->bvh, in->bvh->root, &lr, &lh, in->id))
        return 0;
    r->tfar = lr.tfar;
    *h = lh;
    const float *c = in->cof;
    for (int i = 0; i < 3; i++)
        h->Ng[i] = c[3 * i] * lh.Ng[0] + c[3 * i + 1] * lh.Ng[1] + c[3 * i + 2] * lh.Ng[2];
    return 1;
}

/* Starts loading a child that goes on the stack while the walk carries on
   with a nearer one. On a scene larger than the L2 cache a walk waits on
   one node's lines after another; by the time this child is popped its
   lines are there. Closest-hit walks only: an occlusion walk mostly ends
   before it pops them, and the loads cost it more than they saved
   (bench/rtbench, dragon shadow rays). */
static inline __attribute__((always_inline)) void
prefetch_ref(const RtBvh *bvh, uint32_t ref)
{
    const char *p;
    size_t bytes;
    if (!rt_ref_is_leaf(ref))
        p = (const char *)((const Node *)bvh->nodes + ref), bytes = sizeof(Node);
    else if (!rt_ref_is_inst(ref))
        p = (const char *)((const Block *)bvh->blocks + rt_ref_first(ref)), bytes = sizeof(Block);
    else
        return;
    for (size_t off = 0; off < bytes; off += 64)
        __builtin_prefetch(p + off);
}

/* Tests a leaf: its blocks of triangles, or its instance. */
static inline __attribute__((always_inline)) int
leaf_hit(const RtBvh *bvh, uint32_t ref, RtRay *r, RtHitRec *h, uint32_t instID,
         const int occl)
{
    if (rt_ref_is_inst(ref))
        return inst_hit(&bvh->insts[ref & ~(RT_REF_LEAF | RT_REF_INST)], r, h, occl);
    const Block *b = (const Block *)bvh->blocks + rt_ref_first(ref);
    int n = (int)rt_ref_count(ref), found = 0;
    for (int i = 0; i < n; i++) {
        found |= block_hit(b + i, r, h, instID, occl);
        if (found && occl)
            break;
    }
    return found;
}

static inline __attribute__((always_inline)) int
trav_impl(const RtBvh *bvh, uint32_t root, RtRay *r, RtHitRec *h, uint32_t instID,
          const int occl)
{
    if (root == RT_REF_EMPTY)
        return 0;
    const Node *nodes = bvh->nodes;
    enum { FLIP = VW * 4 };   /* from a slab's lower row to its upper row */
    const uint32_t nx = (0 + (r->rdir[0] < 0)) * FLIP;
    const uint32_t ny = (2 + (r->rdir[1] < 0)) * FLIP;
    const uint32_t nz = (4 + (r->rdir[2] < 0)) * FLIP;
    const vf ox = vf_set1(r->org[0]), oy = vf_set1(r->org[1]), oz = vf_set1(r->org[2]);
    const vf rx = vf_set1(r->rdir[0]), ry = vf_set1(r->rdir[1]), rz = vf_set1(r->rdir[2]);
    /* Exits are pushed out through 1/dir and tfar scaled up beforehand,
       which keeps the multiply off the path from a node's loads to the
       choice of the next node: the walk waits on that path at every
       node. */
    const vf fx = vf_set1(r->rdir[0] * BOX_ROUND_UP), fy = vf_set1(r->rdir[1] * BOX_ROUND_UP);
    const vf fz = vf_set1(r->rdir[2] * BOX_ROUND_UP);
    const vf tnear = vf_set1(r->tnear);
    vf tfar = vf_set1(r->tfar * BOX_ROUND_UP);
    StackEnt stack[STACK_SIZE];
    StackEnt *sp = stack;
    uint32_t cur = root;
    int found = 0;
    for (;;) {
        while (!rt_ref_is_leaf(cur)) {
            /* the child references: their line is wanted as soon as the
               box test is done, so ask for it with the bounds' lines */
            __builtin_prefetch(nodes[cur].child);
            const char *nb = (const char *)(nodes + cur);
            vf tnx = vf_mul(vf_sub(vf_load((const float *)(nb + nx)), ox), rx);
            vf tny = vf_mul(vf_sub(vf_load((const float *)(nb + ny)), oy), ry);
            vf tnz = vf_mul(vf_sub(vf_load((const float *)(nb + nz)), oz), rz);
            vf tfx = vf_mul(vf_sub(vf_load((const float *)(nb + (nx ^ FLIP))), ox), fx);
            vf tfy = vf_mul(vf_sub(vf_load((const float *)(nb + (ny ^ FLIP))), oy), fy);
            vf tfz = vf_mul(vf_sub(vf_load((const float *)(nb + (nz ^ FLIP))), oz), fz);
            /* 0 * inf = NaN where the ray runs inside a slab plane: the NaN
               operand goes first so that it drops out (simd/ headers); a
               NaN second in the inner pair takes its partner with it,
               which only widens the box. Pairs, not a chain: two steps
               of latency instead of three. */
            vf tn = vf_max(vf_max(tnx, tny), vf_max(tnz, tnear));
            vf tf = vf_min(vf_min(tfx, tfy), vf_min(tfz, tfar));
            unsigned m = (unsigned)vf_le_bits(tn, tf);
            if (!m)
                goto pop;
            const uint32_t *child = nodes[cur].child;
            unsigned c0 = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            if (!m) {
                cur = child[c0];
                continue;
            }
            _Alignas(32) float dist[VW];
            vf_store(dist, tn);
            unsigned c1 = (unsigned)__builtin_ctz(m);
            m &= m - 1;
            if (!m) {
                if (dist[c0] > dist[c1]) {
                    unsigned t = c0;
                    c0 = c1;
                    c1 = t;
                }
                if (!occl)
                    prefetch_ref(bvh, child[c1]);
                *sp++ = (StackEnt){ child[c1], dist[c1] };
                cur = child[c0];
                continue;
            }
            if (occl) {
                /* Three or more for an any-hit walk, which ends at its
                   first hit: the sort costs more than the order saves.
                   Take the first, push the others as they come (Embree's
                   any-hit walk); tfar does not shrink, so their distances
                   are never read. */
                cur = child[c0];
                sp++->ref = child[c1];
                do {
                    sp++->ref = child[__builtin_ctz(m)];
                    m &= m - 1;
                } while (m);
                continue;
            }
            /* Three or more: push all, sort that run so the nearest is on
               top, and go on with it. */
            StackEnt *base = sp;
            *sp++ = (StackEnt){ child[c0], dist[c0] };
            *sp++ = (StackEnt){ child[c1], dist[c1] };
            do {
                unsigned c = (unsigned)__builtin_ctz(m);
                m &= m - 1;
                *sp++ = (StackEnt){ child[c], dist[c] };
            } while (m);
            for (StackEnt *a = base + 1; a < sp; a++) {
                StackEnt e = *a, *b = a;
                for (; b > base && b[-1].d < e.d; b--)
                    *b = b[-1];
                *b = e;
            }
            cur = (--sp)->ref;
            for (StackEnt *a = base; !occl && a < sp; a++)
                prefetch_ref(bvh, a->ref);
        }
        if (leaf_hit(bvh, cur, r, h, instID, occl)) {
            found = 1;
            if (occl)
                return 1;
            tfar = vf_set1(r->tfar * BOX_ROUND_UP);
        }
    pop:
        for (;;) {
            if (sp == stack)
                return found;
            --sp;
            if (occl || sp->d <= r->tfar * BOX_ROUND_UP) {
                cur = sp->ref;
                break;
            }
        }
    }
}

static int trav_closest(const RtBvh *bvh, uint32_t root, RtRay *r, RtHitRec *h,
                        uint32_t instID)
{
    return trav_impl(bvh, root, r, h, instID, 0);
}

static int trav_any(const RtBvh *bvh, uint32_t root, RtRay *r)
{
    return trav_impl(bvh, root, r, NULL, RT_INVALID_ID, 1);
}

static void intersect1(const RtBvh *bvh, RTRayHit *rh)
{
    RtRay r;
    RtHitRec h;
    if (rt_ray_from_api(&r, &rh->ray) && trav_closest(bvh, bvh->root, &r, &h, RT_INVALID_ID))
        rt_hit_to_api(rh, &r, &h);
}

static void occluded1(const RtBvh *bvh, RTRay *q)
{
    RtRay r;
    if (rt_ray_from_api(&r, q) && trav_any(bvh, bvh->root, &r))
        q->tfar = -INFINITY;
}

#endif
