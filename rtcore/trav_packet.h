/*
** trav_packet.h: packet traversal, one ray per SIMD lane, included by each
** ISA's kernel file after trav_single.h. The packet width PW may differ
** from the node width VW (AVX-512: BVH8 nodes, packets of 16), so the
** lanes are the vp type of the simd/ header. A packet walks the tree
** together: each child box is tested against every lane at once and a
** node is visited if any lane enters it. When a node is reached by few
** enough lanes (at most SWITCH) the packet no longer pays, and those
** lanes go on alone through that subtree with the single-ray kernel
** (Embree's "hybrid" mode). Leaves reached by more lanes test each
** triangle against all of them at once (ray-SIMD), with the same
** arithmetic as the single-ray test lane by lane, so hits agree to the
** bit.
**
** Before any lane meets a node's boxes, the whole packet meets all VW of
** them at once as one interval ray (Reshetov's interval arithmetic,
** Embree's frustum test): the origin and 1/dir ranges of the live lanes
** bound every lane's entry and exit distances, so a child outside those
** bounds is skipped for all lanes with one node-wide test; for a
** coherent packet that is most children of most nodes. The bounds are
** exact, not padded: floating-point subtraction and multiplication are
** monotone in each operand, so the rounded product at the right corner
** of the ranges bounds every lane's rounded product.
**
** Rays arrive as indices into a stream view (RTRayHitNp), which also
** describes packets of 4/8/16 and lets the stream code regroup rays.
*/
#ifndef RTCORE_TRAV_PACKET_H
#define RTCORE_TRAV_PACKET_H

#include "rtcore/trav_single.h"

/* Lanes at or below which a subtree is traced ray by ray. */
#define SWITCH (PW / 4 + 1)

typedef struct Packet {
    vp ox, oy, oz, rx, ry, rz;
    vpm negx, negy, negz;         /* lanes whose direction is negative */
    vp tnear;
    /* The watertight test's per-lane frame (tri.h): the origin in the
       sheared axes, the shear, and which of x, y, z each axis is. */
    vp okx, oky, okz, sx, sy, sz;
    vpm kx0, kx1, ky0, ky1, kz0, kz1;   /* k == 0, k == 1 */
    int uniform;                  /* all live lanes share kx, ky, kz */
    /* The lanes as rt_ray_prepare makes them, for the single-ray kernel
       (packet_ray), and the hits it or the leaf test record. */
    _Alignas(64) float org[3][PW], dir[3][PW], rdir[3][PW], lo[PW];
    _Alignas(64) float s[3][PW], k[3][PW];
    _Alignas(64) float tfar[PW];  /* dead lanes: -inf */
    RtHitRec hit[PW];
    /* The interval ray, per axis: the origin a lane's near and far slab
       distances are smallest resp. largest from, and the 1/dir range.
       An axis on which the lanes' signs differ or some 1/dir is infinite
       has NaN ranges, which drop out of the min/max (simd/ headers), so
       that axis bounds nothing. cull: some axis bounds. */
    float onear[3], ofar[3], rlo[3], rhi[3];
    uint32_t plane[3];            /* byte offset of the near slab row */
    float tnear_min;
    int cull;
    int alive;                    /* lanes still looking */
    int found;                    /* lanes that hit */
} Packet;

/* Lanes of m where x is finite. */
static inline int finite_bits(vp x)
{
    return vpm_bits(vp_eq(vp_sub(x, x), vp_set1(0.0f)));
}

/* The smallest and largest of x over the lanes in m. */
static inline float lanes_min(vpm m, vp x)
{
    return vp_hmin(vp_select(m, x, vp_set1(INFINITY)));
}
static inline float lanes_max(vpm m, vp x)
{
    return -vp_hmin(vp_select(m, vp_sub(vp_set1(0.0f), x), vp_set1(INFINITY)));
}

