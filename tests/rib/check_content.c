/*
** check_content.c: rtrender on the kinds of RIB that public scenes are
** made of (the failure classes scripts/measure-content finds), end to
** end through the program, with the expected pixels worked out by hand:
** multipass scenes under -o (a depth map or texture pass keeps its name),
** textures and shaders a scene names but cannot have, or names in
** another case, surfaces seen
** through a mirroring camera, and the screen, NDC and raster spaces.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/image/image.h"
#include "runcmd.h"
#include "readimage.h"
#include "../common/suite.h"

static char dir[] = "/tmp/check_content.XXXXXX";

static void write_file(const char *name, const char *text)
{
    write_in(dir, name, text);
}

static bool exists(const char *name)
{
    return exists_in(dir, name);
}

/* Runs rtrender with args in the test's folder; it must exit with want. */
static Run rtrender(const char *args, int want)
{
    Run r = run_program(dir, TOP_BUILDDIR "/tools/rtrender", args);
    ck_assert_msg(r.status == want, "exit %d, not %d: %s", r.status, want, r.err);
    return r;
}

/* Asserts that red of every pixel of the 8 x 8 image in columns left of 3
   is `left` and right of 4 is `right` (columns 3 and 4 straddle an edge
   and are left out), within 1e-4. */
static void expect_halves(const char *name, float left, float right)
{
    Image *img = read_image_in(dir, name);
    ck_assert_int_eq(img->width, 8);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            if (x < 3 || x > 4)
                ck_assert_msg(fabsf(image_pixel(img, x, y)[0] - (x < 3 ? left : right)) < 1e-4,
                              "%s pixel %d,%d: %g", name, x, y, image_pixel(img, x, y)[0]);
    image_free(img);
}

/* An orthographic 8 x 8 frame of [-1, 1]^2, one box-filtered pixel each. */
#define CAMERA "Projection \"orthographic\"\nScreenWindow -1 1 -1 1\nFormat 8 8 1\n" \
               "PixelFilter \"box\" 1 1\nPixelSamples 4 4\n"
/* A floor at z = 5 filling the frame. */
#define FLOOR "Polygon \"P\" [-2 -2 5  -2 2 5  2 2 5  2 -2 5]\n"

START_TEST(depth_pass_keeps_its_name_under_o)
{
    /* Frame 1 writes the depth of an occluder over the left half (z = 4)
       in front of the floor as "pass.z"; frame 2 shows the floor alone
       with a surface of 1 - shadow("pass.z", P): 0 where the occluder
       hid the floor from the same camera, 1 elsewhere. With -o, frame 2
       is the only picture, so it goes to out.exr under that very name,
       and frame 1's map keeps its own (frame 2 reads it). */
    write_file("unshadowed.sl", "surface unshadowed(string map = \"\")"
                                " { Oi = 1; Ci = 1 - shadow(map, P); }\n");
    write_file("pass.rib", CAMERA "FrameBegin 1\nDisplay \"pass.z\" \"zfile\" \"z\"\nWorldBegin\n"
                           "Polygon \"P\" [-2 -2 4  -2 2 4  0 2 4  0 -2 4]\n" FLOOR
                           "WorldEnd\nFrameEnd\n"
                           "FrameBegin 2\nDisplay \"pass.tif\" \"file\" \"rgba\"\nWorldBegin\n"
                           "Surface \"unshadowed\" \"map\" \"pass.z\"\n" FLOOR
                           "WorldEnd\nFrameEnd\n");
    Run r = rtrender("-q -o out.exr pass.rib", 0);
    run_free(&r);
    ck_assert(exists("pass.z"));
    ck_assert(!exists("out.0001.exr") && !exists("out.0002.exr") && !exists("pass.tif"));
    expect_halves("out.exr", 0, 1);
}
END_TEST

