/*
** check_rtrender.c: rtrender end to end: its command line, the files it
** writes (read back through the image layer), Exposure and Quantize by
** RISpec's formulas, and a clear error with no output file for bad
** input.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/image/image.h"
#include "runcmd.h"
#include "../common/suite.h"

static char dir[] = "/tmp/check_rtrender.XXXXXX";

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static bool exists(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

static Run rtrender(const char *args)
{
    return run_program(dir, TOP_BUILDDIR "/tools/rtrender", args);
}

static Image *read_back(const char *name)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Image *img = image_read(path, IMAGE_FORMAT_AUTO, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    return img;
}

/* A constant white square filling an orthographic frame. */
#define SQUARE(color)                                                                             \
    "Projection \"orthographic\"\nTranslate 0 0 1\nWorldBegin\nSurface \"constant\"\n"           \
    "Color [" color "]\nPolygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n"

START_TEST(usage_errors)
{
    static const struct {
        const char *args, *want;
    } cases[] = {
        { "", "rtrender: error: no scene given (see rtrender --help)\n" },
        { "--bogus x.rib", "rtrender: error: unknown option '--bogus' (see rtrender --help)\n" },
        { "--spp 0 x.rib", "rtrender: error: --spp needs a positive count, not '0'\n" },
        { "--threads 5000 x.rib",
          "rtrender: error: --threads needs a count from 1 to 1024, not '5000'\n" },
        { "--res 10 x.rib", "rtrender: error: --res needs WIDTHxHEIGHT, not '10'\n" },
        { "--crop 0.5,0.2,0,1 x.rib",
          "rtrender: error: --crop needs XMIN,XMAX,YMIN,YMAX within [0, 1], not '0.5,0.2,0,1'\n" },
        { "--integrator bidir x.rib",
          "rtrender: error: --integrator needs 'classic' or 'path', not 'bidir'\n" },
        { "--max-depth -1 x.rib",
          "rtrender: error: --max-depth needs a path length from 1 to 1024, not '-1'\n" },
        { "--max-depth 5000 x.rib",
          "rtrender: error: --max-depth needs a path length from 1 to 1024, not '5000'\n" },
        { "a.rib b.rib", "rtrender: error: one scene at a time: 'b.rib' is a second input\n" },
        { "-o", "rtrender: error: -o needs a value\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Run r = rtrender(cases[i].args);
        ck_assert_int_eq(r.status, 2);
        ck_assert_str_eq(r.err, cases[i].want);
        run_free(&r);
    }
}
END_TEST

START_TEST(bad_scenes_write_nothing)
{
    static const struct {
        const char *rib, *want;
    } cases[] = {
        { "Format 4 4 1\nWorldBegin\nSurface \"nosuch\"\nSphere 1 -1 1 360\nWorldEnd\n",
          "bad.rib:3:1: error: shader \"nosuch\" not found (no nosuch.o or nosuch.sl on the "
          "shader searchpath)\n" },
        { "Format 4 4 1\nWorldBegin\nSurface \"pointlight\"\nSphere 1 -1 1 360\nWorldEnd\n",
          "bad.rib:3:1: error: \"pointlight\" is a light shader, not a surface shader\n" },
        { "Format 4 4 1\nWorldBegin\nSurface \"matte\" \"string Kd\" \"x\"\nSphere 1 -1 1 "
          "360\nWorldEnd\n",
          "bad.rib:3:1: error: shader \"matte\": parameter \"Kd\" is a string here but a float "
          "in the shader\n" },
        { "Format 4 4 1\nWorldBegin\nSurface \"plastic\" \"float specularcolor\" [1]\n"
          "Sphere 1 -1 1 360\nWorldEnd\n",
          "bad.rib:3:1: error: shader \"plastic\": parameter \"specularcolor\" is a float here "
          "but a color in the shader\n" },
        { "Format 4 4 1\nWorldBegin\nSurface \"plastic\" \"float Kd\" [1 2]\n"
          "Sphere 1 -1 1 360\nWorldEnd\n",
          "bad.rib:3:1: error: shader \"plastic\": parameter \"Kd\" has 2 values here but 1 in "
          "the shader (a float)\n" },
        { "Format 4 4 1\nWorldBegin\nAttributeBegin\nSphere 1 -1 1 360\n", NULL },
        { "Format 4 4 1\nFrobnicate 1\nWorldBegin\nWorldEnd\n",
          "bad.rib:2:1: error: unknown request \"Frobnicate\" skipped\n" },
        { "Format 4 4 1\nWorldBegin\nSphere 1 -1 1\nWorldEnd\n", NULL },
        { "Format 4 4 1\nWorldBegin\nPointsPolygons [1000000000] [0 1 2] \"P\" [0 0 0 1 0 0 0 1 0]\n"
          "WorldEnd\n", NULL },
        { "Format 4 4 1\nWorldBegin\nPolygon \"P\" [0 0 0 1 0 0 0 1\n", NULL },
        { "Format 8 8 1\nCropWindow 0.5 0.5 0 1\nWorldBegin\nWorldEnd\n",
          "rtrender: error: the crop window [0.5 0.5 0 1] covers no pixel of 8x8\n" },
        { "Format 8 8 1\nScreenWindow 1 1 0 1\nWorldBegin\nWorldEnd\n",
          "bad.rib:2:1: error: ScreenWindow: [1 1 0 1] has no area\n" },
        { "Format 4 4 1\nWorldBegin\nSurface \"paintedplastic\" \"texturename\" \"nosuch.tif\"\n"
          "Sphere 1 -1 1 360\nWorldEnd\n",
          TOP_SRCDIR "/shaders/paintedplastic.sl:8: error: texture(): cannot open texture "
                     "'nosuch.tif': No such file or directory\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_file("bad.rib", cases[i].rib);
        Run r = rtrender("-q -o out.png bad.rib");
        ck_assert_int_eq(r.status, 1);
        if (cases[i].want)
            ck_assert_str_eq(r.err, cases[i].want);
        else
            ck_assert_msg(strstr(r.err, "bad.rib:") && strstr(r.err, "error:"),
                          "case %zu: %s", i, r.err);
        ck_assert_msg(!exists("out.png"), "case %zu left an output file", i);
        run_free(&r);
    }
}
END_TEST

START_TEST(output_png_by_extension)
{
    /* 8-bit PNG, Quantize "rgba" 255 0 255 0: 0.5 becomes round(127.5)
       = 128; --res sets the size. */
    write_file("square.rib", "Format 16 16 1\nQuantize \"rgba\" 255 0 255 0\n"
                             "Display \"ignored.tif\" \"file\" \"rgba\"\n" SQUARE("0.5 0.25 1"));
    Run r = rtrender("-q --res 8x4 -o out.png square.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    ck_assert(!exists("ignored.tif"));
    Image *img = read_back("out.png");
    ck_assert_int_eq(img->width, 8);
    ck_assert_int_eq(img->height, 4);
    ck_assert_int_eq(img->channels, 4);
    const float *p = image_pixel(img, 3, 2);
    ck_assert_float_eq_tol(p[0], 128.0f / 255, 1e-6);
    ck_assert_float_eq_tol(p[1], 64.0f / 255, 1e-6);
    ck_assert_float_eq_tol(p[2], 1, 1e-6);
    ck_assert_float_eq_tol(p[3], 1, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(exposure_into_float_tiff)
{
    /* Exposure 2 2: (2 * 0.125)^(1/2) = 0.5; Quantize "rgba" 0 0 0 0
       keeps floats; the display's mode "rgb" writes three channels. */
    write_file("exposed.rib", "Format 4 4 1\nExposure 2 2\nQuantize \"rgba\" 0 0 0 0\n"
                              "Display \"exposed.tif\" \"tiff\" \"rgb\"\n" SQUARE("0.125 0.5 0"));
    Run r = rtrender("-q exposed.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    Image *img = read_back("exposed.tif");
    ck_assert_int_eq(img->channels, 3);
    const float *p = image_pixel(img, 1, 1);
    ck_assert_float_eq_tol(p[0], 0.5f, 1e-6);
    ck_assert_float_eq_tol(p[1], 1, 1e-6);
    ck_assert_float_eq_tol(p[2], 0, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(shader_from_the_rib_folder)
{
    /* A shader beside the scene is found through '@' and compiled. */
    write_file("half.sl", "surface half() { Oi = 1; Ci = 0.5; }\n");
    write_file("own.rib", "Format 2 2 1\nQuantize \"rgba\" 0 0 0 0\n"
                          "Display \"own.exr\" \"exr\" \"rgba\"\n"
                          "Projection \"orthographic\"\nTranslate 0 0 1\nWorldBegin\n"
                          "Surface \"half\"\nPolygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\n"
                          "WorldEnd\n");
    Run r = rtrender("-q own.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    Image *img = read_back("own.exr");
    ck_assert_float_eq_tol(image_pixel(img, 0, 0)[0], 0.5f, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 0, 0)[3], 1, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(frames_numbered)
{
    /* Several frames with -o: the FrameBegin number before the extension. */
    write_file("frames.rib", "Format 4 4 1\nFrameBegin 7\nWorldBegin\nWorldEnd\nFrameEnd\n"
                             "FrameBegin 8\nWorldBegin\nWorldEnd\nFrameEnd\n");
    Run r = rtrender("-q -o out.tif frames.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    ck_assert(exists("out.0007.tif"));
    ck_assert(exists("out.0008.tif"));
    ck_assert(!exists("out.tif"));
}
END_TEST

START_TEST(debug_pixel)
{
    /* --debug-pixel drops into rsldb when the pixel's surface shader
       runs: the breakpoint stops in matte, and the pixel's lane shows the
       sphere's color and, at the centre of a sphere under a light from
       the eye, Ci = Cs * N.L = Cs within tessellation. */
    write_file("dbg.rib", "Format 9 9 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"
                          "Translate 0 0 5\nWorldBegin\n"
                          "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
                          "Surface \"matte\"\nColor [1 0.5 0.25]\nSphere 1 -1 1 360\nWorldEnd\n");
    write_file("script", "break matte.sl:6\nrun\nprint Cs\nprint Kd * 2\ncontinue\nquit\n");
    Run r = rtrender("-q --debug-pixel 4,4 -o dbg.png dbg.rib < script");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "rtrender: the pixel is lane ") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "shaded by \"matte\" (dbg.rib:7)") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "Breakpoint 1, " TOP_SRCDIR "/shaders/matte.sl:6:") != NULL, "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "Cs = (1, 0.5, 0.25)\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "Kd * 2 = 2 (uniform)\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "The shader ran to the end.\n") != NULL, "%s", r.out);
    run_free(&r);
    ck_assert(exists("dbg.png"));
    /* A pixel that sees nothing: a warning, and the render still ends. */
    r = rtrender("-q --debug-pixel 0,0 -o dbg2.png dbg.rib < script");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "rtrender: warning: pixel 0,0 sees no surface shader to debug\n");
    run_free(&r);
}
END_TEST

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    strcpy(dir, "/tmp/check_rtrender.XXXXXX");
}

int main(void)
{
    Suite *s = suite_create("rtrender");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, bad_scenes_write_nothing);
    tcase_add_test(tc, output_png_by_extension);
    tcase_add_test(tc, exposure_into_float_tiff);
    tcase_add_test(tc, shader_from_the_rib_folder);
    tcase_add_test(tc, frames_numbered);
    tcase_add_test(tc, debug_pixel);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
