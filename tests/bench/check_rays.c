/*
** check_rays.c: ray generation (tile order, primary framing, secondary
** rays) and the rays file.
*/
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/rtbench/rayfile.h"
#include "bench/rtbench/rays.h"
#include "tests/bench/check_rtbench.h"

START_TEST(tile_order_is_morton)
{
    uint32_t px[16 * 16];
    tile_order(16, px);
    /* Inside the first tile: (0,0) (1,0) (0,1) (1,1) (2,0) (3,0) (2,1) (3,1)
       ... then (0,2); the tiles follow in the same order. */
    static const uint32_t first[] = { 0, 1, 16, 17, 2, 3, 18, 19, 32 };
    for (int i = 0; i < 9; i++)
        ck_assert_uint_eq(px[i], first[i]);
    ck_assert_uint_eq(px[63], 7 * 16 + 7);
    ck_assert_uint_eq(px[64], 8);           /* tile (1,0) */
    ck_assert_uint_eq(px[128], 8 * 16);     /* tile (0,1) */
    ck_assert_uint_eq(px[192], 8 * 16 + 8); /* tile (1,1) */
}
END_TEST

START_TEST(tile_order_covers_odd_sizes)
{
    for (unsigned res = 1; res <= 37; res += 6) {
        uint32_t *px = malloc(res * res * sizeof *px);
        char *seen = calloc(res * res, 1);
        tile_order(res, px);
        for (unsigned i = 0; i < res * res; i++) {
            ck_assert_uint_lt(px[i], res * res);
            ck_assert_int_eq(seen[px[i]]++, 0);
        }
        /* Tiles are whole: the first min(64, ...) pixels lie in tile (0,0). */
        for (unsigned i = 0; i < res * res && i < 64; i++)
            ck_assert(px[i] % res < 8 && px[i] / res < 8);
        free(px);
        free(seen);
    }
}
END_TEST

/* The camera frames the box: the rays through the image corners pass
   outside it, the centre ones through it. */
static bool hits_box(const Ray *r, const float lo[3], const float hi[3])
{
    float t0 = 0, t1 = INFINITY;
    for (int k = 0; k < 3; k++) {
        float a = (lo[k] - r->org[k]) / r->dir[k], b = (hi[k] - r->org[k]) / r->dir[k];
        t0 = fmaxf(t0, fminf(a, b));
        t1 = fminf(t1, fmaxf(a, b));
    }
    return t0 <= t1;
}

START_TEST(primary_frames_box)
{
    const float lo[3] = { -1, 2, 0 }, hi[3] = { 3, 4, 0.5f };
    RaySet s;
    ck_assert(rays_primary(lo, hi, 16, &s));
    ck_assert_uint_eq(s.n, 256);
    ck_assert(!s.occlusion && s.coherent);
    int inside = 0;
    for (size_t i = 0; i < s.n; i++) {
        const Ray *r = &s.rays[i];
        float len = sqrtf(r->dir[0] * r->dir[0] + r->dir[1] * r->dir[1] + r->dir[2] * r->dir[2]);
        ck_assert_float_eq_tol(len, 1, 1e-5);
        ck_assert(r->tnear == 0 && isinf(r->tfar));
        inside += hits_box(r, lo, hi);
    }
    ck_assert_int_gt(inside, 64);
    ck_assert(!hits_box(&s.rays[0], lo, hi));   /* pixel (0,0) */
    rayset_free(&s);
}
END_TEST

START_TEST(random_in_box)
{
    const float lo[3] = { -1, 2, 0 }, hi[3] = { 3, 4, 0.5f };
    RaySet a, b;
    ck_assert(rays_random(lo, hi, 1000, &a) && rays_random(lo, hi, 1000, &b));
    ck_assert_mem_eq(a.rays, b.rays, 1000 * sizeof(Ray));     /* deterministic */
    for (size_t i = 0; i < a.n; i++)
        for (int k = 0; k < 3; k++)
            ck_assert(a.rays[i].org[k] >= lo[k] && a.rays[i].org[k] <= hi[k]);
    rayset_free(&a);
    rayset_free(&b);
}
END_TEST

/* Secondary rays from a hit on the plane z = 0 seen from above: origins
   lifted above the plane, diffuse directions upward, shadow rays ending
   at the light. */
