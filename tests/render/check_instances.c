/*
** check_instances.c: instance specialisation in rtrender (shadesys_vm.c):
** each shader instance runs native code compiled with its constants
** folded in. Checked end to end: a spotlight without a shadow map then
** runs natively (its shadow() branch is dead) and renders as the VM
** does; a parameter that primitive variables set is not folded; equal
** instances share one compile; past the bound, instances share the
** generic code and still show their own values.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/image/image.h"
#include "runcmd.h"
#include "imgdiff.h"
#include "../common/suite.h"
#include "readimage.h"

/* check_scenes's bound on native code against the VM. */
#define NATIVE_MIN_PSNR 85.0
#define NATIVE_MAX_DIFF 5e-4

#define HALF_TOL(v) (1e-3f * (v))

static char dir[] = "/tmp/check_instances.XXXXXX";

static Run rtrender(const char *args)
{
    return run_program(dir, TOP_BUILDDIR "/tools/rtrender", args);
}

/* Renders scene.rib on backend to out, checking it succeeded; the run
   (--verbose --stats) is returned for its messages. */
static Run render(const char *backend, const char *out)
{
    char args[256];
    snprintf(args, sizeof args, "--backend %s --verbose --stats --threads 2 scene.rib -o %s",
             backend, out);
    Run r = rtrender(args);
    ck_assert_msg(r.status == 0, "rtrender %s failed:\n%s", args, r.err);
    return r;
}

/* Red, green and blue of pixel x, y. */
static void pixel(const Image *img, int x, int y, float rgb[3])
{
    for (int c = 0; c < 3; c++)
        rgb[c] = img->pixels[((size_t)y * (size_t)img->width + (size_t)x) * (size_t)img->channels
                           + (size_t)c];
}

/* An orthographic 40 x 20 view of x -2..2, y -1..1 (a pixel is 0.1
   wide, and its box filter sees only it), lit head-on by a distant
   light of intensity 1: a surface facing the camera gets diffuse() = 1.
   Its images are half-float EXR: values within HALF_TOL (2^-11
   relative, and a margin) of the hand-computed ones. */
#define VIEW                                                                                      \
    "Format 40 20 1\nPixelSamples 1 1\nPixelFilter \"box\" 1 1\n"                              \
    "Projection \"orthographic\"\nScreenWindow -2 2 -1 1\nWorldBegin\n"                         \
    "LightSource \"distantlight\" 1 \"from\" [0 0 0] \"to\" [0 0 1] \"intensity\" 1\n"         \
    "Color [1 1 1]\n"

/* The square of x0..x1, y -0.8..0.8 at depth 5, facing the camera. */
#define SQUARE(x0, x1)                                                                            \
    "Polygon \"P\" [" x0 " -0.8 5  " x0 " 0.8 5  " x1 " 0.8 5  " x1 " -0.8 5]"

START_TEST(spotlight_without_shadow_runs_native)
{
    write_in(dir, "scene.rib",
             "Format 48 32 1\nPixelSamples 2 2\nProjection \"perspective\" \"fov\" 60\n"
             "WorldBegin\n"
             "LightSource \"spotlight\" 1 \"from\" [0 2 2] \"to\" [0 0 6] \"intensity\" 8\n"
             "  \"shadowname\" [\"\"] \"coneangle\" 0.6\n"
             "Surface \"plastic\" \"roughness\" 0.2\n"
             "Polygon \"P\" [-4 -1 3  -4 -1 9  4 -1 9  4 -1 3]\n"
             "Polygon \"P\" [-4 -1 9  -4 3 9  4 3 9  4 -1 9]\n"
             "WorldEnd\n");
    Run nat = render("native", "native.exr");
    ck_assert_msg(strstr(nat.err, "spotlight.sl: note: shader \"spotlight\" for the instance at "
                                  "scene.rib:5 (") != NULL
                      && strstr(strstr(nat.err, "\"spotlight\""), "runs in native code") != NULL,
                  "the spotlight does not run natively:\n%s", nat.err);
    Run vm = render("vm", "vm.exr");
    Image *a = read_image_in(dir, "native.exr"), *b = read_image_in(dir, "vm.exr");
    ImageDiff d = image_diff(a, b);
    ck_assert_msg(d.psnr >= NATIVE_MIN_PSNR && d.worst <= NATIVE_MAX_DIFF,
                  "native against the VM: PSNR %.2f dB (at least %.0f), max difference %g at "
                  "pixel %d,%d (at most %g)",
                  d.psnr, NATIVE_MIN_PSNR, d.worst, d.wx, d.wy, NATIVE_MAX_DIFF);
    /* Something is lit: the test would pass on black images too. */
    float brightest = 0;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++) {
            float rgb[3];
            pixel(a, x, y, rgb);
            brightest = fmaxf(brightest, rgb[0]);
        }
    ck_assert_msg(brightest > 0.05f, "the spot lights nothing (brightest red %g)", brightest);
    image_free(a);
    image_free(b);
    run_free(&nat);
    run_free(&vm);
}
END_TEST

