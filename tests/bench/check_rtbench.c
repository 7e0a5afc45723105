/*
** check_rtbench.c: the rtbench test program: scratch files, the runner,
** and the tests of tracing itself: the checksum of every kernel of every
** tracer on a two-triangle mesh with rays whose hits are known, on one and
** several threads; plus the command line and the procedural mesh.
*/
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bench/rtbench/backend.h"
#include "bench/rtbench/options.h"
#include "bench/rtbench/procedural.h"
#include "bench/rtbench/report.h"
#include "bench/rtbench/trace.h"
#include "tests/bench/check_rtbench.h"

/* ---- scratch files ------------------------------------------------------------ */

static char scratch[64];

const char *tmp_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return path;
}

const char *write_tmp(const char *name, const void *data, size_t len, bool gz)
{
    const char *path = tmp_path(name);
    bool ok;
    if (gz) {
        gzFile f = gzopen(path, "wb");
        ok = f && (len == 0 || gzwrite(f, data, (unsigned)len) == (int)len);
        ok = f && gzclose(f) == Z_OK && ok;
    } else {
        FILE *f = fopen(path, "wb");
        ok = f && fwrite(data, 1, len, f) == len;
        ok = f && fclose(f) == 0 && ok;
    }
    ck_assert_msg(ok, "cannot write %s", path);
    return path;
}

/* The scratch directory holds only flat files. */
static void remove_scratch(void)
{
    DIR *d = opendir(scratch);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
            unlink(tmp_path(e->d_name));
    if (d)
        closedir(d);
    rmdir(scratch);
}

/* ---- the checksum on known hits ------------------------------------------------ */

/* The unit square in z = 0 as two triangles: prim 0 below the diagonal
   y = x, prim 1 above it. */
static void square(Mesh *m)
{
    ck_assert(mesh_add_vertex(m, 0, 0, 0) && mesh_add_vertex(m, 1, 0, 0) &&
              mesh_add_vertex(m, 1, 1, 0) && mesh_add_vertex(m, 0, 1, 0) &&
              mesh_add_tri(m, 0, 1, 2) && mesh_add_tri(m, 0, 2, 3));
}

/* Five rays and what they hit: prim 0 from above, prim 1 from above, a
   miss beside the square, prim 0 from below, and one stopping short. */
static const Ray PATTERN[5] = {
    { { 0.75f, 0.25f, 1 }, { 0, 0, -1 }, 0, INFINITY },
    { { 0.25f, 0.75f, 1 }, { 0, 0, -1 }, 0, INFINITY },
    { { 2, 2, 1 }, { 0, 0, -1 }, 0, INFINITY },
    { { 0.75f, 0.25f, -1 }, { 0, 0, 1 }, 0, INFINITY },
    { { 0.25f, 0.75f, 1 }, { 0, 0, -1 }, 0, 0.5f },
};
static const uint32_t PATTERN_HIT[5] = { 0, 1, NO_HIT, 0, NO_HIT };

/* 37 rays: not a whole number of packets, and uneven thread chunks. */
enum { NRAYS = 37 };

static void check_backend(const Backend *b)
{
    Mesh m = { 0 };
    square(&m);
    char err[256] = "";
    BuildInfo info;
    void *scene = b->build(&m, 1, NULL, &info, err, sizeof err);
    ck_assert_msg(scene, "%s", err);
    ck_assert(info.ms >= 0 && info.bytes > 0);
    Ray rays[NRAYS];
    for (int i = 0; i < NRAYS; i++)
        rays[i] = PATTERN[i % 5];
    /* 7 whole patterns (3 hits, primID+1 summing to 4) and rays 0, 1. */
    const uint64_t hits = 7 * 3 + 2, sum = 7 * 4 + 1 + 2;
    for (int occlusion = 0; occlusion < 2; occlusion++)
        for (Kernel k = 0; k < KERNEL_COUNT; k++)
            for (int threads = 1; threads <= 3; threads += 2) {
                RaySet s = { "test", occlusion, false, rays, NRAYS };
                uint32_t hit[NRAYS];
                float t[NRAYS];
                double secs;
                ck_assert(trace_set(b, scene, k, &s, threads, 2, threads > 1, hit, t,
                                    &secs, err, sizeof err));
                ck_assert(secs >= 0 && isfinite(secs));
                uint64_t got_sum, got_hits;
                checksum(hit, NRAYS, &got_sum, &got_hits);
                ck_assert_msg(got_hits == hits && got_sum == (occlusion ? hits : sum),
                              "%s %s occlusion=%d threads=%d: %llu hits, sum %llu",
                              b->name, kernel_names[k], occlusion, threads,
                              (unsigned long long)got_hits, (unsigned long long)got_sum);
                for (int i = 0; i < NRAYS; i++) {
                    uint32_t want = PATTERN_HIT[i % 5];
                    ck_assert_uint_eq(hit[i], occlusion && want != NO_HIT ? 0 : want);
                    if (!occlusion && want != NO_HIT)
                        ck_assert_float_eq_tol(t[i], 1, 1e-6);
                }
            }
    b->release(scene);
    mesh_free(&m);
}

