/*
** bench_pathtracer.c: our path tracer against Embree's pathtracer
** tutorial on Embree's Cornell box (embree_cornell.h), in one run: the
** scene written as RIB with matte shaders, rendered at the same size,
** samples and path length by both, on each thread count.
**
**   bench_pathtracer [--res N] [--spp N] [--depth N] [--threads N[,N...]]
**                    [--frames N]
**
** Defaults: 512x512, 64 spp, path length 8, 1 and 2 threads, Embree's
** --benchmark over 2 frames after one to warm up. Prints, per thread
** count, paths/s of ours shading on the VM and in native code (rtrender
** --backend; the frame's wall time) and of Embree (its mean frame rate),
** native code's ratio to the VM and ours (native) to Embree; with native
** code, our seconds per stage and the split between
** traversal (rtcore's streams and shaders' rays) and shading; then
** whether the images agree: the mean difference of each channel from
** Embree's image against its standard error (embree_cornell_diff).
** Without embree-tools it says so and exits 77.
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/embree_cornell.h"
#include "render/render.h"

/* Our render of the RIB file's one frame, shading on the VM or in native
   code: its image, stats in *st. */
static Image *ours(const char *rib, const CornellSettings *cs, bool vm, RenderStats *st)
{
    RibDiag diag;
    rib_diag_init(&diag, stderr);
    RibScene *scene = render_load(rib, &diag);
    if (!scene || diag.nerrors) {
        fprintf(stderr, "bench_pathtracer: %s does not load\n", rib);
        exit(1);
    }
    RenderSettings rs;
    render_settings_init(&rs);
    rs.quiet = true, rs.spp = cs->spp, rs.threads = cs->threads, rs.vm = vm;
    Render *r = render_new(scene, &rs);
    char err[2048];
    Image *img = render_frame_image(r, &scene->frames[0], st, err, sizeof err);
    if (!img) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
    return img;
}

static void die(const char *err)
{
    fprintf(stderr, "%s\n", err);
    exit(1);
}

int main(int argc, char **argv)
{
    CornellSettings cs = { 512, 64, 8, 1 };
    int threads[8] = { 1, 2 }, nthreads = 2, frames = 2;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strcmp(argv[i], "--res"))
            cs.res = atoi(v);
        else if (v && !strcmp(argv[i], "--spp"))
            cs.spp = atoi(v);
        else if (v && !strcmp(argv[i], "--depth"))
            cs.depth = atoi(v);
        else if (v && !strcmp(argv[i], "--frames"))
            frames = atoi(v);
        else if (v && !strcmp(argv[i], "--threads")) {
            nthreads = 0;
            for (char *s = argv[i + 1]; *s && nthreads < 8; s += *s == ',')
                threads[nthreads++] = (int)strtol(s, &s, 10);
        } else {
            fprintf(stderr, "usage: bench_pathtracer [--res N] [--spp N] [--depth N] "
                            "[--threads N[,N...]] [--frames N]\n");
            return 2;
        }
        i++;
    }
    if (cs.res < 1 || cs.spp < 1 || cs.depth < 1 || frames < 1 || nthreads < 1) {
        fprintf(stderr, "bench_pathtracer: sizes, samples, depth and frames are above 0\n");
        return 2;
    }
    char err[2048], dir[] = "/tmp/bench_pathtracer.XXXXXX", rib[256], ppm[256];
    if (!embree_cornell_available(err, sizeof err)) {
        printf("bench_pathtracer: skipped: %s\n", err);
        return 77;
    }
    if (!mkdtemp(dir))
        die("bench_pathtracer: error: no temporary folder");
    snprintf(rib, sizeof rib, "%s/cornell_box.rib", dir);
    snprintf(ppm, sizeof ppm, "%s/embree.ppm", dir);
    if (embree_cornell_rib(EMBREE_CORNELL_ECS, &cs, rib, err, sizeof err) < 0)
        die(err);
    double paths = (double)cs.res * cs.res * cs.spp;
    printf("Embree's Cornell box, %dx%d, %d spp, path length %d: %.0f paths a frame\n\n", cs.res,
           cs.res, cs.spp, cs.depth, paths);
    printf("%3s %10s %14s %9s %12s %7s %9s %9s %9s\n", "thr", "vm Mpath/s", "native Mpath/s",
           "native/vm", "Embree", "ratio", "seconds", "traverse%", "shade%");
    RenderStats st[8], vm;
    Image *img = NULL;
    for (int t = 0; t < nthreads; t++) {
        cs.threads = threads[t];
        image_free(ours(rib, &cs, true, &vm));
        image_free(img);
        img = ours(rib, &cs, false, &st[t]);
        double fps;
        if (embree_cornell_run(EMBREE_CORNELL_ECS, &cs, NULL, frames, &fps, err, sizeof err) < 0)
            die(err);
        /* Traversal: our streams and the rays shaders trace (shadow rays
           of point lights), which the shade stage's time includes. */
        const RenderStats *s = &st[t];
        double busy = s->seconds * s->threads, mine = paths / s->seconds;
        printf("%3d %10.3f %14.3f %8.2fx %12.3f %7.2f %9.2f %9.1f %9.1f\n", cs.threads,
               paths / vm.seconds / 1e6, mine / 1e6, vm.seconds / s->seconds, paths * fps / 1e6,
               mine / (paths * fps), s->seconds,
               100 * (s->trace_seconds + s->shader_trace_seconds) / busy,
               100 * (s->shade_seconds - s->shader_trace_seconds) / busy);
    }
    printf("\nour stages (share of the threads' time; shade includes the rays shaders trace)"
           "\n%3s", "thr");
    for (int k = 0; k < RENDER_STAGES; k++)
        printf(" %9s", render_stage_name((RenderStage)k));
    printf("\n");
    for (int t = 0; t < nthreads; t++) {
        printf("%3d", threads[t]);
        for (int k = 0; k < RENDER_STAGES; k++)
            printf(" %8.1f%%", 100 * st[t].stage_seconds[k] / (st[t].seconds * st[t].threads));
        printf("\n");
    }
    /* The images: Embree's with the last thread count. */
    if (embree_cornell_run(EMBREE_CORNELL_ECS, &cs, ppm, 0, NULL, err, sizeof err) < 0)
        die(err);
    Image *ref = embree_cornell_read_ppm(ppm, err, sizeof err);
    if (!ref)
        die(err);
    double mean[3], se[3], ref_mean[3];
    embree_cornell_diff(img, ref, mean, se, ref_mean);
    printf("\nmean difference from Embree's image (ours - Embree, 8-bit as Embree writes it; "
           "Embree's mean in brackets)\n");
    bool agree = true;
    for (int c = 0; c < 3; c++) {
        printf("  %c %+.5f +- %.5f (%.1f standard errors) [%.4f]\n", "RGB"[c], mean[c], se[c],
               mean[c] / se[c], ref_mean[c]);
        agree &= mean[c] < 4 * se[c] && mean[c] > -4 * se[c];
    }
    printf("%s within the noise (4 standard errors)\n", agree ? "agree:" : "DISAGREE: not");
    image_free(img);
    image_free(ref);
    unlink(ppm);
    unlink(rib);
    rmdir(dir);
    return agree ? 0 : 1;
}