/* The interval ray of the live lanes (see the top). */
static void packet_interval(Packet *p, const vp o[3])
{
    const vpm alive = vpm_from_bits(p->alive);
    const vp r[3] = { p->rx, p->ry, p->rz };
    p->cull = 0;
    p->tnear_min = lanes_min(alive, p->tnear);
    for (int a = 0; a < 3; a++) {
        float lo = lanes_min(alive, r[a]), hi = lanes_max(alive, r[a]);
        float omin = lanes_min(alive, o[a]), omax = lanes_max(alive, o[a]);
        int pos = lo > 0 && hi < INFINITY, neg = hi < 0 && lo > -INFINITY;
        /* Positive 1/dir: the near distance (L - o) / dir is smallest from
           the largest o, the far one largest from the smallest o;
           negative 1/dir the other way round. */
        p->onear[a] = neg ? omin : omax;
        p->ofar[a] = neg ? omax : omin;
        p->plane[a] = (uint32_t)(2 * a + neg) * VW * 4;
        p->rlo[a] = pos || neg ? lo : NAN;
        p->rhi[a] = pos || neg ? hi : NAN;
        p->cull |= pos || neg;
    }
}

/* Prepares lanes 0..n-1 from rays idx[0..n-1] of the stream, all at once
   with the operations of rt_ray_valid and rt_ray_prepare, so each lane is
   what those make of its ray; invalid rays stay dead. */
static void packet_load(Packet *p, const RTRayNp *s, const uint32_t *idx, int n)
{
    /* Whole vectors where the rays are consecutive (packets, and runs of
       one octant in streams), else a gather: never lane by lane, whose
       stores a vector load could not forward from. */
    const int run = n == PW && idx[PW - 1] - idx[0] == PW - 1;
    const float *src[8] = { s->org_x, s->org_y, s->org_z, s->dir_x, s->dir_y, s->dir_z,
                            s->tnear, s->tfar };
    vp in[8];
    for (int f = 0; f < 8; f++)
        in[f] = run ? vp_loadu(src[f] + idx[0]) : vp_gather(src[f], idx, n);
    const vp zero = vp_set1(0.0f), one = vp_set1(1.0f), two = vp_set1(2.0f);
    vp o[3], d[3], ad[3];
    int ok = (int)((1u << n) - 1), nonzero = 0;
    for (int a = 0; a < 3; a++) {
        o[a] = in[a];
        d[a] = in[3 + a];
        vp_store(p->org[a], o[a]);
        vp_store(p->dir[a], d[a]);
        ok &= finite_bits(o[a]) & finite_bits(d[a]);
        nonzero |= ~vpm_bits(vp_eq(d[a], zero));
        ad[a] = vp_max(d[a], vp_sub(zero, d[a]));
        vp_store(p->rdir[a], vp_div(one, d[a]));
    }
    const vp tnear = in[6], tfar = in[7];
    p->alive = ok & nonzero & vpm_bits(vp_le(tnear, tfar));
    p->found = 0;
    const vpm alive = vpm_from_bits(p->alive);
    p->tnear = vp_select(alive, tnear, vp_set1(-INFINITY));
    vp_store(p->lo, p->tnear);
    vp_store(p->tfar, vp_select(alive, vp_min(tfar, vp_set1(FLT_MAX)),
                                vp_set1(-INFINITY)));
    /* kz: the dominant axis; kx, ky the next two, swapped when dir[kz] < 0 */
    vp kz = vp_select(vp_ge(ad[0], ad[1]), vp_select(vp_ge(ad[0], ad[2]), zero, two),
                      vp_select(vp_ge(ad[1], ad[2]), one, two));
    vp kx = vp_select(vp_eq(kz, two), zero, vp_add(kz, one));
    vp ky = vp_select(vp_eq(kx, two), zero, vp_add(kx, one));
    p->kz0 = vp_eq(kz, zero), p->kz1 = vp_eq(kz, one);
    vp dkz = vp_select(p->kz0, d[0], vp_select(p->kz1, d[1], d[2]));
    vpm swap = vp_lt(dkz, zero);
    vp t = kx;
    kx = vp_select(swap, ky, kx);
    ky = vp_select(swap, t, ky);
    p->kx0 = vp_eq(kx, zero), p->kx1 = vp_eq(kx, one);
    p->ky0 = vp_eq(ky, zero), p->ky1 = vp_eq(ky, one);
    vp dkx = vp_select(p->kx0, d[0], vp_select(p->kx1, d[1], d[2]));
    vp dky = vp_select(p->ky0, d[0], vp_select(p->ky1, d[1], d[2]));
    p->okx = vp_select(p->kx0, o[0], vp_select(p->kx1, o[1], o[2]));
    p->oky = vp_select(p->ky0, o[0], vp_select(p->ky1, o[1], o[2]));
    p->okz = vp_select(p->kz0, o[0], vp_select(p->kz1, o[1], o[2]));
    p->sx = vp_div(dkx, dkz);
    p->sy = vp_div(dky, dkz);
    p->sz = vp_div(one, dkz);
    vp_store(p->s[0], p->sx), vp_store(p->s[1], p->sy), vp_store(p->s[2], p->sz);
    vp_store(p->k[0], kx), vp_store(p->k[1], ky), vp_store(p->k[2], kz);
    p->uniform = 1;
    if (p->alive) {
        int l = __builtin_ctz((unsigned)p->alive);
        for (int a = 0; a < 3; a++)
            p->uniform &= (vpm_bits(vp_eq(vp_load(p->k[a]), vp_set1(p->k[a][l]))) &
                           p->alive) == p->alive;
    }
    p->ox = o[0], p->oy = o[1], p->oz = o[2];
    p->rx = vp_load(p->rdir[0]), p->ry = vp_load(p->rdir[1]), p->rz = vp_load(p->rdir[2]);
    p->negx = vp_lt(p->rx, zero), p->negy = vp_lt(p->ry, zero), p->negz = vp_lt(p->rz, zero);
    packet_interval(p, o);
}

