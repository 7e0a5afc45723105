/*
** check_watertight.c: no ray slips between triangles that share an edge.
** Rays from inside a closed sphere, aimed exactly at its vertices and at
** points of its edges, must all hit; so must rays from above aimed at the
** inner vertices and edges of a bumpy grid. Every kernel, every ISA.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a target is strictly inside the grid [0,1]^2: rays at the
   grid's outline may graze past it, legitimately. */
static bool inner(const float p[3], bool grid)
{
    return !grid || (p[0] > 1e-6f && p[0] < 1 - 1e-6f && p[1] > 1e-6f && p[1] < 1 - 1e-6f);
}

/* Rays from org to every vertex and to three points of every edge. */
static RTRayHit *edge_rays(const TMesh *m, const float org[3], bool grid, size_t *count)
{
    size_t n = 0, cap = m->nv + 9 * m->nt;
    RTRayHit *r = malloc(cap * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < m->nv; i++) {
        float d[3];
        for (int a = 0; a < 3; a++)
            d[a] = m->v[3 * i + a] - org[a];
        if (inner(&m->v[3 * i], grid))
            r[n++] = make_ray(org, d, 0, INFINITY);
    }
    static const float at[3] = { 0.5f, 1.0f / 3, 0.9f };
    for (size_t t = 0; t < m->nt; t++)
        for (int e = 0; e < 3; e++)
            for (int s = 0; s < 3; s++) {
                const float *p = &m->v[3 * m->idx[3 * t + e]];
                const float *q = &m->v[3 * m->idx[3 * t + (e + 1) % 3]];
                float x[3], d[3];
                for (int a = 0; a < 3; a++) {
                    x[a] = p[a] + at[s] * (q[a] - p[a]);
                    d[a] = x[a] - org[a];
                }
                if (inner(x, grid))
                    r[n++] = make_ray(org, d, 0, INFINITY);
            }
    *count = n;
    return r;
}

static void all_hit(const char *cfg, Kern k, const TMesh *m, const float org[3],
                    bool grid, const char *what)
{
    RTDevice d;
    RTScene s = scene_of(cfg, m, 1, &d);
    size_t n;
    RTRayHit *r = edge_rays(m, org, grid, &n);
    RTRay *occ = malloc(n * sizeof *occ);
    for (size_t i = 0; i < n; i++)
        occ[i] = r[i].ray;
    run_intersect(k, s, r, n);
    run_occluded(k, s, occ, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(r[i].hit.geomID == 0 && r[i].hit.primID < m->nt,
                      "%s %s %s: ray %zu of %zu slipped through", cfg, kern_names[k], what, i, n);
        ck_assert_msg(r[i].ray.tfar > 0 && r[i].ray.tfar < 1.01f,
                      "%s %s %s: ray %zu hit at t=%g", cfg, kern_names[k], what, i, r[i].ray.tfar);
        ck_assert_msg(occ[i].tfar == -INFINITY, "%s %s %s: ray %zu not occluded", cfg,
                      kern_names[k], what, i);
    }
    free(r);
    free(occ);
    rtReleaseScene(s);
    rtReleaseDevice(d);
}

START_TEST(closed_sphere)
{
    const char *isas[TEST_ISAS];
    int n = test_isas(isas);
    if (_i / K_COUNT >= n)
        return;
    Kern k = (Kern)(_i % K_COUNT);
    TMesh m = tm_sphere(17, 31, 1.0f);
    const float origins[3][3] = { { 0, 0, 0 }, { 0.3f, -0.2f, 0.1f }, { 0, 0, 0.999f } };
    for (int o = 0; o < 3; o++)
        all_hit(isas[_i / K_COUNT], k, &m, origins[o], false, "sphere");
    tm_free(&m);
}
END_TEST

START_TEST(grid_from_above)
{
    const char *isas[TEST_ISAS];
    int n = test_isas(isas);
    if (_i / K_COUNT >= n)
        return;
    Kern k = (Kern)(_i % K_COUNT);
    TMesh m = tm_grid(16, 1.0f, 5);
    const float org[3] = { 0.5f, 0.5f, 2.0f };
    all_hit(isas[_i / K_COUNT], k, &m, org, true, "grid");
    tm_free(&m);
}
END_TEST

Suite *watertight_suite(void)
{
    Suite *s = suite_create("watertight");
    TCase *tc = tcase_create("shared edges and vertices");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, closed_sphere, 0, TEST_ISAS * K_COUNT);
    tcase_add_loop_test(tc, grid_from_above, 0, TEST_ISAS * K_COUNT);
    suite_add_tcase(s, tc);
    return s;
}