/* matte under the head-on light: Ci = Cs * Kd * diffuse() = Kd. The
   instance gives Kd 0.5; the outer squares' primitive variables give 0.2
   and 0.7, which specialised code must still read. */
START_TEST(primvars_are_not_folded)
{
    write_in(dir, "scene.rib",
             VIEW "Surface \"matte\" \"Kd\" 0.5\n"
             SQUARE("-1.9", "-0.7") " \"constant float Kd\" [0.2]\n"
             SQUARE("-0.6", "0.6") "\n"
             SQUARE("0.7", "1.9") " \"constant float Kd\" [0.7]\nWorldEnd\n");
    static const char *const backends[] = { "native", "vm" };
    for (int k = 0; k < 2; k++) {
        Run r = render(backends[k], "out.exr");
        Image *img = read_image_in(dir, "out.exr");
        static const int x[3] = { 7, 20, 33 };
        static const float kd[3] = { 0.2f, 0.5f, 0.7f };
        for (int i = 0; i < 3; i++) {
            float rgb[3];
            pixel(img, x[i], 10, rgb);
            for (int c = 0; c < 3; c++)
                ck_assert_msg(fabsf(rgb[c] - kd[i]) <= HALF_TOL(kd[i]), "%s: square %d: %g, want Kd = %g",
                              backends[k], i, rgb[c], kd[i]);
        }
        image_free(img);
        run_free(&r);
    }
}
END_TEST

/* Three requests, two alike: the light and two plastic variants are
   compiled, the second alike request shares the first's code. */
START_TEST(identical_instances_share_code)
{
    write_in(dir, "scene.rib",
             VIEW "AttributeBegin Surface \"plastic\" \"Kd\" 0.3\n"
             SQUARE("-1.9", "-0.7") "\nAttributeEnd\n"
             "AttributeBegin Surface \"plastic\" \"Kd\" 0.3\n"
             SQUARE("-0.6", "0.6") "\nAttributeEnd\n"
             "AttributeBegin Surface \"plastic\" \"Kd\" 0.6\n"
             SQUARE("0.7", "1.9") "\nAttributeEnd\nWorldEnd\n");
    Run r = render("native", "out.exr");
    ck_assert_msg(strstr(r.err, "; 2 shaders built, 3 specialised\n") != NULL, "%s", r.err);
    int notes = 0;
    for (const char *p = r.err; (p = strstr(p, "shader \"plastic\" for the instance at")); p++)
        notes++;
    ck_assert_msg(notes == 2, "%d plastic compiles:\n%s", notes, r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "for the instance at scene.rib:9 ("));
    ck_assert_ptr_nonnull(strstr(r.err, "for the instance at scene.rib:15 ("));
    run_free(&r);
}
END_TEST

/* 20 instances of a shader that shows its parameter: 16 are specialised,
   the rest share the generic code, and every square shows its own
   value. */
START_TEST(variants_are_bounded)
{
    write_in(dir, "tint.sl", "surface tint(float k = 1) { Ci = k; }\n");
    char *rib = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&rib, &len);
    fputs(VIEW, f);
    for (int i = 0; i < 20; i++)
        fprintf(f, "AttributeBegin Surface \"tint\" \"k\" %g Polygon \"P\" [%g -0.8 5  %g 0.8 5  "
                "%g 0.8 5  %g -0.8 5] AttributeEnd\n", 0.05 * (i + 1), -2 + 0.2 * i,
                -2 + 0.2 * i, -1.8 + 0.2 * i, -1.8 + 0.2 * i);
    fputs("WorldEnd\n", f);
    fclose(f);
    write_in(dir, "scene.rib", rib);
    free(rib);
    Run r = render("native", "out.exr");
    ck_assert_msg(strstr(r.err, "note: shader \"tint\" has more than 16 distinct instances; the "
                                "others run its generic code\n") != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, "; 2 shaders built, 17 specialised\n") != NULL, "%s", r.err);
    Image *img = read_image_in(dir, "out.exr");
    for (int i = 0; i < 20; i++) {
        float rgb[3];
        pixel(img, 2 * i + 1, 10, rgb);
        ck_assert_msg(fabsf(rgb[0] - 0.05f * (float)(i + 1)) <= HALF_TOL(0.05f * (float)(i + 1)), "square %d: %g, want %g", i,
                      rgb[0], 0.05 * (i + 1));
    }
    image_free(img);
    run_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("instances");
    TCase *tc = tcase_create("specialisation");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, spotlight_without_shadow_runs_native);
    tcase_add_test(tc, primvars_are_not_folded);
    tcase_add_test(tc, identical_instances_share_code);
    tcase_add_test(tc, variants_are_bounded);
    suite_add_tcase(s, tc);
    return run_suite_in(s, dir);
}
