/*
** check_kernels.c: every kernel of every ISA against brute force over all
** triangles, on adversarial rays (through vertices and edges, axis-
** parallel in vertex planes, from the surface, short segments) at meshes
** with degenerate triangles, at huge and tiny scales; closest hit and
** occlusion; and rays with NaN/Inf that must neither crash nor hit.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NRAYS = 900 };

/* The loop index of a test names an ISA and a kernel. */
static int pick(int i, const char **cfg, Kern *k)
{
    const char *isas[TEST_ISAS];
    int n = test_isas(isas);
    *k = (Kern)(i % K_COUNT);
    if (i / K_COUNT >= n)
        return 0;
    *cfg = isas[i / K_COUNT];
    return 1;
}

/* Mesh kinds of the adversarial runs. */
static TMesh mesh_kind(int kind)
{
    switch (kind) {
    case 0: return tm_grid(20, 1.0f, 7);
    case 1: return tm_soup(1200, 10.0f, 11);
    case 2: return tm_soup(600, 1e18f, 13);     /* huge coordinates */
    case 3: return tm_soup(600, 1e-18f, 17);    /* tiny coordinates */
    default: return tm_sphere(12, 24, 3.0f);
    }
}

/* Replaces every 37th ray by one that is invalid in some way. */
static void poison(RTRayHit *r, size_t n)
{
    for (size_t i = 0, k = 0; i < n; i += 37, k++) {
        RTRay *q = &r[i].ray;
        switch (k % 5) {
        case 0: q->org_x = NAN; break;
        case 1: q->dir_y = INFINITY; break;
        case 2: q->tfar = NAN; break;
        case 3: q->dir_x = q->dir_y = q->dir_z = 0; break;
        default: q->tnear = q->tfar + 1; break;
        }
    }
}

static void adversarial(int i, bool occl)
{
    const char *cfg;
    Kern k;
    if (!pick(i, &cfg, &k))
        return;
    for (int kind = 0; kind < 5; kind++) {
        TMesh m = mesh_kind(kind);
        RTDevice d;
        RTScene s = scene_of(cfg, &m, 1, &d);
        size_t n;
        RTRayHit *in = adversarial_rays(&m, NRAYS, 1234 + kind, &n);
        poison(in, n);
        RTRayHit *out = malloc(n * sizeof *out);
        memcpy(out, in, n * sizeof *out);
        char what[64];
        snprintf(what, sizeof what, "%s %s mesh %d%s", cfg, kern_names[k], kind,
                 occl ? " occluded" : "");
        if (occl) {
            RTRay *r = malloc(n * sizeof *r);
            for (size_t j = 0; j < n; j++)
                r[j] = in[j].ray;
            run_occluded(k, s, r, n);
            expect_occluded(&m, 1, in, r, n, what);
            free(r);
        } else {
            run_intersect(k, s, out, n);
            expect_closest(&m, 1, in, out, n, 0, what);
        }
        ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
        free(in);
        free(out);
        rtReleaseScene(s);
        rtReleaseDevice(d);
        tm_free(&m);
    }
}

START_TEST(closest_adversarial)
{
    adversarial(_i, false);
}
END_TEST

START_TEST(occluded_adversarial)
{
    adversarial(_i, true);
}
END_TEST

