/*
** trav_single.h: single-ray traversal of a wide BVH, written once for any
** width and included by each ISA's kernel file after its simd/ header
** (which defines VW and the vf operations). One ray meets all VW children
** of a node in one go; the hit children are visited nearest first, the
** others pushed with their entry distance (Embree's scheme). Leaves test
** VW triangles at once (two 4-wide blocks side by side at VW = 8) with
** the watertight test of tri.h, lane by lane the same arithmetic; the
** closest hit's u, v and normal are worked out once, at the end.
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
   most 3 roundings, so this keeps boxes conservative and no ray skips a
   box that holds its watertight hit. */
#define BOX_ROUND_UP (1.0f + 1.0f / (1 << 21))

typedef struct StackEnt {
    uint32_t ref;
    float d;        /* entry distance, for culling after the ray shrinks */
} StackEnt;

static int trav_closest(const RtBvh *bvh, uint32_t root, RtRay *r,
                        RtHitRec *h, uint32_t instID);
static int trav_any(const RtBvh *bvh, uint32_t root, RtRay *r);

/* Triangle blocks a leaf test takes at once: one per 4 lanes of vf. */
#define GROUP (VW / RT_BLOCK_W)

/* Stands in for the block after a leaf's last one in a group: its
   triangles are single points (all vertices 0), whose edge functions are
   exactly 0, so det = 0 and they miss. */
static const Block empty_block;

/* The ray as the traversal loop holds it: every per-ray constant
   broadcast once, kept in registers across the whole walk (the loop
   reads nothing back through the RtRay, which stores of the hit record
   could alias). Far planes use 1/dir already scaled by BOX_ROUND_UP:
   (b - o) * fl(1/dir * up) carries four roundings down at most, and
   1 + 2^-21 more than covers them and the three of a near distance, so
   boxes stay as conservative as scaling the exit afterwards, one
   multiply per node cheaper. */
typedef struct Trav {
    vf ox, oy, oz;          /* origin */
    vf rx, ry, rz;          /* 1/dir, for near planes */
    vf fx, fy, fz;          /* 1/dir * BOX_ROUND_UP, for far planes */
    uint32_t nx, ny, nz;    /* byte offset of each axis's near row in a node */
    vf okx, oky, okz;       /* origin on the sheared axes kx, ky, kz */
    vf sx, sy, sz;          /* the shear */
    uint32_t kx, ky, kz;    /* byte offset of axis kx, ky, kz in a block vertex */
    vf tnear;
} Trav;
/* (Named fields, not arrays, so that the compiler keeps each in a
   register rather than the struct in memory.) */

enum { FLIP = VW * 4 };   /* from a slab's lower row to its upper row */

static inline __attribute__((always_inline)) Trav trav_setup(const RtRay *r)
{
    enum { ROW = RT_BLOCK_W * sizeof(float) };
    return (Trav){
        vf_set1(r->org[0]), vf_set1(r->org[1]), vf_set1(r->org[2]),
        vf_set1(r->rdir[0]), vf_set1(r->rdir[1]), vf_set1(r->rdir[2]),
        vf_set1(r->rdir[0] * BOX_ROUND_UP), vf_set1(r->rdir[1] * BOX_ROUND_UP),
        vf_set1(r->rdir[2] * BOX_ROUND_UP),
        (0 + (r->rdir[0] < 0)) * FLIP, (2 + (r->rdir[1] < 0)) * FLIP,
        (4 + (r->rdir[2] < 0)) * FLIP,
        vf_set1(r->org[r->kx]), vf_set1(r->org[r->ky]), vf_set1(r->org[r->kz]),
        vf_set1(r->Sx), vf_set1(r->Sy), vf_set1(r->Sz),
        (uint32_t)r->kx * ROW, (uint32_t)r->ky * ROW, (uint32_t)r->kz * ROW,
        vf_set1(r->tnear),
    };
}

/* One slab distance of the VW children: plane row `off` of node nb. */
#define SLAB(nb, off, o, rd) vf_mul(vf_sub(vf_load((const float *)((nb) + (off))), o), rd)

/* The ray against the VW child boxes of a node: the hit children as bits,
   their entry distances in *dist. 0 * inf = NaN where the ray runs inside
   a slab plane: the NaN operand goes first so that it drops out (simd/
   headers). */
