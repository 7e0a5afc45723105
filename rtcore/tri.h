/*
** tri.h: the prepared ray and the watertight ray/triangle test (Woop,
** Benthin and Wald, "Watertight Ray/Triangle Intersection", JCGT 2013),
** scalar form. The SIMD kernels repeat exactly these operations in this
** order, one lane per triangle, so every kernel and the brute-force oracle
** agree to the bit. The files including this are built with
** -ffp-contract=off: a fused multiply-add would round the two products
** of an edge function differently in the two triangles sharing the edge,
** and rays could slip between them.
**
** Everything is static inline so the ISA libraries depend on no symbol of
** librtcore.a.
*/
#ifndef RTCORE_TRI_H
#define RTCORE_TRI_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "rtcore/include/rtcore.h"

/* A ray prepared for traversal and triangle tests. */
typedef struct RtRay {
    float org[3], dir[3];
    float rdir[3];            /* 1/dir; +-inf for zero components */
    float tnear, tfar;        /* tfar shrinks to the closest hit so far */
    float Sx, Sy, Sz;         /* shear that maps dir to (0, 0, 1) */
    int kx, ky, kz;           /* kz: the dominant axis of dir */
} RtRay;

/* What a closest hit records besides t (which is ray.tfar). */
typedef struct RtHitRec {
    float Ng[3];
    float u, v;
    uint32_t primID, geomID, instID;
} RtHitRec;

/* Rays the kernels trace: finite origin and direction, a non-zero
   direction, and an ordered, non-NaN [tnear, tfar]. Others never hit. */
static inline bool rt_ray_valid(const float org[3], const float dir[3],
                                float tnear, float tfar)
{
    /* x - x is 0 for a finite x and NaN for inf or NaN: one comparison
       checks all six (no branch per component on the per-ray path). */
    float z = ((org[0] - org[0]) + (org[1] - org[1])) + ((org[2] - org[2]) + (dir[0] - dir[0])) +
              ((dir[1] - dir[1]) + (dir[2] - dir[2]));
    bool nonzero = (dir[0] != 0) | (dir[1] != 0) | (dir[2] != 0);
    return (z == 0) & nonzero & (tnear <= tfar);   /* false when either is NaN */
}

static inline void rt_ray_prepare(RtRay *r, const float org[3],
                                  const float dir[3], float tnear, float tfar)
{
    for (int i = 0; i < 3; i++) {
        r->org[i] = org[i];
        r->dir[i] = dir[i];
        r->rdir[i] = 1.0f / dir[i];
    }
    r->tnear = tnear;
    r->tfar = tfar < FLT_MAX ? tfar : FLT_MAX;   /* a hit at t = inf is an overflow */
    float ax = fabsf(dir[0]), ay = fabsf(dir[1]), az = fabsf(dir[2]);
    int kz = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    int kx = kz == 2 ? 0 : kz + 1;
    int ky = kx == 2 ? 0 : kx + 1;
    if (dir[kz] < 0) {        /* keep the winding, so U, V, W keep their signs */
        int t = kx;
        kx = ky;
        ky = t;
    }
    r->kx = kx;
    r->ky = ky;
    r->kz = kz;
    r->Sx = dir[kx] / dir[kz];
    r->Sy = dir[ky] / dir[kz];
    r->Sz = 1.0f / dir[kz];
}

/* Prepares an API ray; false for one that cannot hit (rt_ray_valid). */
static inline bool rt_ray_from_api(RtRay *r, const RTRay *q)
{
    const float org[3] = { q->org_x, q->org_y, q->org_z };
    const float dir[3] = { q->dir_x, q->dir_y, q->dir_z };
    if (!rt_ray_valid(org, dir, q->tnear, q->tfar))
        return false;
    rt_ray_prepare(r, org, dir, q->tnear, q->tfar);
    return true;
}

/* Writes a closest hit back to the API's ray and hit. */
static inline void rt_hit_to_api(RTRayHit *rh, const RtRay *r, const RtHitRec *h)
{
    rh->ray.tfar = r->tfar;
    rh->hit = (RTHit){ h->Ng[0], h->Ng[1], h->Ng[2], h->u, h->v,
                       h->primID, h->geomID, h->instID };
}

/* The test proper. On a hit inside [tnear, tfar] returns true with t and
   the barycentrics of v1 (u) and v2 (v). Edge functions of exactly zero
   count as inside, so a ray through a shared edge or vertex hits every
   triangle there; a zero determinant (edge-on or degenerate) misses. */
static inline bool rt_tri_intersect(const RtRay *r, const float v0[3],
                                    const float v1[3], const float v2[3],
                                    float *t, float *u, float *v)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;
    float akx = v0[kx] - r->org[kx], aky = v0[ky] - r->org[ky], akz = v0[kz] - r->org[kz];
    float bkx = v1[kx] - r->org[kx], bky = v1[ky] - r->org[ky], bkz = v1[kz] - r->org[kz];
    float ckx = v2[kx] - r->org[kx], cky = v2[ky] - r->org[ky], ckz = v2[kz] - r->org[kz];
    float Ax = akx - r->Sx * akz, Ay = aky - r->Sy * akz;
    float Bx = bkx - r->Sx * bkz, By = bky - r->Sy * bkz;
    float Cx = ckx - r->Sx * ckz, Cy = cky - r->Sy * ckz;
    float U = Cx * By - Cy * Bx;
    float V = Ax * Cy - Ay * Cx;
    float W = Bx * Ay - By * Ax;
    bool pos = U >= 0 && V >= 0 && W >= 0;
    bool neg = U <= 0 && V <= 0 && W <= 0;
    float det = U + V + W;
    if (!(pos || neg) || det == 0)
        return false;
    /* t from the barycentrics rather than T / det: T grows with the cube
       of the coordinates and would overflow (or underflow) three times
       sooner than U, V, W do. */
    float inv = 1.0f / det;
    float tt = (U * inv) * (r->Sz * akz) + (V * inv) * (r->Sz * bkz) + (W * inv) * (r->Sz * ckz);
    if (!(tt >= r->tnear && tt <= r->tfar))
        return false;
    *t = tt;
    *u = V * inv;
    *v = W * inv;
    return true;
}

/* The unnormalised geometric normal e1 x e2, e1 = v1 - v0, e2 = v2 - v0. */
static inline void rt_tri_normal(const float v0[3], const float v1[3],
                                 const float v2[3], float ng[3])
{
    float e1[3] = { v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2] };
    float e2[3] = { v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2] };
    ng[0] = e1[1] * e2[2] - e1[2] * e2[1];
    ng[1] = e1[2] * e2[0] - e1[0] * e2[2];
    ng[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

/* The world-space ray of an instance: org and dir through the 3x4
   world-to-object matrix m. t is unchanged because dir is not normalised. */
static inline void rt_xfm_point(const float m[12], const float p[3], float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = m[4 * i] * p[0] + m[4 * i + 1] * p[1] + m[4 * i + 2] * p[2] + m[4 * i + 3];
}
static inline void rt_xfm_vector(const float m[12], const float d[3], float out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = m[4 * i] * d[0] + m[4 * i + 1] * d[1] + m[4 * i + 2] * d[2];
}

#endif