START_TEST(missing_maps_look_up_as_zero)
{
    /* A texture that is not there and a shadow map that is no picture:
       by default an error, with no picture written. Under --missing-maps
       black each warns once, naming the map, and looks up as 0 (the
       shadow map: unshadowed), so every pixel is 0.25 + 0 + (1 - 0) / 2 =
       0.75; --strict makes it an error again. */
    write_file("junk.shd", "not a picture\n");
    write_file("maps.sl", "surface maps() { Oi = 1;"
                          " Ci = 0.25 + float texture(\"nosuch.tex\")"
                          " + (1 - shadow(\"junk.shd\", P)) / 2; }\n");
    write_file("maps.rib", CAMERA "WorldBegin\nSurface \"maps\"\n" FLOOR "WorldEnd\n");
    Run r = rtrender("-q -o default.exr maps.rib", 1);
    ck_assert_ptr_nonnull(strstr(r.err, "maps.sl:1: error: texture(): cannot open texture "
                                        "'nosuch.tex'"));
    run_free(&r);
    ck_assert(!exists("default.exr"));
    r = rtrender("-q --missing-maps black -o maps.exr maps.rib", 0);
    ck_assert_ptr_nonnull(strstr(r.err, "warning: texture(): cannot open texture 'nosuch.tex'"));
    ck_assert_ptr_nonnull(strstr(r.err, "warning: shadow(): cannot read texture 'junk.shd'"));
    run_free(&r);
    expect_halves("maps.exr", 0.75f, 0.75f);
    r = rtrender("-q --strict --missing-maps black -o strict.exr maps.rib", 1);
    ck_assert_ptr_nonnull(strstr(r.err, "error: texture(): cannot open texture 'nosuch.tex'"));
    run_free(&r);
    ck_assert(!exists("strict.exr"));
}
END_TEST

START_TEST(missing_shaders_warn)
{
    /* The left half's surface sums Cl over the lights: the distant light
       of 0.5 is there, "nosuchlight" is left out, so 0.5. The right
       half's "nosuchsurface" gives RenderMan's default surface, Cs (Ka +
       Kd cos^2) = 0.25 (0.2 + 0.8) facing the camera. The imager
       "nosuchimager" is left out. --strict: an error, no picture. */
    write_file("sumcl.sl", "surface sumcl() { Oi = 1; Ci = 0; illuminance(P) Ci += Cl; }\n");
    write_file("gone.rib", CAMERA "Imager \"nosuchimager\"\nWorldBegin\n"
                           "LightSource \"distantlight\" 1 \"intensity\" 0.5\n"
                           "LightSource \"nosuchlight\" 2\n"
                           "AttributeBegin\nSurface \"sumcl\"\n"
                           "Polygon \"P\" [-2 -2 5  -2 2 5  0 2 5  0 -2 5]\nAttributeEnd\n"
                           "Surface \"nosuchsurface\"\nColor [0.25 0.25 0.25]\n"
                           "Polygon \"P\" [0 -2 5  0 2 5  2 2 5  2 -2 5]\nWorldEnd\n");
    Run r = rtrender("-q -o gone.exr gone.rib", 0);
    ck_assert_ptr_nonnull(strstr(r.err, "gone.rib:9:1: warning: shader \"nosuchlight\" not found"
                                        " (no nosuchlight.o or nosuchlight.sl on the shader "
                                        "searchpath); the light is left out\n"));
    ck_assert_ptr_nonnull(strstr(r.err, "warning: shader \"nosuchsurface\" not found"));
    ck_assert_ptr_nonnull(strstr(r.err, "warning: shader \"nosuchimager\" not found"));
    run_free(&r);
    expect_halves("gone.exr", 0.5f, 0.25f);
    r = rtrender("-q --strict -o strict.exr gone.rib", 1);
    ck_assert_ptr_nonnull(strstr(r.err, "error: shader \"nosuchlight\" not found"));
    run_free(&r);
    ck_assert(!exists("strict.exr"));
}
END_TEST