/* Lane i as the single-ray kernel takes it. */
static inline void packet_ray(const Packet *p, int i, RtRay *r)
{
    for (int a = 0; a < 3; a++) {
        r->org[a] = p->org[a][i];
        r->dir[a] = p->dir[a][i];
        r->rdir[a] = p->rdir[a][i];
    }
    r->tnear = p->lo[i];
    r->tfar = p->tfar[i];
    r->Sx = p->s[0][i], r->Sy = p->s[1][i], r->Sz = p->s[2][i];
    r->kx = (int)p->k[0][i], r->ky = (int)p->k[1][i], r->kz = (int)p->k[2][i];
}

/* Traces the lanes in `lanes` through the subtree at ref, one by one. */
static inline __attribute__((always_inline)) void
packet_single(const RtBvh *bvh, Packet *p, uint32_t ref, int lanes, const int occl)
{
    do {
        int i = __builtin_ctz((unsigned)lanes);
        lanes &= lanes - 1;
        RtRay r;
        packet_ray(p, i, &r);
        if (occl) {
            if (trav_any(bvh, ref, &r)) {
                p->alive &= ~(1 << i);
                p->found |= 1 << i;
                p->tfar[i] = -INFINITY;
            }
        } else if (trav_closest(bvh, ref, &r, &p->hit[i], RT_INVALID_ID)) {
            p->found |= 1 << i;
            p->tfar[i] = r.tfar;
        }
    } while (lanes);
}

/* Component k of each lane's sheared frame: x, y or z by the masks. */
static inline vp pick(vpm is0, vpm is1, float x, float y, float z)
{
    return vp_select(is0, vp_set1(x), vp_select(is1, vp_set1(y), vp_set1(z)));
}

/* Triangle l of block b against the lanes in act (ray-SIMD): the
   watertight test of block_hit, lane by lane the same operations. Returns
   the lanes it hits within their [tnear, tfar]; for closest hits records
   them. block_hit keeps, of a block's hits, the lowest triangle at the
   smallest t, and a tie with the tfar of earlier blocks wins; so a tie
   wins here only for lanes no earlier triangle of the block took (taken).
   `uniform` is p->uniform, a constant in each instance. */