START_TEST(rtcore_checksums)
{
    check_backend(&rtcore_backend);
}
END_TEST

#ifdef HAVE_EMBREE
START_TEST(embree_checksums)
{
    check_backend(&embree_backend);
}
END_TEST
#endif

/* ---- command line and procedural mesh -------------------------------------------- */

START_TEST(options_parse)
{
    char *argv[] = { "rtbench", "m.ply", "--threads", "1,2", "--set", "primary,shadow",
                     "--kernel", "packet8", "--res", "64", "--embree", "--clock", "cpu", NULL };
    Options o;
    char err[256];
    ck_assert_msg(parse_options(13, argv, &o, err, sizeof err), "%s", err);
    ck_assert_str_eq(o.mesh, "m.ply");
    ck_assert_int_eq(o.nthreads, 2);
    ck_assert_int_eq(o.threads[1], 2);
    ck_assert_uint_eq(o.sets, 1u << SET_PRIMARY | 1u << SET_SHADOW);
    ck_assert_uint_eq(o.kernels, 1u << K_PACKET8);
    ck_assert_uint_eq(o.res, 64);
    ck_assert(o.embree);
    ck_assert(o.cpu_clock);
    static const char *bad[][2] = {
        { "--threads", "0" }, { "--threads", "1,,2" }, { "--set", "primary,nope" },
        { "--kernel", "packet3" }, { "--res", "0" }, { "--bogus", "1" }, { "--rays", NULL },
        { "--clock", "gpu" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *args[] = { "rtbench", (char *)bad[i][0], (char *)bad[i][1], NULL };
        ck_assert_msg(!parse_options(bad[i][1] ? 3 : 2, args, &o, err, sizeof err),
                      "%s %s accepted", bad[i][0], bad[i][1]);
        ck_assert_ptr_nonnull(strstr(err, "rtbench: error: "));
    }
}
END_TEST

/* The summary keeps, per set and thread count, each tracer's fastest
   kernel, whichever kernels those are, and leaves Embree's out where it
   did not run. */
START_TEST(best_kernel_summary)
{
    const TraceRow rows[] = {
        { "primary", K_SINGLE, 1, 100, 5.0, 10.0, 0, 0, 0 },
        { "primary", K_PACKET16, 1, 100, 8.0, 12.0, 0, 0, 0 },
        { "primary", K_STREAM, 1, 100, 7.0, 15.0, 0, 0, 0 },
        { "shadow", K_SINGLE, 1, 100, 3.0, -1, 0, 0, 0 },
        { "shadow", K_STREAM, 1, 100, 4.0, -1, 0, 0, 0 },
        { "primary", K_SINGLE, 2, 100, 9.0, 20.0, 0, 0, 0 },
    };
    BestRow best[6];
    ck_assert_int_eq(best_kernels(rows, 6, best), 3);
    ck_assert_str_eq(best[0].set, "primary");
    ck_assert_int_eq(best[0].threads, 1);
    ck_assert_int_eq(best[0].ours_kernel, K_PACKET16);
    ck_assert_int_eq(best[0].theirs_kernel, K_STREAM);
    ck_assert(best[0].ours == 8.0 && best[0].theirs == 15.0);
    ck_assert_str_eq(best[1].set, "shadow");
    ck_assert_int_eq(best[1].ours_kernel, K_STREAM);
    ck_assert(best[1].ours == 4.0);
    ck_assert_int_eq(best[1].theirs_kernel, -1);
    ck_assert_int_eq(best[2].threads, 2);
    ck_assert_int_eq(best[2].ours_kernel, K_SINGLE);
    ck_assert(best[2].ours == 9.0 && best[2].theirs == 20.0);
}
END_TEST

START_TEST(procedural_mesh)
{
    Mesh m = { 0 };
    ck_assert(procedural_spheres(&m, 2));
    ck_assert_uint_eq(m.ntris, 2 + 4 * 3968);
    for (size_t i = 0; i < m.ntris * 3; i++)
        ck_assert_uint_lt(m.tris[i], m.nverts);
    for (size_t i = 0; i < m.ntris; i++) {
        float n[3];
        mesh_normal(&m, i, n);
        ck_assert_msg(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 0.99f, "triangle %zu degenerate", i);
    }
    mesh_free(&m);
}
END_TEST

int main(void)
{
    snprintf(scratch, sizeof scratch, "%s/check_rtbench.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(scratch)) {
        perror(scratch);
        return 1;
    }
    Suite *s = suite_create("rtbench");
    TCase *tc = tcase_create("trace");
    tcase_add_test(tc, rtcore_checksums);
#ifdef HAVE_EMBREE
    tcase_add_test(tc, embree_checksums);
#endif
    tcase_add_test(tc, options_parse);
    tcase_add_test(tc, procedural_mesh);
    tcase_add_test(tc, best_kernel_summary);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, ply_tcase());
    suite_add_tcase(s, rays_tcase());
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_scratch();
    return failed ? 1 : 0;
}
