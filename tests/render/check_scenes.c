/*
** check_scenes.c: regression images of the example scenes. Every
** scenes/NAME.rib is rendered at a quarter of its Format each way with 4
** samples per pixel and compared with tests/render/ref/NAME.exr (RGBA,
** 32-bit float). A scene without a reference fails.
**
** The metric (imgdiff.h): over the R, G, B and A values of all pixels, PSNR =
** 10 log10(1 / MSE) (peak 1, highlights above 1 count as they are) must
** be at least 45 dB, and no value may differ from the reference by more
** than 0.05. Builds with and without sanitizers, at -O1, -O2 and -O3, and the
** SSE4.2 and AVX2 traversal kernels all render these scenes bit for bit
** alike; the margin is for other compilers and math libraries. It still
** catches real changes: the teapot's spotlight 2.3% dimmer gives 44.96
** dB, the teapot turned by 1 degree 42.6 dB and a max difference of
** 0.14. Pixels are never compared by hash.
**
** Each scene renders on both backends (rtrender --backend): native code
** and the VM must each match the reference, and one another within
** NATIVE_MIN_PSNR and NATIVE_MAX_DIFF. Native code runs the same float
** operations as the VM in the same order (the same runtime functions for
** builtins; LLVM fuses no multiply-add without a contract flag), so the
** images differ only where a shader's float rounding differs, by a few
** ulp at most in a value: far below what the reference metric allows.
** The bound is 40 dB tighter than the reference's (a hundredth of its
** RMS difference) and a hundredth of its largest difference. Today the
** two backends' images are bit for bit alike.
**
** Making the references, after a deliberate change to what the scenes
** look like (look at the new images before committing them):
**
**     tests/render/check_scenes --update-refs
**
** renders every scene and writes tests/render/ref/NAME.exr in the source
** tree. On a failure the test writes what it rendered to
** tests/render/NAME.out.exr in the build tree.
*/
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/image/image.h"
#include "render/render.h"
#include "../common/suite.h"
#include "imgdiff.h"

#define SPP 4
#define SCALE 4   /* the Format is divided by this each way */
#define MAX_SCENES 64
#define NATIVE_MIN_PSNR 85.0
#define NATIVE_MAX_DIFF 5e-4

static char scene_names[MAX_SCENES][64];
static int nscenes;

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The names of SCENE_DIR's *.rib files, sorted. */
static void find_scenes(void)
{
    DIR *d = opendir(SCENE_DIR);
    if (!d) {
        fprintf(stderr, "check_scenes: cannot open %s\n", SCENE_DIR);
        exit(EXIT_FAILURE);
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 4 && n - 4 < sizeof scene_names[0] && strcmp(e->d_name + n - 4, ".rib") == 0
            && nscenes < MAX_SCENES) {
            memcpy(scene_names[nscenes], e->d_name, n - 4);
            scene_names[nscenes++][n - 4] = '\0';
        }
    }
    closedir(d);
    if (nscenes == 0) {
        fprintf(stderr, "check_scenes: no scenes in %s\n", SCENE_DIR);
        exit(EXIT_FAILURE);
    }
    qsort(scene_names, (size_t)nscenes, sizeof scene_names[0], by_name);
}

/* Renders scene NAME as rtrender would (render_load: shaders and
   textures from the scene's folder, then the standard library) at the
   reduced size, on the VM or in native code, and keeps its RGBA
   channels. NULL with err on failure. */
static Image *render_scene(const char *name, bool vm, char *err, int errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.rib", SCENE_DIR, name);
    RibDiag diag;
    rib_diag_init(&diag, stderr);
    RibScene *scene = render_load(path, &diag);
    Image *rgba = NULL;
    if (!scene || diag.nerrors || scene->nframes == 0) {
        snprintf(err, (size_t)errlen, "%.1000s: does not load", path);
        goto done;
    }
    const RibOptions *o = &scene->frames[0].options;
    RenderSettings rs;
    render_settings_init(&rs);
    rs.spp = SPP;
    rs.xres = o->xres / SCALE > 0 ? o->xres / SCALE : 1;
    rs.yres = o->yres / SCALE > 0 ? o->yres / SCALE : 1;
    rs.quiet = true;
    rs.vm = vm;
    Render *r = render_new(scene, &rs);
    Image *img = render_frame_image(r, &scene->frames[0], NULL, err, errlen);
    render_free(r);
    if (!img)
        goto done;
    rgba = image_new(img->width, img->height, 4);
    if (rgba)
        for (int y = 0; y < img->height; y++)
            for (int x = 0; x < img->width; x++)
                memcpy(image_pixel(rgba, x, y), image_pixel(img, x, y), 4 * sizeof(float));
    else
        snprintf(err, (size_t)errlen, "%s: out of memory", name);
    image_free(img);
done:
    rib_scene_free(scene);
    rib_diag_free(&diag);
    return rgba;
}

