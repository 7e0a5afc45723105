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

/* Occlusion streams through the group kernel, which rtOccludedNp keeps
   for scenes larger than these (check_rays). */
#define K_GROUPS ((Kern)K_COUNT)

/* Traces rays in[0..n-1] at mesh m (of kind `kind`, rays of the named
   set) with kernel k of device cfg, checks the closest hits or the
   occlusion against brute force, and frees the rays and the mesh. */
static void check_rays(const char *cfg, Kern k, TMesh *m, int kind, RTRayHit *in, size_t n,
                       const char *set, bool occl)
{
    char what[64];
    snprintf(what, sizeof what, "%s %s mesh %d %s%s", cfg,
             k == K_GROUPS ? "groups" : kern_names[k], kind, set,
             occl ? " occluded" : "");
    RTDevice d;
    RTScene s = scene_of(cfg, m, 1, &d);
    if (occl) {
        RTRay *r = malloc(n * sizeof *r);
        for (size_t j = 0; j < n; j++)
            r[j] = in[j].ray;
        if (k == K_GROUPS)
            run_occluded_groups(s, r, n);
        else
            run_occluded(k, s, r, n);
        expect_occluded(m, 1, in, r, n, what);
        free(r);
    } else {
        RTRayHit *out = malloc(n * sizeof *out);
        memcpy(out, in, n * sizeof *out);
        run_intersect(k, s, out, n);
        expect_closest(m, 1, in, out, n, 0, what);
        free(out);
    }
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
    rtReleaseScene(s);
    rtReleaseDevice(d);
    free(in);
    tm_free(m);
}

/* closest_SET and occluded_SET: ray set SET (a function of a device
   config, a kernel and whether to test occlusion) for the loop index's
   ISA and kernel. */