START_TEST(mirroring_camera_lights_the_seen_side)
{
    /* Exported scenes often mirror world space into RenderMan's camera
       (a camera transform of determinant -1). Here Scale 1 1 -1 puts the
       camera at z = +5 looking down at a bilinear patch at z = 0. matte
       under a distant light of 1 is N.L = 1 from the camera's side
       (+z), 0 from below, the same as for a polygon: the patch's own
       normal, dPdu x dPdv in camera space, and its Ng agree. */
    static const char *const light[2] = { "0 0 10", "0 0 -10" };
    for (int i = 0; i < 2; i++) {
        char rib[1024], args[64];
        snprintf(rib, sizeof rib, CAMERA "Scale 1 1 -1\nTranslate 0 0 -5\nWorldBegin\n"
                 "LightSource \"distantlight\" 1 \"from\" [%s] \"to\" [0 0 0]\n"
                 "Surface \"matte\"\n"
                 "Patch \"bilinear\" \"P\" [-2 -2 0  2 -2 0  -2 2 0  2 2 0]\nWorldEnd\n",
                 light[i]);
        write_file("mirror.rib", rib);
        snprintf(args, sizeof args, "-q -o mirror%d.exr mirror.rib", i);
        Run r = rtrender(args, 0);
        run_free(&r);
        snprintf(args, sizeof args, "mirror%d.exr", i);
        expect_halves(args, i == 0, i == 0);
    }
}
END_TEST

START_TEST(texture_pass_keeps_its_name_under_o)
{
    /* Frame 1 renders a constant 0.2 (51/255 exactly in 8 bits) into
       "pass.tif", which MakeTexture reads; frame 2 shows it as a texture.
       Under -o frame 1 is a pass that keeps its name, and frame 2, the
       one picture, goes to out.exr: 0.2 everywhere. */
    write_file("tex.sl", "surface tex() { Oi = 1; Ci = float texture(\"pass.tx\"); }\n");
    write_file("tex.rib", CAMERA "FrameBegin 1\nDisplay \"pass.tif\" \"file\" \"rgb\"\n"
                          "WorldBegin\nSurface \"constant\"\nColor [0.2 0.2 0.2]\n" FLOOR
                          "WorldEnd\nFrameEnd\nMakeTexture \"pass.tif\" \"pass.tx\" "
                          "\"periodic\" \"periodic\" \"box\" 1 1\n"
                          "FrameBegin 2\nWorldBegin\nSurface \"tex\"\n" FLOOR
                          "WorldEnd\nFrameEnd\n");
    Run r = rtrender("-q -o out.exr tex.rib", 0);
    run_free(&r);
    ck_assert(exists("pass.tif") && exists("pass.tx"));
    ck_assert(!exists("out.0001.exr") && !exists("out.0002.exr"));
    expect_halves("out.exr", 0.2f, 0.2f);
    /* --res is the picture's: the pass keeps its Format of 8 x 8. */
    r = rtrender("-q --res 4x4 -o small.exr tex.rib", 0);
    run_free(&r);
    Image *pass = read_image_in(dir, "pass.tif"), *small = read_image_in(dir, "small.exr");
    ck_assert_int_eq(pass->width, 8);
    ck_assert_int_eq(small->width, 4);
    ck_assert_float_eq_tol(image_pixel(small, 2, 2)[0], 0.2f, 1e-4);
    image_free(pass);
    image_free(small);
}
END_TEST