static void ref_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s.exr", REF_DIR, name);
}

static int write_float_exr(const Image *img, const char *path)
{
    ImageWriteOptions wo = {.format = IMAGE_EXR, .storage = IMAGE_FLOAT};
    char err[1024];
    if (image_write(img, path, &wo, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

/* Checks img, scene name's image from backend `backend`, against ref. */
static void check_reference(const char *name, const char *backend, const Image *img,
                            const Image *ref)
{
    char path[4096];
    ImageDiff d = image_diff(img, ref);
    printf("%s (%s): %dx%d, PSNR %.2f dB, max difference %.4f\n", name, backend, img->width,
           img->height, d.psnr, d.worst);
    fflush(stdout); /* a failing check ends this (forked) process */
    bool ok = image_diff_ok(&d);
    if (!ok) {
        snprintf(path, sizeof path, "%s/tests/render/%s.%s.out.exr", TOP_BUILDDIR, name, backend);
        write_float_exr(img, path);
    }
    ck_assert_msg(ok, "%s (%s): PSNR %.2f dB (at least %.0f), max difference %g at pixel %d,%d "
                      "channel %d: %g, reference %g (at most %g); rendered image in %s",
                  name, backend, d.psnr, IMGDIFF_MIN_PSNR, d.worst, d.wx, d.wy, d.wc,
                  (double)image_pixel(img, d.wx, d.wy)[d.wc],
                  (double)image_pixel(ref, d.wx, d.wy)[d.wc], IMGDIFF_MAX_DIFF, path);
}

START_TEST(scene_matches_reference)
{
    const char *name = scene_names[_i];
    char err[2048], path[4096];
    Image *img = render_scene(name, true, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    Image *native = render_scene(name, false, err, sizeof err);
    ck_assert_msg(native != NULL, "%s", err);
    ref_path(path, sizeof path, name);
    Image *ref = image_read(path, IMAGE_EXR, err, sizeof err);
    ck_assert_msg(ref != NULL, "%s (no reference for scene %s: make one with "
                               "tests/render/check_scenes --update-refs)", err, name);
    ck_assert_msg(ref->width == img->width && ref->height == img->height && ref->channels >= 4,
                  "%s: %dx%d with %d channels, rendered %dx%d RGBA", path, ref->width,
                  ref->height, ref->channels, img->width, img->height);
    check_reference(name, "vm", img, ref);
    check_reference(name, "native", native, ref);
    ImageDiff d = image_diff(native, img);
    printf("%s: native against the VM: PSNR %.2f dB, max difference %.2g\n", name, d.psnr,
           d.worst);
    fflush(stdout);
    ck_assert_msg(d.psnr >= NATIVE_MIN_PSNR && d.worst <= NATIVE_MAX_DIFF,
                  "%s: native against the VM: PSNR %.2f dB (at least %.0f), max difference %g "
                  "at pixel %d,%d channel %d (at most %g)",
                  name, d.psnr, NATIVE_MIN_PSNR, d.worst, d.wx, d.wy, d.wc, NATIVE_MAX_DIFF);
    image_free(native);
    image_free(ref);
    image_free(img);
}
END_TEST

/* --update-refs: render every scene and write its reference. */
static int update_refs(void)
{
    int rc = EXIT_SUCCESS;
    for (int i = 0; i < nscenes; i++) {
        char err[2048], path[4096];
        Image *img = render_scene(scene_names[i], true, err, sizeof err);
        ref_path(path, sizeof path, scene_names[i]);
        if (!img || write_float_exr(img, path) < 0) {
            if (!img)
                fprintf(stderr, "%s\n", err);
            rc = EXIT_FAILURE;
        } else {
            printf("wrote %s (%dx%d)\n", path, img->width, img->height);
        }
        image_free(img);
    }
    return rc;
}

int main(int argc, char **argv)
{
    find_scenes();
    if (argc == 2 && strcmp(argv[1], "--update-refs") == 0)
        return update_refs();
    if (argc > 1) {
        fprintf(stderr, "usage: check_scenes [--update-refs]\n");
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("scenes");
    TCase *tc = tcase_create("reference images");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, scene_matches_reference, 0, nscenes);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