static inline __attribute__((always_inline)) unsigned
node_hit(const Trav *t, const Node *n, vf tfar_up, vf *dist)
{
    const char *nb = (const char *)n;
    vf tnx = SLAB(nb, t->nx, t->ox, t->rx), tfx = SLAB(nb, t->nx ^ FLIP, t->ox, t->fx);
    vf tny = SLAB(nb, t->ny, t->oy, t->ry), tfy = SLAB(nb, t->ny ^ FLIP, t->oy, t->fy);
    vf tnz = SLAB(nb, t->nz, t->oz, t->rz), tfz = SLAB(nb, t->nz ^ FLIP, t->oz, t->fz);
    *dist = vf_max(tnx, vf_max(tny, vf_max(tnz, t->tnear)));
    vf exit = vf_min(tfx, vf_min(tfy, vf_min(tfz, tfar_up)));
    return (unsigned)vm_bits(vf_le(*dist, exit));
}

/* Row `off` (bytes into a block) of blocks a and b side by side. */
#define BLOCK_ROW(a, b, off)                                                  \
    vf_load_halves((const float *)((const char *)(a) + (off)),                \
                   (const float *)((const char *)(b) + (off)))

/* The watertight test of tri.h on the GROUP blocks a (and b), one lane
   per triangle, the same operations in the same order as
   rt_tri_intersect. Returns the lanes hit within [tnear, tfar] as a mask,
   their distances in *t. */
static inline __attribute__((always_inline)) vf
group_hit(const Trav *tr, const Block *a, const Block *b, float tfar, vf *t)
{
    enum { VERTEX = sizeof a->v[0] };
#define VROW(i, k, o) vf_sub(BLOCK_ROW(a, b, (i) * VERTEX + tr->k), tr->o)
    vf akx = VROW(0, kx, okx), aky = VROW(0, ky, oky), akz = VROW(0, kz, okz);
    vf bkx = VROW(1, kx, okx), bky = VROW(1, ky, oky), bkz = VROW(1, kz, okz);
    vf ckx = VROW(2, kx, okx), cky = VROW(2, ky, oky), ckz = VROW(2, kz, okz);
#undef VROW
    const vf zero = vf_set1(0.0f), sx = tr->sx, sy = tr->sy, sz = tr->sz;
    vf Ax = vf_sub(akx, vf_mul(sx, akz)), Ay = vf_sub(aky, vf_mul(sy, akz));
    vf Bx = vf_sub(bkx, vf_mul(sx, bkz)), By = vf_sub(bky, vf_mul(sy, bkz));
    vf Cx = vf_sub(ckx, vf_mul(sx, ckz)), Cy = vf_sub(cky, vf_mul(sy, ckz));
    vf U = vf_sub(vf_mul(Cx, By), vf_mul(Cy, Bx));
    vf V = vf_sub(vf_mul(Ax, Cy), vf_mul(Ay, Cx));
    vf W = vf_sub(vf_mul(Bx, Ay), vf_mul(By, Ax));
    vf pos = vm_and(vm_and(vf_ge(U, zero), vf_ge(V, zero)), vf_ge(W, zero));
    vf neg = vm_and(vm_and(vf_le(U, zero), vf_le(V, zero)), vf_le(W, zero));
    vf det = vf_add(vf_add(U, V), W);
    vf m = vm_and(vm_or(pos, neg), vf_ne(det, zero));
    if (!vm_bits(m))
        return zero;
    vf inv = vf_div(vf_set1(1.0f), det);
    *t = vf_add(vf_add(vf_mul(vf_mul(U, inv), vf_mul(sz, akz)),
                       vf_mul(vf_mul(V, inv), vf_mul(sz, bkz))),
                vf_mul(vf_mul(W, inv), vf_mul(sz, ckz)));
    return vm_and(m, vm_and(vf_ge(*t, tr->tnear), vf_le(*t, vf_set1(tfar))));
}

/* The closest hit's record, once the walk is over: u, v (and t again)
   from the scalar test, which does the kernel's arithmetic and so gives
   its values to the bit, and the normal. r->tfar is the hit's t. */
static void tri_record(const Block *b, int l, const RtRay *r, RtHitRec *h, uint32_t instID)
{
    float p[3][3], t;
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 3; a++)
            p[i][a] = b->v[i][a][l];
    rt_tri_intersect(r, p[0], p[1], p[2], &t, &h->u, &h->v);
    h->primID = b->primID[l];
    h->geomID = b->geomID[l];
    h->instID = instID;
    rt_tri_normal(p[0], p[1], p[2], h->Ng);
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
   lines are there. */
