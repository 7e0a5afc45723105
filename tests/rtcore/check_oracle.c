/*
** check_oracle.c: the triangle test itself checked by something other
** than rt_tri_intersect: a double-precision Möller–Trumbore with rtcore's
** edge rule (barycentrics of exactly zero are inside, a zero determinant
** misses). Where the oracle's answer is clear of its own rounding (every
** barycentric and t farther than a margin from a boundary) the float
** test and every kernel must give it; rays near an edge, a vertex or a
** tie are left to the watertightness and brute-force suites, and the
** tests assert how many rays were clear, so they cannot pass vacuously.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtcore/tri.h"

/* Relative margins around the oracle's boundaries: far above double
   rounding, far below the float test's own error. */
#define EDGE_MARGIN 1e-6
#define T_MARGIN 1e-6
/* Rays more grazing than this (|sin| of the angle to the plane) are
   unclear too: the float test's error grows as 1 / sin. */
#define GRAZE 1e-2

typedef enum { MISS, HIT, UNSURE } Verdict;

typedef struct Oracle {
    Verdict verdict;
    double t, u, v;
} Oracle;

static void sub3(const double a[3], const double b[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}
static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static double norm3(const double a[3])
{
    return sqrt(dot3(a, a));
}

/* Möller–Trumbore in double: u, v the barycentrics of v1 and v2. */
static Oracle oracle(const RTRay *q, const float *fv0, const float *fv1, const float *fv2)
{
    double o[3] = { q->org_x, q->org_y, q->org_z }, d[3] = { q->dir_x, q->dir_y, q->dir_z };
    double v0[3], v1[3], v2[3], e1[3], e2[3], p[3], s[3], qv[3];
    for (int a = 0; a < 3; a++)
        v0[a] = fv0[a], v1[a] = fv1[a], v2[a] = fv2[a];
    sub3(v1, v0, e1);
    sub3(v2, v0, e2);
    cross3(d, e2, p);
    double det = dot3(e1, p);
    Oracle r = { MISS, 0, 0, 0 };
    if (det == 0)
        return r;
    sub3(o, v0, s);
    cross3(s, e1, qv);
    r.u = dot3(s, p) / det;
    r.v = dot3(d, qv) / det;
    r.t = dot3(e2, qv) / det;
    /* a grazing ray is a clear miss only by a wide margin */
    bool graze = fabs(det) <= GRAZE * norm3(d) * norm3(e1) * norm3(e2);
    double em = graze ? GRAZE : EDGE_MARGIN, tm = (graze ? GRAZE : T_MARGIN) * fabs(r.t);
    double m = fmin(r.u, fmin(r.v, 1 - r.u - r.v));
    if (m < -em || r.t < q->tnear - tm || r.t > q->tfar + tm)
        r.verdict = MISS;
    else if (!graze && m > em && r.t > q->tnear + tm && r.t < q->tfar - tm)
        r.verdict = HIT;
    else
        r.verdict = UNSURE;
    return r;
}

static float rnd_range(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * rnd_float(s);
}

/* rt_tri_intersect against the oracle on random triangles, with rays
   aimed at barycentrics in [-0.2, 1.2]. */
START_TEST(triangle_test)
{
    enum { N = 200000 };
    uint32_t seed = 99;
    int clear = 0, hits = 0;
    for (int i = 0; i < N; i++) {
        float v[3][3], org[3], dir[3], b[3];
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                v[k][a] = rnd_range(&seed, 0, 1);
        b[1] = rnd_range(&seed, -0.2f, 1.2f);
        b[2] = rnd_range(&seed, -0.2f, 1.2f);
        b[0] = 1 - b[1] - b[2];
        for (int a = 0; a < 3; a++) {
            org[a] = rnd_range(&seed, -2, 3);
            dir[a] = b[0] * v[0][a] + b[1] * v[1][a] + b[2] * v[2][a] - org[a];
        }
        RTRayHit q = make_ray(org, dir, 0, INFINITY);
        Oracle o = oracle(&q.ray, v[0], v[1], v[2]);
        if (o.verdict == UNSURE)
            continue;
        clear++;
        RtRay r;
        float t, u, vv;
        ck_assert(rt_ray_from_api(&r, &q.ray));
        bool hit = rt_tri_intersect(&r, v[0], v[1], v[2], &t, &u, &vv);
        ck_assert_msg(hit == (o.verdict == HIT), "triangle %d: float test %s, oracle %s", i,
                      hit ? "hits" : "misses", o.verdict == HIT ? "hits" : "misses");
        if (!hit)
            continue;
        hits++;
        ck_assert_msg(fabs(t - o.t) <= 1e-4 * fabs(o.t), "triangle %d: t %.9g, oracle %.9g",
                      i, t, o.t);
        ck_assert_msg(fabs(u - o.u) <= 1e-4 && fabs(vv - o.v) <= 1e-4,
                      "triangle %d: u,v %g,%g oracle %g,%g", i, u, vv, o.u, o.v);
    }
    /* the margins leave most rays clear, and a quarter of those hit (the
       triangle is 0.5 / 1.4^2 of the barycentric square aimed at) */
    ck_assert_int_ge(clear, N * 98 / 100);
    ck_assert_int_ge(hits, clear / 5);
    ck_assert_int_le(hits, clear * 3 / 10);
}
END_TEST

/* The closest hit over the mesh by the oracle; false when unclear (a
   triangle UNSURE, or two hits within the t margin of the closest). */
static bool closest(const TMesh *m, const RTRay *q, int *prim, Oracle *best)
{
    *prim = -1;
    *best = (Oracle){ MISS, INFINITY, 0, 0 };
    double second = INFINITY;
    for (size_t p = 0; p < m->nt; p++) {
        const uint32_t *ix = &m->idx[3 * p];
        Oracle o = oracle(q, &m->v[3 * ix[0]], &m->v[3 * ix[1]], &m->v[3 * ix[2]]);
        if (o.verdict == UNSURE)
            return false;
        if (o.verdict != HIT)
            continue;
        if (o.t < best->t) {
            second = best->t;
            *best = o;
            *prim = (int)p;
        } else if (o.t < second) {
            second = o.t;
        }
    }
    return *prim < 0 || second - best->t > 2 * T_MARGIN * fabs(best->t);
}

/* Every kernel of every ISA against the oracle: a bumpy grid seen by
   parallel rays in rows (coherent: full packets reach the leaves) and a
   triangle soup seen by rays from random points. */
START_TEST(kernels)
{
    const char *isas[TEST_ISAS];
    int nisa = test_isas(isas);
    if (_i / K_COUNT >= nisa)
        return;
    const char *cfg = isas[_i / K_COUNT];
    Kern k = (Kern)(_i % K_COUNT);
    enum { SIDE = 48, N = SIDE * SIDE };
    for (int kind = 0; kind < 2; kind++) {
        TMesh m = kind ? tm_soup(800, 10.0f, 5) : tm_grid(24, 1.0f, 3);
        RTDevice d;
        RTScene s = scene_of(cfg, &m, 1, &d);
        RTRayHit *rays = malloc(N * sizeof *rays), *out = malloc(N * sizeof *out);
        ck_assert(rays && out);
        uint32_t seed = 7 + kind;
        for (int i = 0; i < N; i++) {
            float org[3], dir[3];
            if (kind == 0) {
                org[0] = -0.05f + 1.1f * (i % SIDE) / SIDE;
                org[1] = -0.05f + 1.1f * (i / SIDE) / SIDE;
                org[2] = 5;
                dir[0] = 0.03f, dir[1] = -0.02f, dir[2] = -1;
            } else {
                for (int a = 0; a < 3; a++) {
                    org[a] = rnd_range(&seed, -5, 15);
                    dir[a] = rnd_range(&seed, 0, 10) - org[a];
                }
            }
            rays[i] = make_ray(org, dir, 0, INFINITY);
        }
        memcpy(out, rays, N * sizeof *out);
        run_intersect(k, s, out, N);
        int clear = 0, hits = 0;
        for (int i = 0; i < N; i++) {
            int prim;
            Oracle o;
            if (!closest(&m, &rays[i].ray, &prim, &o))
                continue;
            clear++;
            const RTHit *h = &out[i].hit;
            if (prim < 0) {
                ck_assert_msg(h->geomID == RT_INVALID_ID, "%s %s mesh %d ray %d: hit prim %u, "
                              "oracle: none", cfg, kern_names[k], kind, i, h->primID);
                continue;
            }
            hits++;
            ck_assert_msg(h->geomID == 0 && h->primID == (unsigned)prim,
                          "%s %s mesh %d ray %d: prim %d, oracle %d", cfg, kern_names[k], kind,
                          i, h->geomID == RT_INVALID_ID ? -1 : (int)h->primID, prim);
            ck_assert_msg(fabs(out[i].ray.tfar - o.t) <= 1e-4 * fabs(o.t) &&
                          fabs(h->u - o.u) <= 1e-4 && fabs(h->v - o.v) <= 1e-4,
                          "%s %s mesh %d ray %d: t,u,v %g,%g,%g oracle %g,%g,%g", cfg,
                          kern_names[k], kind, i, out[i].ray.tfar, h->u, h->v, o.t, o.u, o.v);
        }
        ck_assert_int_ge(clear, N * 9 / 10);
        ck_assert_int_ge(hits, clear / 4);
        ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
        free(rays);
        free(out);
        rtReleaseScene(s);
        rtReleaseDevice(d);
        tm_free(&m);
    }
}
END_TEST

Suite *oracle_suite(void)
{
    Suite *s = suite_create("oracle");
    TCase *tc = tcase_create("double Moller-Trumbore");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, triangle_test);
    tcase_add_loop_test(tc, kernels, 0, TEST_ISAS * K_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
