/*
** check_build.c: what commits build. Statistics and bounds; empty, one-
** triangle and all-degenerate scenes; many coincident triangles and
** exponentially spaced ones (the builder's fallbacks); a mesh big enough
** for parallel subtrees, built on 1 and 2 threads with identical hits;
** recommitting after attaching more.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *first_isa(int i)
{
    const char *isas[TEST_ISAS];
    return i < test_isas(isas) ? isas[i] : NULL;
}

START_TEST(stats_and_bounds)
{
    const char *cfg = first_isa(_i);
    if (!cfg)
        return;
    TMesh m = tm_soup(3000, 5.0f, 21);
    RTDevice d;
    RTScene s = scene_of(cfg, &m, 1, &d);
    RTSceneStats st;
    rtGetSceneStats(s, &st);
    ck_assert_int_eq(st.width, strstr(cfg, "sse4.2") ? 4 : 8);
    ck_assert_str_eq(rtGetDeviceISA(d), cfg + strlen("isa="));
    /* 3 in 16 of the soup are degenerate and dropped */
    ck_assert_uint_eq(st.triangles, 3000 - 3 * (3000 / 16) - (3000 % 16 > 3) - (3000 % 16 > 7) -
                                        (3000 % 16 > 11));
    ck_assert_uint_gt(st.inner_nodes, 0);
    /* blocks of 4 triangles (176 bytes) at every node width */
    ck_assert_uint_ge(st.leaves * 4, st.triangles);
    ck_assert_uint_eq(st.bytes, st.inner_nodes * 32 * (size_t)st.width + st.leaves * 176);
    ck_assert(st.sah_cost > 1 && st.sah_cost < 1000);
    ck_assert(st.build_ms >= 0);
    float lo[3], hi[3], mlo[3] = { INFINITY, INFINITY, INFINITY }, mhi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (size_t t = 0; t < m.nt; t++) {
        const float *v[3] = { &m.v[3 * m.idx[3 * t]], &m.v[3 * m.idx[3 * t + 1]], &m.v[3 * m.idx[3 * t + 2]] };
        double e1[3], e2[3];
        for (int a = 0; a < 3; a++)
            e1[a] = (double)v[1][a] - v[0][a], e2[a] = (double)v[2][a] - v[0][a];
        if (e1[1] * e2[2] - e1[2] * e2[1] == 0 && e1[2] * e2[0] - e1[0] * e2[2] == 0 &&
            e1[0] * e2[1] - e1[1] * e2[0] == 0)
            continue;
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                mlo[a] = fminf(mlo[a], v[k][a]), mhi[a] = fmaxf(mhi[a], v[k][a]);
    }
    rtGetSceneBounds(s, lo, hi);
    for (int a = 0; a < 3; a++) {
        ck_assert_float_eq(lo[a], mlo[a]);
        ck_assert_float_eq(hi[a], mhi[a]);
    }
    rtReleaseScene(s);
    rtReleaseDevice(d);
    tm_free(&m);
}
END_TEST

/* Traces rays at s with every kernel against brute force: adversarial
   ones, or (in != NULL) those given. */
static void all_kernels(RTScene s, const TMesh *m, int nm, size_t nrays, RTRayHit *given,
                        const char *what)
{
    size_t n = nrays;
    RTRayHit *in = given ? given : adversarial_rays(&m[0], nrays, 99, &n);
    RTRayHit *out = malloc(n * sizeof *out);
    for (int k = 0; k < K_COUNT; k++) {
        memcpy(out, in, n * sizeof *out);
        run_intersect((Kern)k, s, out, n);
        char w[80];
        snprintf(w, sizeof w, "%s %s", what, kern_names[k]);
        expect_closest(m, nm, in, out, n, 0, w);
    }
    free(in);
    free(out);
}

START_TEST(small_and_empty_scenes)
{
    const char *cfg = first_isa(_i);
    if (!cfg)
        return;
    RTDevice d = rtNewDevice(cfg);
    RTScene s = rtNewScene(d);
    rtCommitScene(s);
    float lo[3], hi[3];
    rtGetSceneBounds(s, lo, hi);
    ck_assert(lo[0] > hi[0]);
    const float o[3] = { 0, 0, 0 }, dir[3] = { 1, 0, 0 };
    RTRayHit rh = make_ray(o, dir, 0, INFINITY);
    rtIntersect1(s, &rh);
    ck_assert_uint_eq(rh.hit.geomID, RT_INVALID_ID);
    /* a mesh of only degenerate triangles: nothing to build either */
    float v[9] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
    uint32_t idx[6] = { 0, 1, 2, 1, 1, 1 };
    TMesh deg = { v, 3, idx, 2 };
    ck_assert_uint_eq(rtAttachTriangleMesh(s, v, 3, 0, idx, 2), 0);
    rtCommitScene(s);
    rh = make_ray(o, dir, 0, INFINITY);
    rtIntersect1(s, &rh);
    ck_assert_uint_eq(rh.hit.geomID, RT_INVALID_ID);
    RTSceneStats st;
    rtGetSceneStats(s, &st);
    ck_assert_uint_eq(st.triangles, 0);
    /* one good triangle more: a tree that is a single leaf */
    float v2[9] = { 1, -1, -1, 1, 1, -1, 1, 0, 1 };
    uint32_t idx2[3] = { 0, 1, 2 };
    TMesh two[2] = { deg, { v2, 3, idx2, 1 } };
    ck_assert_uint_eq(rtAttachTriangleMesh(s, v2, 3, 0, idx2, 1), 1);
    rtCommitScene(s);
    all_kernels(s, two, 2, 200, NULL, "one triangle");
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
    rtReleaseScene(s);
    rtReleaseDevice(d);
}
END_TEST