static inline __attribute__((always_inline)) int
tri_hit_lanes(Packet *p, const Block *b, int l, int act, int taken, const int uniform,
              const int occl)
{
    vp ak[3], bk[3], ck[3];
    const vpm *km[3][2] = { { &p->kx0, &p->kx1 }, { &p->ky0, &p->ky1 }, { &p->kz0, &p->kz1 } };
    const vp ok[3] = { p->okx, p->oky, p->okz };
    for (int k = 0; k < 3; k++) {
        if (uniform) {
            const int ax = (int)p->k[k][__builtin_ctz((unsigned)act)];
            ak[k] = vp_sub(vp_set1(b->v[0][ax][l]), ok[k]);
            bk[k] = vp_sub(vp_set1(b->v[1][ax][l]), ok[k]);
            ck[k] = vp_sub(vp_set1(b->v[2][ax][l]), ok[k]);
        } else {
            ak[k] = vp_sub(pick(*km[k][0], *km[k][1], b->v[0][0][l], b->v[0][1][l],
                                b->v[0][2][l]), ok[k]);
            bk[k] = vp_sub(pick(*km[k][0], *km[k][1], b->v[1][0][l], b->v[1][1][l],
                                b->v[1][2][l]), ok[k]);
            ck[k] = vp_sub(pick(*km[k][0], *km[k][1], b->v[2][0][l], b->v[2][1][l],
                                b->v[2][2][l]), ok[k]);
        }
    }
    const vp zero = vp_set1(0.0f);
    vp Ax = vp_sub(ak[0], vp_mul(p->sx, ak[2])), Ay = vp_sub(ak[1], vp_mul(p->sy, ak[2]));
    vp Bx = vp_sub(bk[0], vp_mul(p->sx, bk[2])), By = vp_sub(bk[1], vp_mul(p->sy, bk[2]));
    vp Cx = vp_sub(ck[0], vp_mul(p->sx, ck[2])), Cy = vp_sub(ck[1], vp_mul(p->sy, ck[2]));
    vp U = vp_sub(vp_mul(Cx, By), vp_mul(Cy, Bx));
    vp V = vp_sub(vp_mul(Ax, Cy), vp_mul(Ay, Cx));
    vp W = vp_sub(vp_mul(Bx, Ay), vp_mul(By, Ax));
    vpm pos = vpm_and(vpm_and(vp_ge(U, zero), vp_ge(V, zero)), vp_ge(W, zero));
    vpm neg = vpm_and(vpm_and(vp_le(U, zero), vp_le(V, zero)), vp_le(W, zero));
    vp det = vp_add(vp_add(U, V), W);
    int m = vpm_bits(vpm_and(vpm_or(pos, neg), vp_ne(det, zero))) & act;
    if (!m)
        return 0;
    vp inv = vp_div(vp_set1(1.0f), det);
    vp t = vp_add(vp_add(vp_mul(vp_mul(U, inv), vp_mul(p->sz, ak[2])),
                         vp_mul(vp_mul(V, inv), vp_mul(p->sz, bk[2]))),
                  vp_mul(vp_mul(W, inv), vp_mul(p->sz, ck[2])));
    const vp tfar = vp_load(p->tfar);
    m &= vpm_bits(vp_ge(t, p->tnear)) &
         (vpm_bits(vp_lt(t, tfar)) | (vpm_bits(vp_le(t, tfar)) & ~taken));
    if (!m || occl)
        return m;
    _Alignas(64) float ts[PW], vs[PW], ws[PW], is[PW];
    vp_store(ts, t);
    vp_store(vs, V);
    vp_store(ws, W);
    vp_store(is, inv);
    float v[3][3];
    for (int i = 0; i < 3; i++)
        for (int a = 0; a < 3; a++)
            v[i][a] = b->v[i][a][l];
    float ng[3];
    rt_tri_normal(v[0], v[1], v[2], ng);
    for (int f = m; f; f &= f - 1) {
        int i = __builtin_ctz((unsigned)f);
        RtHitRec *h = &p->hit[i];
        p->tfar[i] = ts[i];
        h->u = vs[i] * is[i];
        h->v = ws[i] * is[i];
        h->primID = b->primID[l];
        h->geomID = b->geomID[l];
        h->instID = RT_INVALID_ID;
        h->Ng[0] = ng[0], h->Ng[1] = ng[1], h->Ng[2] = ng[2];
    }
    return m;
}