static inline __attribute__((always_inline)) void
prefetch_ref(const Node *nodes, const Block *blocks, uint32_t ref)
{
    const char *p;
    size_t bytes;
    if (!rt_ref_is_leaf(ref))
        p = (const char *)(nodes + ref), bytes = sizeof(Node);
    else if (!rt_ref_is_inst(ref))
        p = (const char *)(blocks + rt_ref_first(ref)), bytes = sizeof(Block);
    else
        return;
    for (size_t off = 0; off < bytes; off += 64)
        __builtin_prefetch(p + off);
}

/* The closest triangle hit so far, recorded at the end (tri_record). */
typedef struct Best {
    const Block *block;     /* NULL: none, or an instance's hit is in h */
    int lane;
} Best;

/* Tests a triangle leaf, GROUP blocks at a time. For closest hits lowers
   *tfar and sets *best; returns whether anything was hit. Of a group's
   hits the smallest t wins; a tie goes to the later block, lowest lane
   first, and a tie with the tfar of earlier groups wins, as it does in
   the packet kernel's leaf test (trav_packet.h), so kernels agree. */
static inline __attribute__((always_inline)) int
tri_leaf_hit(const Trav *tr, const Block *b, int n, float *tfar, Best *best, const int occl)
{
    int found = 0;
    for (int i = 0; i < n; i += GROUP) {
        const Block *a = b + i, *c = i + 1 < n ? a + 1 : &empty_block;
        vf t;
        vf m = group_hit(tr, a, c, *tfar, &t);
        unsigned bits = (unsigned)vm_bits(m);
        if (!bits)
            continue;
        if (occl)
            return 1;
        vf tm = vf_select(m, t, vf_set1(INFINITY));
        float tmin = vf_hmin(tm);
        unsigned e = (unsigned)vm_bits(vf_eq(tm, vf_set1(tmin))) & bits;
        unsigned later = e & ~((1u << RT_BLOCK_W) - 1);
        unsigned l = (unsigned)__builtin_ctz(later ? later : e);
        *tfar = tmin;
        best->block = l < RT_BLOCK_W ? a : c;
        best->lane = (int)(l % RT_BLOCK_W);
        found = 1;
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
    const Block *blocks = bvh->blocks;
    const Trav tr = trav_setup(r);
    float tfar = r->tfar;
    vf tfar_up = vf_set1(tfar * BOX_ROUND_UP);
    Best best = { NULL, 0 };
    StackEnt stack[STACK_SIZE];
    StackEnt *sp = stack;
    uint32_t cur = root;
    int found = 0;
    for (;;) {
        while (!rt_ref_is_leaf(cur)) {
            /* the child references: their line is wanted as soon as the
               box test is done, so ask for it with the bounds' lines */
            __builtin_prefetch(nodes[cur].child);
            vf tn;
            unsigned m = node_hit(&tr, nodes + cur, tfar_up, &tn);
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
                prefetch_ref(nodes, blocks, child[c1]);
                *sp++ = (StackEnt){ child[c1], dist[c1] };
                cur = child[c0];
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
            for (StackEnt *a = base; a < sp; a++)
                prefetch_ref(nodes, blocks, a->ref);
        }
        int hit;
        if (rt_ref_is_inst(cur)) {
            r->tfar = tfar;
            hit = inst_hit(&bvh->insts[cur & ~(RT_REF_LEAF | RT_REF_INST)], r, h, occl);
            if (hit && !occl) {
                tfar = r->tfar;
                best.block = NULL;
            }
        } else {
            hit = tri_leaf_hit(&tr, blocks + rt_ref_first(cur), (int)rt_ref_count(cur),
                               &tfar, &best, occl);
        }
        if (hit) {
            found = 1;
            if (occl)
                return 1;
            tfar_up = vf_set1(tfar * BOX_ROUND_UP);
        }
    pop:
        for (;;) {
            if (sp == stack)
                goto done;
            --sp;
            /* an occlusion ray's tfar never shrinks: every entry holds */
            if (occl || sp->d <= tfar * BOX_ROUND_UP) {
                cur = sp->ref;
                break;
            }
        }
    }
done:
    if (found) {
        r->tfar = tfar;
        if (best.block)
            tri_record(best.block, best.lane, r, h, instID);
    }
    return found;
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
    if (rt_ray_from_api(&r, &rh->ray) && trav_impl(bvh, bvh->root, &r, &h, RT_INVALID_ID, 0))
        rt_hit_to_api(rh, &r, &h);
}

static void occluded1(const RtBvh *bvh, RTRay *q)
{
    RtRay r;
    if (rt_ray_from_api(&r, q) && trav_impl(bvh, bvh->root, &r, NULL, RT_INVALID_ID, 1))
        q->tfar = -INFINITY;
}

#endif