START_TEST(secondary_rays)
{
    Mesh m = { 0 };
    ck_assert(mesh_add_vertex(&m, 0, 0, 0) && mesh_add_vertex(&m, 1, 0, 0) &&
              mesh_add_vertex(&m, 0, 1, 0) && mesh_add_tri(&m, 0, 1, 2));
    Ray in[2] = { { { 0.25f, 0.25f, 2 }, { 0, 0, -1 }, 0, INFINITY },
                  { { 5, 5, 2 }, { 0, 0, -1 }, 0, INFINITY } };
    RaySet primary = { .rays = in, .n = 2 }, d, s;
    uint32_t hit[2] = { 0, NO_HIT };
    float t[2] = { 2, INFINITY }, lo[3] = { 0, 0, 0 }, hi[3] = { 1, 1, 0 };
    ck_assert(rays_secondary(SET_DIFFUSE, &m, &primary, hit, t, lo, hi, &d));
    ck_assert(rays_secondary(SET_SHADOW, &m, &primary, hit, t, lo, hi, &s));
    ck_assert_uint_eq(d.n, 1);
    ck_assert_uint_eq(s.n, 1);
    ck_assert(s.occlusion && !d.occlusion);
    ck_assert(d.rays[0].org[2] > 0 && d.rays[0].org[2] < 1e-3f);
    ck_assert(d.rays[0].dir[2] > 0);
    const Ray *r = &s.rays[0];
    /* The light: centred over the box in x and z, above its top (+y) by
       half the diagonal. */
    float end[3];
    for (int k = 0; k < 3; k++)
        end[k] = r->org[k] + r->tfar * r->dir[k];
    ck_assert_float_eq_tol(end[0], 0.5f, 1e-5);
    ck_assert_float_eq_tol(end[1], 1 + 0.5f * sqrtf(2), 1e-5);
    ck_assert_float_eq_tol(end[2], 0, 1e-5);
    rayset_free(&d);
    rayset_free(&s);
    mesh_free(&m);
}
END_TEST

START_TEST(rays_file_round_trip)
{
    Ray rays[3] = {
        { { 1, -2, 3.5f }, { 0, -0.0f, 1 }, 0, INFINITY },
        { { 1e-40f, 3e38f, -1 }, { 0.6f, 0.8f, 0 }, 1e-3f, 42 },
        { { 0, 0, 0 }, { 1, 0, 0 }, 0, -INFINITY },
    };
    RaySet out = { .rays = rays, .n = 3 }, in = { 0 };
    char err[256];
    const char *path = tmp_path("rays.bin");
    ck_assert_msg(rays_write(path, &out, err, sizeof err), "%s", err);
    ck_assert_msg(rays_read(path, &in, err, sizeof err), "%s", err);
    ck_assert_uint_eq(in.n, 3);
    ck_assert_mem_eq(in.rays, rays, sizeof rays);
    rayset_free(&in);
    /* The layout: 1.0f little-endian first, tnear of ray 1 at byte 56. */
    unsigned char b[96];
    FILE *f = fopen(path, "rb");
    ck_assert_uint_eq(fread(b, 1, sizeof b + 1, f), 96);
    fclose(f);
    static const unsigned char one[4] = { 0, 0, 0x80, 0x3f };
    ck_assert_mem_eq(b, one, 4);
    float tnear;
    memcpy(&tnear, b + 56, 4);
    ck_assert(tnear == 1e-3f);
}
END_TEST

START_TEST(rays_file_errors)
{
    RaySet in = { 0 };
    char err[256];
    const char *path = write_tmp("odd.bin", "0123456789", 10, false);
    ck_assert(!rays_read(path, &in, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "multiple of 32"));
    ck_assert_ptr_null(in.rays);
    ck_assert(!rays_read(tmp_path("none.bin"), &in, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, ": error: "));
    ck_assert(rays_read(write_tmp("empty.bin", "", 0, false), &in, err, sizeof err));
    ck_assert_uint_eq(in.n, 0);
    rayset_free(&in);
}
END_TEST

TCase *rays_tcase(void)
{
    TCase *tc = tcase_create("rays");
    tcase_add_test(tc, tile_order_is_morton);
    tcase_add_test(tc, tile_order_covers_odd_sizes);
    tcase_add_test(tc, primary_frames_box);
    tcase_add_test(tc, random_in_box);
    tcase_add_test(tc, secondary_rays);
    tcase_add_test(tc, rays_file_round_trip);
    tcase_add_test(tc, rays_file_errors);
    return tc;
}