/* A triangle leaf against the lanes in act, triangle by triangle. */
static inline __attribute__((always_inline)) void
packet_leaf(const RtBvh *bvh, Packet *p, uint32_t ref, int act, const int uniform,
            const int occl)
{
    const Block *b = (const Block *)bvh->blocks + rt_ref_first(ref);
    int n = (int)rt_ref_count(ref);
    for (int i = 0; i < n; i++) {
        int taken = 0;
        for (int l = 0; l < RT_BLOCK_W; l++) {
            int m = tri_hit_lanes(p, b + i, l, act, taken, uniform, occl);
            if (!m)
                continue;
            taken |= m;
            p->found |= m;
            if (occl) {
                p->alive &= ~m;
                act &= ~m;
                for (int f = m; f; f &= f - 1)
                    p->tfar[__builtin_ctz((unsigned)f)] = -INFINITY;
                if (!act)
                    return;
            }
        }
    }
}

/* The lanes of p whose ray enters child c of node n within tfar, and
   their entry distances in *tn. */
static inline __attribute__((always_inline)) vpm
child_box(const Packet *p, const Node *n, int c, vp tfar, vp *tn)
{
    vp lx = vp_set1(n->b[0][c]), hx = vp_set1(n->b[1][c]);
    vp ly = vp_set1(n->b[2][c]), hy = vp_set1(n->b[3][c]);
    vp lz = vp_set1(n->b[4][c]), hz = vp_set1(n->b[5][c]);
    vp tnx = vp_mul(vp_sub(vp_select(p->negx, hx, lx), p->ox), p->rx);
    vp tny = vp_mul(vp_sub(vp_select(p->negy, hy, ly), p->oy), p->ry);
    vp tnz = vp_mul(vp_sub(vp_select(p->negz, hz, lz), p->oz), p->rz);
    vp tfx = vp_mul(vp_sub(vp_select(p->negx, lx, hx), p->ox), p->rx);
    vp tfy = vp_mul(vp_sub(vp_select(p->negy, ly, hy), p->oy), p->ry);
    vp tfz = vp_mul(vp_sub(vp_select(p->negz, lz, hz), p->oz), p->rz);
    *tn = vp_max(tnx, vp_max(tny, vp_max(tnz, p->tnear)));
    vp tf = vp_mul(vp_min(tfx, vp_min(tfy, vp_min(tfz, tfar))), vp_set1(BOX_ROUND_UP));
    return vp_le(*tn, tf);
}