START_TEST(builder_fallbacks)
{
    const char *cfg = first_isa(_i);
    if (!cfg)
        return;
    /* 700 copies of one triangle: no split separates their centroids */
    enum { C = 700 };
    TMesh same = { malloc(9 * sizeof(float)), 3, malloc(3 * C * sizeof(uint32_t)), C };
    const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0.5f };
    memcpy(same.v, tri, sizeof tri);
    for (int i = 0; i < 3 * C; i++)
        same.idx[i] = (uint32_t)(i % 3);
    RTDevice d;
    RTScene s = scene_of(cfg, &same, 1, &d);
    all_kernels(s, &same, 1, 120, NULL, "coincident");
    rtReleaseScene(s);
    rtReleaseDevice(d);
    tm_free(&same);
    /* triangles at x = 2^-i: SAH peels one off per level, deep trees */
    enum { E = 120 };
    TMesh exp_ = { malloc(9 * E * sizeof(float)), 3 * E, malloc(3 * E * sizeof(uint32_t)), E };
    for (int i = 0; i < E; i++) {
        float x = ldexpf(1.0f, -i);
        const float t[9] = { x, 0, 0, x, 1, 0, x, 0, 1 };
        memcpy(&exp_.v[9 * i], t, sizeof t);
        for (int k = 0; k < 3; k++)
            exp_.idx[3 * i + k] = (uint32_t)(3 * i + k);
    }
    s = scene_of(cfg, &exp_, 1, &d);
    /* rays across the stack from both sides: the triangles lie closer
       together than single precision resolves from a nearby origin */
    RTRayHit *across = malloc(300 * sizeof *across);
    uint32_t seed = 42;
    for (int i = 0; i < 300; i++) {
        float o[3] = { i % 2 ? 2.0f : -1.0f, rnd_float(&seed), rnd_float(&seed) };
        float dir[3] = { i % 2 ? -1.0f : 1.0f, 0.3f * (rnd_float(&seed) - 0.5f),
                         0.3f * (rnd_float(&seed) - 0.5f) };
        across[i] = make_ray(o, dir, 0, INFINITY);
    }
    all_kernels(s, &exp_, 1, 300, across, "exponential");
    rtReleaseScene(s);
    rtReleaseDevice(d);
    tm_free(&exp_);
}
END_TEST

START_TEST(threads_agree)
{
    const char *cfg = first_isa(_i);
    if (!cfg)
        return;
    char c1[64], c2[64];
    snprintf(c1, sizeof c1, "%s,threads=1", cfg);
    snprintf(c2, sizeof c2, "threads=2,%s", cfg);
    TMesh m = tm_grid(120, 10.0f, 31);   /* 28800 triangles: parallel subtrees */
    RTDevice d1, d2;
    RTScene s1 = scene_of(c1, &m, 1, &d1), s2 = scene_of(c2, &m, 1, &d2);
    size_t n;
    RTRayHit *in = adversarial_rays(&m, 400, 5, &n);
    RTRayHit *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    memcpy(a, in, n * sizeof *a);
    memcpy(b, in, n * sizeof *b);
    run_intersect(K_SINGLE, s1, a, n);
    run_intersect(K_STREAM, s2, b, n);
    expect_closest(&m, 1, in, a, n, 0, "threads=1");
    expect_closest(&m, 1, in, b, n, 0, "threads=2");
    RTSceneStats st1, st2;
    rtGetSceneStats(s1, &st1);
    rtGetSceneStats(s2, &st2);
    ck_assert_uint_eq(st1.triangles, st2.triangles);
    ck_assert_uint_eq(st1.leaves, st2.leaves);
    free(in);
    free(a);
    free(b);
    rtReleaseScene(s1);
    rtReleaseScene(s2);
    rtReleaseDevice(d1);
    rtReleaseDevice(d2);
    tm_free(&m);
}
END_TEST

Suite *build_suite(void)
{
    Suite *s = suite_create("build");
    TCase *tc = tcase_create("commit");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, stats_and_bounds, 0, TEST_ISAS);
    tcase_add_loop_test(tc, small_and_empty_scenes, 0, TEST_ISAS);
    tcase_add_loop_test(tc, builder_fallbacks, 0, TEST_ISAS);
    tcase_add_loop_test(tc, threads_agree, 0, TEST_ISAS);
    suite_add_tcase(s, tc);
    return s;
}
