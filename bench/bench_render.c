/*
** bench_render.c: rtrender's throughput on its scenes at fixed settings.
** For each scene it renders with 1 thread and with 2, on the VM and in
** native code (rtrender --backend), best of REPS, and prints camera
** samples per second, shading points per second, where the time went
** (trace, shade, the rest: camera rays, grouping, filtering), the
** speed-up from 1 to 2 threads, and native code's speed-up over the VM
** (the ratio of the VM's best time to native code's, in the same run).
** Those frames reuse the shaders built for the first, so a second line
** per scene times a render end to end on 2 threads (its shaders built,
** JIT-compiled, then its first frame), best of REPS, interleaved: on the
** VM, in native code compiled afresh ("cold"), and in native code read
** from a code cache that a first, untimed render filled ("warm"), with
** the VM's time over each native one: wall seconds, and the process's
** CPU seconds, which a machine busy with other work disturbs less.
**
**   bench_render SCENE.rib... [--res WxH] [--spp N] [--reps N]
**                [--backend vm|native|both]
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/image/image.h"
#include "render/render.h"

/* The best (fastest) of reps renders of the first frame (its shaders
   built once, before the first). */
static int best_of(const RibScene *scene, const RenderSettings *rs, int reps, RenderStats *best)
{
    Render *render = render_new(scene, rs);
    int rc = 0;
    for (int r = 0; r < reps && rc == 0; r++) {
        RenderStats st;
        char err[2048];
        Image *img = render_frame_image(render, &scene->frames[0], &st, err, sizeof err);
        if (!img) {
            fprintf(stderr, "%s\n", err);
            rc = -1;
        }
        image_free(img);
        if (r == 0 || st.seconds < best->seconds)
            *best = st;
    }
    render_free(render);
    return rc;
}

static double now_s(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A render of scene's first frame from nothing (a new Render, its
   shaders built, the frame): its wall and CPU seconds in t; false if it
   fails. */
static bool end_to_end(const RibScene *scene, const RenderSettings *rs, double t[2])
{
    double w0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    Render *render = render_new(scene, rs);
    char err[2048];
    Image *img = render_frame_image(render, &scene->frames[0], NULL, err, sizeof err);
    if (!img)
        fprintf(stderr, "%s\n", err);
    image_free(img);
    render_free(render);
    t[0] = now_s(CLOCK_MONOTONIC) - w0;
    t[1] = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    return img != NULL;
}

/* The end-to-end line for scene (named name), its code cache in folder
   cache. */
static int end_to_end_line(const char *name, const RibScene *scene, RenderSettings rs, int reps,
                           const char *cache)
{
    rs.threads = 2;
    RenderSettings vm = rs, cold = rs, warm = rs;
    vm.vm = true;
    cold.vm = warm.vm = false;
    cold.code_cache = NULL;
    warm.code_cache = cache;
    double t[2], best[3][2] = { { 1e30, 1e30 }, { 1e30, 1e30 }, { 1e30, 1e30 } };
    if (!end_to_end(scene, &warm, t)) /* fills the cache */
        return -1;
    const RenderSettings *runs[3] = { &vm, &cold, &warm };
    for (int r = 0; r < reps; r++)
        for (int k = 0; k < 3; k++) {
            if (!end_to_end(scene, runs[k], t))
                return -1;
            for (int c = 0; c < 2; c++)
                best[k][c] = t[c] < best[k][c] ? t[c] : best[k][c];
        }
    static const char what[2][5] = { "wall", "CPU" };
    for (int c = 0; c < 2; c++)
        printf("%-14s end to end, 2 threads, %-4s s: vm %.3f, native cold %.3f, native warm "
               "%.3f; vm/cold %.2fx, vm/warm %.2fx, cold/warm %.2fx\n", name, what[c], best[0][c],
               best[1][c], best[2][c], best[0][c] / best[1][c], best[0][c] / best[2][c],
               best[1][c] / best[2][c]);
    return 0;
}

int main(int argc, char **argv)
{
    char cache[] = "/tmp/bench_render.XXXXXX";
    if (!mkdtemp(cache)) {
        perror("bench_render: mkdtemp");
        return 1;
    }
    RenderSettings rs;
    render_settings_init(&rs);
    rs.quiet = true;
    rs.xres = 320, rs.yres = 240, rs.spp = 4;
    int reps = 3;
    bool backends[2] = { true, true }; /* the VM, native code */
    printf("%-14s %-6s %3s %9s %10s %11s %7s %7s %7s %8s %9s\n", "scene", "shade", "thr",
           "seconds", "Msamples/s", "Mshade pt/s", "trace%", "shade%", "rest%", "speedup",
           "native/vm");
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            i++;
            backends[0] = strcmp(argv[i], "native") != 0;
            backends[1] = strcmp(argv[i], "vm") != 0;
            continue;
        }
        if (!strcmp(argv[i], "--res") && i + 1 < argc) {
            sscanf(argv[++i], "%dx%d", &rs.xres, &rs.yres);
            continue;
        }
        if (!strcmp(argv[i], "--spp") && i + 1 < argc) {
            rs.spp = atoi(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            continue;
        }
        RibDiag diag;
        rib_diag_init(&diag, stderr);
        RibScene *scene = render_load(argv[i], &diag);
        if (!scene || diag.nerrors || scene->nframes == 0) {
            fprintf(stderr, "%s: cannot render\n", argv[i]);
            return 1;
        }
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        RenderStats st[2][2]; /* [backend][threads - 1] */
        for (int t = 0; t < 2; t++)
            for (int b = 0; b < 2; b++) {
                if (!backends[b])
                    continue;
                rs.threads = t + 1;
                rs.vm = b == 0;
                const RenderStats *s = &st[b][t];
                if (best_of(scene, &rs, reps, &st[b][t]) < 0)
                    return 1;
                /* Traversal and shading times are summed over threads;
                   the rest is what the wall time leaves of them per
                   thread. */
                double per = s->seconds * s->threads;
                double tr = s->trace_seconds / per, sh = s->shade_seconds / per;
                printf("%-14s %-6s %3d %9.3f %10.3f %11.3f %6.1f%% %6.1f%% %6.1f%% ", name,
                       b ? "native" : "vm", s->threads, s->seconds,
                       (double)s->camera_rays / s->seconds / 1e6,
                       (double)s->shading_points / s->seconds / 1e6, 100 * tr, 100 * sh,
                       100 * (1 - tr - sh));
                if (t == 1)
                    printf("%7.2fx ", st[b][0].seconds / s->seconds);
                else
                    printf("%8s ", "-");
                if (b == 1 && backends[0])
                    printf("%8.2fx\n", st[0][t].seconds / s->seconds);
                else
                    printf("%9s\n", "-");
            }
        if (backends[0] && backends[1] && end_to_end_line(name, scene, rs, reps, cache) < 0)
            return 1;
        rib_scene_free(scene);
        rib_diag_free(&diag);
    }
    char rm[64];
    snprintf(rm, sizeof rm, "rm -rf %s", cache);
    return system(rm) == 0 ? 0 : 1;
}
