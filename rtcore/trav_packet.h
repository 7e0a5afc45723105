/*
** trav_packet.h: packet traversal, one ray per SIMD lane, included by each
** ISA's kernel file after trav_single.h. A packet of up to VW rays walks
** the tree together: each child box is tested against every lane at once
** and a node is visited if any lane enters it. When a node is reached by
** few enough lanes (at most SWITCH) the packet no longer pays, and those
** lanes go on alone through that subtree with the single-ray kernel
** (Embree's "hybrid" mode). Leaves are always tested ray by ray with the
** single-ray leaf test: it is SIMD over triangles, so it stays full.
**
** Rays arrive as indices into a stream view (RTRayHitNp), which also
** describes packets of 4/8/16 and lets the stream code regroup rays.
*/
#ifndef RTCORE_TRAV_PACKET_H
#define RTCORE_TRAV_PACKET_H

#include "rtcore/trav_single.h"

/* Lanes at or below which a subtree is traced ray by ray. */
#define SWITCH (VW / 4 + 1)

typedef struct Packet {
    vf ox, oy, oz, rx, ry, rz;
    vf negx, negy, negz;          /* lanes whose direction is negative */
    vf tnear;
    RtRay ray[VW];
    RtHitRec hit[VW];
    _Alignas(32) float tfar[VW];  /* mirrors ray[i].tfar */
    int alive;                    /* lanes still looking */
    int found;                    /* lanes that hit */
} Packet;

/* Prepares lanes 0..n-1 from rays idx[0..n-1] of the stream; invalid rays
   stay dead. */
static void packet_load(Packet *p, const RTRayNp *s, const uint32_t *idx, int n)
{
    _Alignas(32) float a[10][VW];
    p->alive = p->found = 0;
    for (int i = 0; i < VW; i++) {
        a[9][i] = -INFINITY;
        for (int k = 0; k < 9; k++)
            a[k][i] = 0;
        p->tfar[i] = -INFINITY;
        if (i >= n)
            continue;
        uint32_t j = idx[i];
        const float org[3] = { s->org_x[j], s->org_y[j], s->org_z[j] };
        const float dir[3] = { s->dir_x[j], s->dir_y[j], s->dir_z[j] };
        if (!rt_ray_valid(org, dir, s->tnear[j], s->tfar[j]))
            continue;
        RtRay *r = &p->ray[i];
        rt_ray_prepare(r, org, dir, s->tnear[j], s->tfar[j]);
        p->alive |= 1 << i;
        p->tfar[i] = r->tfar;
        for (int k = 0; k < 3; k++) {
            a[k][i] = r->org[k];
            a[3 + k][i] = r->rdir[k];
            a[6 + k][i] = r->rdir[k] < 0 ? -1.0f : 1.0f;
        }
        a[9][i] = r->tnear;
    }
    const vf zero = vf_set1(0.0f);
    p->ox = vf_load(a[0]), p->oy = vf_load(a[1]), p->oz = vf_load(a[2]);
    p->rx = vf_load(a[3]), p->ry = vf_load(a[4]), p->rz = vf_load(a[5]);
    p->negx = vf_le(vf_load(a[6]), zero);
    p->negy = vf_le(vf_load(a[7]), zero);
    p->negz = vf_le(vf_load(a[8]), zero);
    p->tnear = vf_load(a[9]);
}

/* Traces the lanes in `lanes` through the subtree at ref, one by one. */
static inline __attribute__((always_inline)) void
packet_single(const RtBvh *bvh, Packet *p, uint32_t ref, int lanes, const int occl)
{
    do {
        int i = __builtin_ctz((unsigned)lanes);
        lanes &= lanes - 1;
        RtRay *r = &p->ray[i];
        if (occl) {
            if (trav_any(bvh, ref, r)) {
                p->alive &= ~(1 << i);
                p->found |= 1 << i;
                p->tfar[i] = -INFINITY;
            }
        } else if (trav_closest(bvh, ref, r, &p->hit[i], RT_INVALID_ID)) {
            p->found |= 1 << i;
            p->tfar[i] = r->tfar;
        }
    } while (lanes);
}