static inline __attribute__((always_inline)) void
packet_trace(const RtBvh *bvh, Packet *p, const int uniform, const int occl)
{
    if (bvh->root == RT_REF_EMPTY || !p->alive)
        return;
    const Node *nodes = bvh->nodes;
    const vp inf = vp_set1(INFINITY);
    _Alignas(64) float dist[STACK_SIZE][PW];
    uint32_t refs[STACK_SIZE];
    int sp = 1;
    refs[0] = bvh->root;
    vp_store(dist[0], vp_select(vpm_from_bits(p->alive), p->tnear, inf));
    while (sp > 0) {
        --sp;
        uint32_t ref = refs[sp];
        vp tfar = vp_load(p->tfar);
        int act = vpm_bits(vp_le(vp_load(dist[sp]), tfar)) & p->alive;
        if (!act)
            continue;
        if (__builtin_popcount((unsigned)act) <= SWITCH ||
            (rt_ref_is_leaf(ref) && rt_ref_is_inst(ref))) {
            packet_single(bvh, p, ref, act, occl);
            if (occl && !p->alive)
                return;
            continue;
        }
        if (rt_ref_is_leaf(ref)) {
            packet_leaf(bvh, p, ref, act, uniform, occl);
            if (occl && !p->alive)
                return;
            continue;
        }
        const Node *n = nodes + ref;
        const vpm actm = vpm_from_bits(act);
        /* The interval ray first: the children some lane may enter, and
           a lower bound of their entry distances as the sort key. */
        unsigned cand = (1u << VW) - 1;
        _Alignas(64) float ikey[VW];
        if (p->cull) {
            enum { FLIP = VW * 4 };
            const char *nb = (const char *)n;
            const vf up8 = vf_set1(BOX_ROUND_UP);
            vf itn = vf_set1(p->tnear_min), itf = vf_set1(lanes_max(actm, tfar));
            for (int a = 0; a < 3; a++) {
                const vf lo = vf_set1(p->rlo[a]), hi = vf_set1(p->rhi[a]);
                vf dn = vf_sub(vf_load((const float *)(nb + p->plane[a])), vf_set1(p->onear[a]));
                vf df = vf_sub(vf_load((const float *)(nb + (p->plane[a] ^ FLIP))),
                               vf_set1(p->ofar[a]));
                itn = vf_max(vf_min(vf_mul(dn, lo), vf_mul(dn, hi)), itn);
                itf = vf_min(vf_max(vf_mul(df, lo), vf_mul(df, hi)), itf);
            }
            cand = (unsigned)vm_bits(vf_le(itn, vf_mul(itf, up8)));
            vf_store(ikey, itn);
        }
        vp cd[VW];
        float key[VW];
        uint32_t cref[VW];
        int nc = 0;
        for (; cand; cand &= cand - 1) {
            const int c = __builtin_ctz(cand);
            if (n->child[c] == RT_REF_EMPTY)
                break;            /* empty slots come last */
            vp tn;
            vpm hm = vpm_and(child_box(p, n, c, tfar, &tn), actm);
            if (!vpm_bits(hm))
                continue;
            cd[nc] = vp_select(hm, tn, inf);
            key[nc] = p->cull ? ikey[c] : vp_hmin(cd[nc]);
            cref[nc] = n->child[c];
            nc++;
        }
        /* Push the farthest first so the nearest child is popped next. */
        for (int i = 1; i < nc; i++) {
            for (int j = i; j > 0 && key[j - 1] < key[j]; j--) {
                float k = key[j];
                key[j] = key[j - 1];
                key[j - 1] = k;
                vp d = cd[j];
                cd[j] = cd[j - 1];
                cd[j - 1] = d;
                uint32_t r = cref[j];
                cref[j] = cref[j - 1];
                cref[j - 1] = r;
            }
        }
        /* Their lines are asked for now: a packet spends long enough on
           the nearest child's subtree for the others' to arrive. For
           occlusion too: unlike one ray's, a packet's walk goes on
           after its first hit, until every lane has one. +3-6% packets
           on the dragon, whose tree is larger than the L2 cache; the
           bunny's, which fits, is no slower (bench/rtbench). */
        for (int i = 0; i < nc; i++) {
            prefetch_ref(bvh, cref[i]);
            refs[sp] = cref[i];
            vp_store(dist[sp], cd[i]);
            sp++;
        }
    }
}

/* The packet kernel in two instances: lanes sharing the shear axes (the
   usual coherent packet) read them once, others pick them per lane. */
static void packet_run(const RtBvh *bvh, Packet *p, const int occl)
{
    if (p->uniform)
        packet_trace(bvh, p, 1, occl);
    else
        packet_trace(bvh, p, 0, occl);
}

static void intersectp(const RtBvh *bvh, const RTRayHitNp *s, const uint32_t *idx, int n)
{
    Packet p;
    packet_load(&p, &s->ray, idx, n);
    packet_run(bvh, &p, 0);
    for (int f = p.found; f; f &= f - 1) {
        int i = __builtin_ctz((unsigned)f);
        uint32_t j = idx[i];
        const RtHitRec *h = &p.hit[i];
        s->ray.tfar[j] = p.tfar[i];
        s->hit.Ng_x[j] = h->Ng[0];
        s->hit.Ng_y[j] = h->Ng[1];
        s->hit.Ng_z[j] = h->Ng[2];
        s->hit.u[j] = h->u;
        s->hit.v[j] = h->v;
        s->hit.primID[j] = h->primID;
        s->hit.geomID[j] = h->geomID;
        s->hit.instID[j] = h->instID;
    }
}

static void occludedp(const RtBvh *bvh, const RTRayNp *s, const uint32_t *idx, int n)
{
    Packet p;
    packet_load(&p, s, idx, n);
    packet_run(bvh, &p, 1);
    for (int f = p.found; f; f &= f - 1)
        s->tfar[idx[__builtin_ctz((unsigned)f)]] = -INFINITY;
}

#endif