/* Rays no kernel may hit with, aimed at a mesh that fills their way. */
START_TEST(nonfinite_rays)
{
    const char *cfg;
    Kern k;
    if (!pick(_i, &cfg, &k))
        return;
    TMesh m = tm_grid(8, 1.0f, 3);
    RTDevice d;
    RTScene s = scene_of(cfg, &m, 1, &d);
    const float N = NAN, I = INFINITY;
    const float bad[][8] = {
        { N, .5f, 1, 0, 0, 0, -1, I }, { .5f, .5f, 1, 0, N, 0, -1, I },
        { .5f, .5f, I, 0, 0, 0, -1, I }, { .5f, .5f, 1, 0, 0, 0, -I, I },
        { .5f, .5f, 1, 0, 0, I, -1, I }, { .5f, .5f, 1, N, 0, 0, -1, I },
        { .5f, .5f, 1, 0, 0, 0, -1, N }, { .5f, .5f, 1, 0, 0, 0, 0, I },
        { .5f, .5f, 1, 2, 0, 0, -1, 1 }, { .5f, .5f, 1, I, 0, 0, -1, I },
        { -I, .5f, 1, 0, 1, 0, -1, I }, { .5f, .5f, 1, -I, 0, 0, -1, -I },
    };
    enum { NB = sizeof bad / sizeof bad[0] };
    RTRayHit in[NB], out[NB];
    RTRay occ[NB];
    for (int j = 0; j < NB; j++) {
        const float *b = bad[j];
        in[j] = make_ray(b, b + 4, b[3], b[7]);
        out[j] = in[j];
        occ[j] = in[j].ray;
    }
    run_intersect(k, s, out, NB);
    run_occluded(k, s, occ, NB);
    for (int j = 0; j < NB; j++) {
        ck_assert_msg(out[j].hit.geomID == RT_INVALID_ID, "ray %d hit", j);
        ck_assert_msg(memcmp(&out[j].ray, &in[j].ray, sizeof in[j].ray) == 0,
                      "ray %d changed", j);
        ck_assert_msg(memcmp(&occ[j], &in[j].ray, sizeof occ[j]) == 0, "ray %d occluded", j);
    }
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
    rtReleaseScene(s);
    rtReleaseDevice(d);
    tm_free(&m);
}
END_TEST

/* A triangle with a known answer: t, u, v and Ng exactly. */
START_TEST(known_hit)
{
    const char *cfg;
    Kern k;
    if (!pick(_i, &cfg, &k))
        return;
    float v[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    uint32_t idx[3] = { 0, 1, 2 };
    TMesh m = { v, 3, idx, 1 };
    RTDevice d;
    RTScene s = scene_of(cfg, &m, 1, &d);
    const float o[3] = { 0.25f, 0.5f, 2 }, dir[3] = { 0, 0, -1 };
    RTRayHit rh = make_ray(o, dir, 0, INFINITY);
    run_intersect(k, s, &rh, 1);
    ck_assert_uint_eq(rh.hit.geomID, 0);
    ck_assert_uint_eq(rh.hit.primID, 0);
    ck_assert_uint_eq(rh.hit.instID, RT_INVALID_ID);
    ck_assert_float_eq(rh.ray.tfar, 2.0f);
    ck_assert_float_eq_tol(rh.hit.u, 0.25f, 1e-7f);
    ck_assert_float_eq_tol(rh.hit.v, 0.5f, 1e-7f);
    ck_assert_float_eq(rh.hit.Ng_x, 0);
    ck_assert_float_eq(rh.hit.Ng_y, 0);
    ck_assert_float_eq(rh.hit.Ng_z, 1);
    /* from behind, and a segment that stops short */
    const float o2[3] = { 0.25f, 0.5f, -2 }, d2[3] = { 0, 0, 2 };
    rh = make_ray(o2, d2, 0, INFINITY);
    run_intersect(k, s, &rh, 1);
    ck_assert_float_eq(rh.ray.tfar, 1.0f);
    rh = make_ray(o2, d2, 0, 0.99f);
    run_intersect(k, s, &rh, 1);
    ck_assert_uint_eq(rh.hit.geomID, RT_INVALID_ID);
    rtReleaseScene(s);
    rtReleaseDevice(d);
}
END_TEST

Suite *kernels_suite(void)
{
    Suite *s = suite_create("kernels");
    TCase *tc = tcase_create("vs brute force");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, known_hit, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, closest_adversarial, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, occluded_adversarial, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, nonfinite_rays, 0, TEST_ISAS * K_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