START_TEST(names_in_another_case)
{
    /* Scenes written on file systems that ignore case name files in
       another case. Frame 1 renders a constant 0.2 into "pass.tif",
       MakeTexture makes pass.tx of it; frame 2's left half asks for
       shader "GREY" (only grey.sl, Ci = 0.75, is there), its right half
       for "Tex", whose tex.sl looks up "PASS.TX": each is found with a
       warning naming the file used, so
       0.75 | 0.2. An exact name wins over an earlier folder's name in
       another case: "Grey" is sub/Grey.sl (0.25), not grey.sl beside the
       scene, which comes first on the path; and no warning. */
    write_file("grey.sl", "surface grey() { Oi = 1; Ci = 0.75; }\n");
    char sub[600];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    write_file("sub/Grey.sl", "surface Grey() { Oi = 1; Ci = 0.25; }\n");
    write_file("tex.sl", "surface tex() { Oi = 1; Ci = float texture(\"PASS.TX\"); }\n");
    write_file("case.rib", CAMERA "FrameBegin 1\nDisplay \"pass.tif\" \"file\" \"rgb\"\n"
                           "WorldBegin\nSurface \"constant\"\nColor [0.2 0.2 0.2]\n" FLOOR
                           "WorldEnd\nFrameEnd\nMakeTexture \"pass.tif\" \"pass.tx\" "
                           "\"periodic\" \"periodic\" \"box\" 1 1\nFrameBegin 2\nWorldBegin\n"
                           "AttributeBegin\nSurface \"GREY\"\n"
                           "Polygon \"P\" [-2 -2 5  -2 2 5  0 2 5  0 -2 5]\nAttributeEnd\n"
                           "Surface \"Tex\"\n"
                           "Polygon \"P\" [0 -2 5  0 2 5  2 2 5  2 -2 5]\nWorldEnd\nFrameEnd\n");
    Run r = rtrender("-q -o case.exr case.rib", 0);
    ck_assert_msg(strstr(r.err, "case.rib:18:1: warning: shader \"GREY\" is not on the shader "
                                "searchpath; \"grey\", whose name differs only in case, is used"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.err, "warning: texture(): texture 'PASS.TX' is not on the "
                                "texturepath;"), "%s", r.err);
    run_free(&r);
    expect_halves("case.exr", 0.75f, 0.2f);
    write_file("exact.rib", CAMERA "WorldBegin\nSurface \"Grey\"\n" FLOOR "WorldEnd\n");
    r = rtrender("-q --shaderpath sub -o exact.exr exact.rib", 0);
    ck_assert_msg(!strstr(r.err, "warning"), "%s", r.err);
    run_free(&r);
    expect_halves("exact.exr", 0.25f, 0.25f);
}
END_TEST

START_TEST(screen_ndc_and_raster_spaces)
{
    /* A floor at camera z = 5 under a 90 degree perspective (tan 45 = 1)
       and Clipping 1 9, 8 x 8 pixels. A pixel's samples average to its
       centre, so raster x and NDC y times 8 are the pixel's centre,
       x + 0.5 and y + 0.5 (y down); screen z is PRMan's depth
       f (z - n) / (z (f - n)) = 9 * 4 / (5 * 8) = 0.9, plus "eye" (camera
       space) z = 5. The samples are jittered: their mean lies within
       0.06 pixels of the centre (3 standard deviations); EXR's half
       floats hold 5.9 within 0.004. */
    write_file("spaces.sl", "surface spaces() { Oi = 1;"
                            " Ci = color(xcomp(transform(\"raster\", P)),"
                            " ycomp(transform(\"NDC\", P)) * 8, zcomp(transform(\"screen\", P)))"
                            " + color(0, 0, zcomp(transform(\"eye\", P))); }\n");
    write_file("spaces.rib", "Projection \"perspective\" \"fov\" 90\nFormat 8 8 1\n"
                             "PixelFilter \"box\" 1 1\nPixelSamples 4 4\nClipping 1 9\n"
                             "Quantize \"rgba\" 0 0 0 0\nWorldBegin\nSurface \"spaces\"\n"
                             "Polygon \"P\" [-9 -9 5  -9 9 5  9 9 5  9 -9 5]\nWorldEnd\n");
    Run r = rtrender("-q -o spaces.exr spaces.rib", 0);
    run_free(&r);
    Image *img = read_image_in(dir, "spaces.exr");
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            const float *p = image_pixel(img, x, y);
            ck_assert_msg(fabsf(p[0] - (x + 0.5f)) < 0.06f && fabsf(p[1] - (y + 0.5f)) < 0.06f
                              && fabsf(p[2] - 5.9f) < 0.01f,
                          "pixel %d,%d: %g %g %g", x, y, p[0], p[1], p[2]);
        }
    image_free(img);
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
    strcpy(dir, "/tmp/check_content.XXXXXX");
}

int main(void)
{
    Suite *s = suite_create("content");
    TCase *tc = tcase_create("content");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, depth_pass_keeps_its_name_under_o);
    tcase_add_test(tc, texture_pass_keeps_its_name_under_o);
    tcase_add_test(tc, missing_maps_look_up_as_zero);
    tcase_add_test(tc, missing_shaders_warn);
    tcase_add_test(tc, mirroring_camera_lights_the_seen_side);
    tcase_add_test(tc, screen_ndc_and_raster_spaces);
    tcase_add_test(tc, names_in_another_case);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