#define SET_TESTS(set)                                                        \
    START_TEST(closest_##set)                                                 \
    {                                                                         \
        const char *cfg;                                                      \
        Kern k;                                                               \
        if (pick(_i, &cfg, &k))                                               \
            set(cfg, k, false);                                               \
    }                                                                         \
    END_TEST                                                                  \
    START_TEST(occluded_##set)                                                \
    {                                                                         \
        const char *cfg;                                                      \
        Kern k;                                                               \
        if (pick(_i, &cfg, &k))                                               \
            set(cfg, k, true);                                                \
    }                                                                         \
    END_TEST

static void adversarial(const char *cfg, Kern k, bool occl)
{
    for (int kind = 0; kind < 5; kind++) {
        TMesh m = mesh_kind(kind);
        size_t n;
        RTRayHit *in = adversarial_rays(&m, NRAYS, 1234 + kind, &n);
        poison(in, n);
        check_rays(cfg, k, &m, kind, in, n, "adversarial", occl);
    }
}

SET_TESTS(adversarial)

/* Coherent rays, the packet kernels' interval test at its tightest: in
   runs of 16, camera rays from one eye to 16 points inside one triangle,
   and shadow rays from 16 such points to one light. Inside, so that a
   hit has no tie in another leaf to stand in for it when a box is
   culled too early. Closest hits and occlusion must match brute force. */
static void coherent(const char *cfg, Kern k, bool occl)
{
    for (int kind = 0; kind < 5; kind += 2) {
        TMesh m = mesh_kind(kind);
        float lo[3], hi[3];
        for (int a = 0; a < 3; a++) {
            lo[a] = hi[a] = m.v[a];
            for (size_t j = 0; j < m.nv; j++)
                lo[a] = fminf(lo[a], m.v[3 * j + a]), hi[a] = fmaxf(hi[a], m.v[3 * j + a]);
        }
        float size = fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
        const float eye[3] = { lo[0] - 0.3f * size, lo[1] - 0.2f * size, hi[2] + 2 * size };
        const float light[3] = { hi[0] + size, hi[1] + 0.5f * size, hi[2] + 3 * size };
        enum { N = 64 * 16 };
        RTRayHit *in = malloc(N * sizeof *in);
        uint32_t seed = 99u + (uint32_t)kind;
        const uint32_t *t = m.idx;
        for (int j = 0; j < N; j++) {
            if (j % 16 == 0)          /* a packet's rays share a triangle */
                t = &m.idx[3 * (rnd_u32(&seed) % m.nt)];
            float u = rnd_float(&seed), v = rnd_float(&seed) * (1 - u), p[3];
            for (int a = 0; a < 3; a++)
                p[a] = m.v[3 * t[0] + a] + u * (m.v[3 * t[1] + a] - m.v[3 * t[0] + a]) +
                       v * (m.v[3 * t[2] + a] - m.v[3 * t[0] + a]);
            float org[3], dir[3];
            if (j < N / 2) {          /* camera rays */
                for (int a = 0; a < 3; a++)
                    org[a] = eye[a], dir[a] = p[a] - eye[a];
                in[j] = make_ray(org, dir, 0, INFINITY);
            } else {                  /* shadow rays towards the light */
                for (int a = 0; a < 3; a++)
                    org[a] = p[a], dir[a] = light[a] - p[a];
                in[j] = make_ray(org, dir, 1e-3f, 1);
            }
        }
        check_rays(cfg, k, &m, kind, in, N, "coherent", occl);
    }
}

SET_TESTS(coherent)

/* Streams whose rays share a direction octant but for one or two, and
   that one where the stream code looks at the octants four rays at a
   time (ray 1021 of the first chunk of 1024) and one ray at a time (the
   last of a three-ray tail): rays from two corners of a sphere's box at
   points inside it, which all hit. Also a stream of 7 rays of one
   octant. Closest hits and occlusion must match brute force. */
static void octants(const char *cfg, Kern k, bool occl)
{
    const size_t sizes[2] = { 1027, 7 };
    for (int run = 0; run < 2; run++) {
        TMesh m = tm_sphere(12, 24, 3.0f);
        size_t n = sizes[run];
        RTRayHit *in = malloc(n * sizeof *in);
        uint32_t seed = 7u + (uint32_t)run;
        for (size_t j = 0; j < n; j++) {
            /* all direction components positive from the low corner,
               negative from the high one */
            float corner = n > 7 && (j == 1021 || j == n - 1) ? 1.0f : -1.0f;
            const float org[3] = { 10 * corner, 9 * corner, 8 * corner };
            float dir[3];
            for (int a = 0; a < 3; a++)
                dir[a] = 3 * rnd_float(&seed) - 1.5f - org[a];
            in[j] = make_ray(org, dir, 0, INFINITY);
        }
        check_rays(cfg, k, &m, 4, in, n, "octants", occl);
    }
}

SET_TESTS(octants)

/* The group kernel of each ISA on the adversarial, coherent and octant
   rays above: occlusion must match brute force. */
START_TEST(occluded_groups)
{
    const char *isas[TEST_ISAS];
    if (_i >= test_isas(isas))
        return;
    adversarial(isas[_i], K_GROUPS, true);
    coherent(isas[_i], K_GROUPS, true);
    octants(isas[_i], K_GROUPS, true);
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

/* One leaf of three blocks, a partly filled one last: nine unit
   triangles stacked 1/1024 apart in z, in shuffled order, so the leaf
   test must take the nearest of several blocks within [tnear, tfar]. The closest one a segment can
   reach is known exactly: triangle i (z = 1 + i/1024) is met at
   t = 1 - i/1024 from z = 2 going down, with u, v the hit's x, y. */
START_TEST(stacked_leaf)
{
    const char *cfg;
    Kern k;
    if (!pick(_i, &cfg, &k))
        return;
    enum { N = 9 };
    static const int level[N] = { 4, 7, 0, 8, 2, 6, 1, 5, 3 };  /* prim -> i */
    float v[9 * N];
    uint32_t idx[3 * N];
    for (int p = 0; p < N; p++) {
        float z = 1 + level[p] / 1024.0f;
        const float tri[9] = { 0, 0, z, 1, 0, z, 0, 1, z };
        memcpy(v + 9 * p, tri, sizeof tri);
        for (int c = 0; c < 3; c++)
            idx[3 * p + c] = (uint32_t)(3 * p + c);
    }
    TMesh m = { v, 3 * N, idx, N };
    RTDevice d;
    RTScene s = scene_of(cfg, &m, 1, &d);
    RTSceneStats st;
    rtGetSceneStats(s, &st);
    ck_assert_uint_eq(st.leaves, 3);      /* one leaf: the builder kept them together */
    ck_assert_uint_eq(st.inner_nodes, 0);
    const float o[3] = { 0.25f, 0.5f, 2 }, down[3] = { 0, 0, -1 };
    /* the top one; past the top six (tnear); and a segment short of all */
    const float tnear[3] = { 0, 1 - 5.5f / 1024, 0 }, tfar[3] = { INFINITY, INFINITY, 0.99f };
    const int want_level[3] = { 8, 5, -1 };
    for (int r = 0; r < 3; r++) {
        RTRayHit rh = make_ray(o, down, tnear[r], tfar[r]);
        run_intersect(k, s, &rh, 1);
        if (want_level[r] < 0) {
            ck_assert_uint_eq(rh.hit.geomID, RT_INVALID_ID);
            continue;
        }
        ck_assert_uint_eq(rh.hit.geomID, 0);
        ck_assert_int_eq(level[rh.hit.primID], want_level[r]);
        ck_assert_float_eq_tol(rh.ray.tfar, 1 - want_level[r] / 1024.0f, 1e-6f);
        ck_assert_float_eq_tol(rh.hit.u, 0.25f, 1e-6f);
        ck_assert_float_eq_tol(rh.hit.v, 0.5f, 1e-6f);
        ck_assert_float_eq(rh.hit.Ng_x, 0);
        ck_assert_float_eq(rh.hit.Ng_y, 0);
        ck_assert_float_eq(rh.hit.Ng_z, 1);
        ck_assert_uint_eq(rh.hit.instID, RT_INVALID_ID);
    }
    /* from below the bottom one comes first */
    const float o2[3] = { 0.25f, 0.5f, 0 }, up[3] = { 0, 0, 1 };
    RTRayHit rh = make_ray(o2, up, 0, INFINITY);
    run_intersect(k, s, &rh, 1);
    ck_assert_int_eq(level[rh.hit.primID], 0);
    ck_assert_float_eq_tol(rh.ray.tfar, 1.0f, 1e-6f);
    /* occlusion: blocked within reach of the top one, free short of it */
    RTRay q[2] = { make_ray(o, down, 0, 1.0f).ray, make_ray(o, down, 0, 0.99f).ray };
    run_occluded(k, s, q, 2);
    ck_assert(q[0].tfar == -INFINITY);
    ck_assert_float_eq(q[1].tfar, 0.99f);
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
    tcase_add_loop_test(tc, stacked_leaf, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, closest_adversarial, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, occluded_adversarial, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, nonfinite_rays, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, closest_coherent, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, occluded_coherent, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, closest_octants, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, occluded_octants, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, occluded_groups, 0, TEST_ISAS);
    suite_add_tcase(s, tc);
    return s;
}