static inline __attribute__((always_inline)) void
packet_trace(const RtBvh *bvh, Packet *p, const int occl)
{
    if (bvh->root == RT_REF_EMPTY || !p->alive)
        return;
    const Node *nodes = bvh->nodes;
    const vf inf = vf_set1(INFINITY), up = vf_set1(BOX_ROUND_UP);
    _Alignas(32) float dist[STACK_SIZE][VW];
    uint32_t refs[STACK_SIZE];
    int sp = 1;
    refs[0] = bvh->root;
    vf_store(dist[0], vf_select(vm_from_bits(p->alive), p->tnear, inf));
    while (sp > 0) {
        --sp;
        uint32_t ref = refs[sp];
        vf tfar = vf_load(p->tfar);
        int act = vm_bits(vf_le(vf_load(dist[sp]), tfar)) & p->alive;
        if (!act)
            continue;
        if (rt_ref_is_leaf(ref) || __builtin_popcount((unsigned)act) <= SWITCH) {
            packet_single(bvh, p, ref, act, occl);
            if (occl && !p->alive)
                return;
            continue;
        }
        const Node *n = nodes + ref;
        const vf actm = vm_from_bits(act);
        vf cd[VW];
        float key[VW];
        uint32_t cref[VW];
        int nc = 0;
        for (int c = 0; c < VW && n->child[c] != RT_REF_EMPTY; c++) {
            vf lx = vf_set1(n->b[0][c]), hx = vf_set1(n->b[1][c]);
            vf ly = vf_set1(n->b[2][c]), hy = vf_set1(n->b[3][c]);
            vf lz = vf_set1(n->b[4][c]), hz = vf_set1(n->b[5][c]);
            vf tnx = vf_mul(vf_sub(vf_select(p->negx, hx, lx), p->ox), p->rx);
            vf tny = vf_mul(vf_sub(vf_select(p->negy, hy, ly), p->oy), p->ry);
            vf tnz = vf_mul(vf_sub(vf_select(p->negz, hz, lz), p->oz), p->rz);
            vf tfx = vf_mul(vf_sub(vf_select(p->negx, lx, hx), p->ox), p->rx);
            vf tfy = vf_mul(vf_sub(vf_select(p->negy, ly, hy), p->oy), p->ry);
            vf tfz = vf_mul(vf_sub(vf_select(p->negz, lz, hz), p->oz), p->rz);
            vf tn = vf_max(tnx, vf_max(tny, vf_max(tnz, p->tnear)));
            vf tf = vf_mul(vf_min(tfx, vf_min(tfy, vf_min(tfz, tfar))), up);
            vf hm = vm_and(vf_le(tn, tf), actm);
            if (!vm_bits(hm))
                continue;
            cd[nc] = vf_select(hm, tn, inf);
            key[nc] = vf_hmin(cd[nc]);
            cref[nc] = n->child[c];
            nc++;
        }
        /* Push the farthest first so the nearest child is popped next. */
        for (int i = 1; i < nc; i++) {
            for (int j = i; j > 0 && key[j - 1] < key[j]; j--) {
                float k = key[j];
                key[j] = key[j - 1];
                key[j - 1] = k;
                vf d = cd[j];
                cd[j] = cd[j - 1];
                cd[j - 1] = d;
                uint32_t r = cref[j];
                cref[j] = cref[j - 1];
                cref[j - 1] = r;
            }
        }
        for (int i = 0; i < nc; i++) {
            refs[sp] = cref[i];
            vf_store(dist[sp], cd[i]);
            sp++;
        }
    }
}

static void intersectp(const RtBvh *bvh, const RTRayHitNp *s, const uint32_t *idx, int n)
{
    Packet p;
    packet_load(&p, &s->ray, idx, n);
    packet_trace(bvh, &p, 0);
    for (int f = p.found; f; f &= f - 1) {
        int i = __builtin_ctz((unsigned)f);
        uint32_t j = idx[i];
        const RtHitRec *h = &p.hit[i];
        s->ray.tfar[j] = p.ray[i].tfar;
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
    packet_trace(bvh, &p, 1);
    for (int f = p.found; f; f &= f - 1)
        s->tfar[idx[__builtin_ctz((unsigned)f)]] = -INFINITY;
}

#endif
