/*
** check_instance.c: instances. A scene of three placed instances of one
** mesh (rotated and scaled, mirrored, sheared) plus a mesh of its own must
** give the hits of a flat scene of pre-transformed copies: t, u, v and Ng
** within rounding, primID exact, instID naming the instance. Every kernel.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float XFM[3][12] = {
    { 0.0f, -2.0f, 0.0f, 5.0f, 2.0f, 0.0f, 0.0f, -1.0f, 0.0f, 0.0f, 2.0f, 0.5f },
    { -1.0f, 0.0f, 0.0f, -4.0f, 0.0f, 1.0f, 0.0f, 2.0f, 0.0f, 0.0f, 1.0f, -3.0f },
    { 1.0f, 0.4f, 0.0f, 0.0f, 0.0f, 0.7f, 0.2f, 6.0f, 0.1f, 0.0f, 1.5f, 1.0f },
};

/* Rays from outside a box around everything, aimed at random points of
   random triangles of the flat meshes (well inside them, so rounding of
   the transforms cannot move a hit across an edge). */
static RTRayHit *aimed_rays(const TMesh *flat, int nf, size_t n, uint32_t seed)
{
    RTRayHit *r = malloc(n * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++) {
        const TMesh *m = &flat[rnd_u32(&seed) % nf];
        const uint32_t *t = &m->idx[3 * (rnd_u32(&seed) % m->nt)];
        float b1 = 0.1f + 0.4f * rnd_float(&seed), b2 = 0.1f + 0.4f * rnd_float(&seed);
        float o[3], d[3];
        for (int a = 0; a < 3; a++) {
            float p = m->v[3 * t[0] + a] + b1 * (m->v[3 * t[1] + a] - m->v[3 * t[0] + a]) +
                      b2 * (m->v[3 * t[2] + a] - m->v[3 * t[0] + a]);
            o[a] = 40 * (rnd_float(&seed) - 0.5f);
            d[a] = p - o[a];
        }
        r[i] = make_ray(o, d, 0, INFINITY);
    }
    return r;
}

START_TEST(instances_match_copies)
{
    const char *isas[TEST_ISAS];
    if (_i / K_COUNT >= test_isas(isas))
        return;
    const char *cfg = isas[_i / K_COUNT];
    Kern k = (Kern)(_i % K_COUNT);
    TMesh src = tm_sphere(10, 16, 1.5f), own = tm_grid(6, 4.0f, 9);
    TMesh flat[4];
    for (int i = 0; i < 3; i++)
        flat[i] = tm_copy_xfm(&src, XFM[i]);
    flat[3] = own;

    RTDevice d = rtNewDevice(cfg);
    RTScene proto = rtNewScene(d), world = rtNewScene(d);
    ck_assert_uint_eq(rtAttachTriangleMesh(proto, src.v, src.nv, 0, src.idx, src.nt), 0);
    rtCommitScene(proto);
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(rtAttachInstance(world, proto, XFM[i]), (unsigned)i);
    ck_assert_uint_eq(rtAttachTriangleMesh(world, own.v, own.nv, 0, own.idx, own.nt), 3);
    rtCommitScene(world);
    /* the prototype may go: the instances keep it alive */
    rtReleaseScene(proto);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);

    enum { N = 1500 };
    RTRayHit *in = aimed_rays(flat, 4, N, 77);
    RTRayHit *out = malloc(N * sizeof *out);
    memcpy(out, in, N * sizeof *out);
    run_intersect(k, world, out, N);
    int hits = 0;
    for (int i = 0; i < N; i++) {
        RTHit *h = &out[i].hit;
        if (h->geomID == RT_INVALID_ID)
            continue;
        hits++;
        if (h->instID != RT_INVALID_ID) {
            ck_assert_msg(h->instID < 3 && h->geomID == 0, "ray %d: inst %u geom %u", i,
                          h->instID, h->geomID);
            h->geomID = h->instID;  /* the flat scene's numbering */
        } else {
            ck_assert_uint_eq(h->geomID, 3);
        }
    }
    ck_assert_int_gt(hits, N * 9 / 10);
    char what[64];
    snprintf(what, sizeof what, "%s %s instances", cfg, kern_names[k]);
    expect_closest(flat, 4, in, out, N, 1e-4f, what);

    RTRay *occ = malloc(N * sizeof *occ);
    for (int i = 0; i < N; i++) {
        occ[i] = in[i].ray;
        occ[i].tfar = i % 2 ? 0.5f : INFINITY;   /* half of them stop short */
        in[i].ray.tfar = occ[i].tfar;
    }
    RTRay *occ_groups = malloc(N * sizeof *occ_groups);
    memcpy(occ_groups, occ, N * sizeof *occ);
    run_occluded(k, world, occ, N);
    expect_occluded(flat, 4, in, occ, N, what);
    if (k == K_STREAM) { /* the group kernel hands instance leaves to single rays */
        run_occluded_groups(world, occ_groups, N);
        snprintf(what, sizeof what, "%s groups instances", cfg);
        expect_occluded(flat, 4, in, occ_groups, N, what);
    }
    free(occ_groups);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
    free(in);
    free(out);
    free(occ);
    rtReleaseScene(world);
    rtReleaseDevice(d);
    for (int i = 0; i < 3; i++)
        tm_free(&flat[i]);
    tm_free(&src);
    tm_free(&own);
}
END_TEST

Suite *instance_suite(void)
{
    Suite *s = suite_create("instances");
    TCase *tc = tcase_create("against transformed copies");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, instances_match_copies, 0, TEST_ISAS * K_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
