/*
** check_rtrender.c: rtrender end to end: its command line, the files it
** writes (read back through the image layer), Exposure and Quantize by
** RISpec's formulas, and a clear error with no output file for bad
** input.
*/
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <glob.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render/image/image.h"
#include "runcmd.h"
#include "readimage.h"
#include "backends.h"

static char dir[] = "/tmp/check_rtrender.XXXXXX";

static void write_file(const char *name, const char *text)
{
    write_in(dir, name, text);
}

static bool exists(const char *name)
{
    return exists_in(dir, name);
}

static Run rtrender(const char *args)
{
    return run_program(dir, TOP_BUILDDIR "/tools/rtrender", args);
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
        { "--spp 0 x.rib", "rtrender: error: --spp needs a count from 1 to 1048576, not '0'\n" },
        { "--spp 4x x.rib", "rtrender: error: --spp needs a count from 1 to 1048576, not '4x'\n" },
        { "--threads 5000 x.rib",
          "rtrender: error: --threads needs a count from 1 to 1024, not '5000'\n" },
        { "--res 10 x.rib",
          "rtrender: error: --res needs WIDTHxHEIGHT, each from 1 to 65536, not '10'\n" },
        /* 2^32 + 64 once wrapped around to 64 */
        { "--res 4294967360x64 x.rib",
          "rtrender: error: --res needs WIDTHxHEIGHT, each from 1 to 65536, not "
          "'4294967360x64'\n" },
        { "--res 64x64junk x.rib",
          "rtrender: error: --res needs WIDTHxHEIGHT, each from 1 to 65536, not '64x64junk'\n" },
        { "--debug-pixel 4294967296,0 x.rib",
          "rtrender: error: --debug-pixel needs X,Y (a pixel of the image), not "
          "'4294967296,0'\n" },
        { "--crop 0,1,0,nan x.rib",
          "rtrender: error: --crop needs XMIN,XMAX,YMIN,YMAX within [0, 1], not '0,1,0,nan'\n" },
        { "--crop 0.5,0.2,0,1 x.rib",
          "rtrender: error: --crop needs XMIN,XMAX,YMIN,YMAX within [0, 1], not '0.5,0.2,0,1'\n" },
        { "--integrator bidir x.rib",
          "rtrender: error: --integrator needs 'classic' or 'path', not 'bidir'\n" },
        { "--max-depth -1 x.rib",
          "rtrender: error: --max-depth needs a path length from 1 to 1024, not '-1'\n" },
        { "--max-depth 5000 x.rib",
          "rtrender: error: --max-depth needs a path length from 1 to 1024, not '5000'\n" },
        { "--backend gpu x.rib", "rtrender: error: --backend needs 'vm' or 'native', not 'gpu'\n" },
        { "--max-shader-steps 1e3 x.rib",
          "rtrender: error: --max-shader-steps needs a count (0: no limit), not '1e3'\n" },
        { "--missing-maps grey x.rib",
          "rtrender: error: --missing-maps needs 'error' or 'black', not 'grey'\n" },
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
        { "Format 4 4 1\nWorldBegin\nSphere 1 -1 1\nWorldEnd\n", NULL },
        { "Format 4 4 1\nWorldBegin\nPointsPolygons [1000000000] [0 1 2] \"P\" [0 0 0 1 0 0 0 1 0]\n"
          "WorldEnd\n", NULL },
        { "Format 4 4 1\nWorldBegin\nPolygon \"P\" [0 0 0 1 0 0 0 1\n", NULL },
        { "Format 8 8 1\nCropWindow 0.5 0.5 0 1\nWorldBegin\nWorldEnd\n",
          "rtrender: error: the crop window [0.5 0.5 0 1] covers no pixel of 8x8\n" },
        /* The film's memory does not grow with the samples (film.h), but
           its pixels are bounded. */
        { "Format 100000 100000 1\nWorldBegin\nWorldEnd\n",
          "bad.rib:1:1: error: Format: 100000x100000 pixels are too many for the film (at most "
          "67108864; lower Format or --res)\n" },
        { "Format 64 64 1\nPixelSamples 4294967297 1\nWorldBegin\nWorldEnd\n",
          "bad.rib:2:1: error: PixelSamples: 4.29497e+09 x 1 samples; each count must be at "
          "most 1024\n" },
        { "Format 8 8 1\nScreenWindow 1 1 0 1\nWorldBegin\nWorldEnd\n",
          "bad.rib:2:1: error: ScreenWindow: [1 1 0 1] has no area\n" },
        /* Light samples past the limit (4096 a surface), for one area
           light or (4000 + 4000) for two, stop before rendering. */
        { "Format 4 4 1\nWorldBegin\nAttributeBegin\nAreaLightSource \"arealight\" 1 "
          "\"float samples\" 4000000\nPolygon \"P\" [-1 3 -1  1 3 -1  1 3 1  -1 3 1]\n"
          "AttributeEnd\nIlluminate 1 1\nSurface \"matte\"\nSphere 1 -1 1 360\nWorldEnd\n",
          "bad.rib:4:1: error: area light \"arealight\": \"samples\" 4000000 is more than 4096, "
          "the most light samples a surface sees\n" },
        { "Format 4 4 1\nWorldBegin\nAttributeBegin\nAreaLightSource \"arealight\" 1 "
          "\"float samples\" 2147483647\nPolygon \"P\" [-1 3 -1  1 3 -1  1 3 1  -1 3 1]\n"
          "AttributeEnd\nIlluminate 1 1\nSurface \"matte\"\nSphere 1 -1 1 360\nWorldEnd\n",
          NULL },
        { "Format 4 4 1\nWorldBegin\nAttributeBegin\nAreaLightSource \"arealight\" 1 "
          "\"float samples\" 4000\nPolygon \"P\" [-1 3 -1  1 3 -1  1 3 1  -1 3 1]\n"
          "AttributeEnd\nAttributeBegin\nAreaLightSource \"arealight\" 2 "
          "\"float samples\" 4000\nPolygon \"P\" [-1 3 -1  1 3 -1  1 3 1  -1 3 1]\n"
          "AttributeEnd\nIlluminate 1 1\nIlluminate 2 1\nSurface \"matte\"\n"
          "Sphere 1 -1 1 360\nWorldEnd\n",
          "bad.rib:8:1: error: light \"arealight\" brings the light samples a surface sees to "
          "8000, more than 4096 (fewer lights or area light \"samples\")\n" },
        { "Format 4 4 1\nWorldBegin\nSurface \"paintedplastic\" \"texturename\" \"nosuch.tif\"\n"
          "Sphere 1 -1 1 360\nWorldEnd\n",
          TOP_SRCDIR "/shaders/paintedplastic.sl:8: error: texture(): cannot open texture "
                     "'nosuch.tif': No such file or directory\n" },
        /* a device is never read (it used to be, 8 GB of it) */
        { "Format 4 4 1\nWorldBegin\nSurface \"paintedplastic\" \"texturename\" \"/dev/zero\"\n"
          "Sphere 1 -1 1 360\nWorldEnd\n",
          TOP_SRCDIR "/shaders/paintedplastic.sl:8: error: texture(): cannot read texture "
                     "'/dev/zero': not a regular file (a device)\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_file("bad.rib", cases[i].rib);
        /* --strict: a shader nowhere on the searchpath is otherwise a
           warning (a map that cannot be had is an error either way) */
        Run r = rtrender("-q --strict -o out.png bad.rib");
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

/* Two squares, matte (which native code runs) below and "slope" (which
   takes a derivative of a value only some points compute, so the VM runs
   it) above, under an ambient light of intensity 1: matte's Kd 1 gives 1,
   slope gives 0.25 (s never passes 2). */
static void write_backend_scene(void)
{
    write_file("slope.sl", "surface slope()\n{\n    Ci = 0.25;\n    if (s > 2)\n"
                           "        Ci += Du(s * s);\n}\n");
    write_file("two.rib", "Format 2 2 1\nProjection \"orthographic\"\nTranslate 0 0 1\n"
                          "PixelFilter \"box\" 1 1\nWorldBegin\nLightSource \"ambientlight\" 1\n"
                          "Surface \"matte\"\n"
                          "Polygon \"P\" [-2 -2 0  -2 0 0  2 0 0  2 -2 0]\nSurface \"slope\"\n"
                          "Polygon \"P\" [-2 0 0  -2 2 0  2 2 0  2 0 0]\nWorldEnd\n");
}

START_TEST(backend_choice)
{
    /* --verbose says where each shader runs; both backends give the same
       image; an object (bytecode only) runs on the VM after a warning. */
    write_backend_scene();
    static const char *const args[] = { "-q --verbose --backend native -o native.exr two.rib",
                                        "-q --verbose --backend vm -o vm.exr two.rib" };
    for (int i = 0; i < 2; i++) {
        Run r = rtrender(args[i]);
        ck_assert_msg(r.status == 0, "%s", r.err);
        if (i == 0) {
            /* matte's instance is specialised: its two defaults fold. */
            ck_assert_msg(strstr(r.err, "note: shader \"matte\" for the instance at two.rib:7 "
                                        "(2 constants) runs in native code (")
                              && strstr(r.err, "note: shader \"slope\" runs on the VM: native "
                                               "code lacks derivatives of a value computed "
                                               "under varying control flow"),
                          "%s", r.err);
        } else {
            ck_assert_str_eq(r.err, "");
        }
        run_free(&r);
        Image *img = read_image_in(dir, i ? "vm.exr" : "native.exr");
        for (int c = 0; c < 3; c++) {
            ck_assert_float_eq_tol(image_pixel(img, 0, 0)[c], 0.25f, 1e-6f);
            ck_assert_float_eq_tol(image_pixel(img, 1, 1)[c], 1.0f, 1e-6f);
        }
        image_free(img);
    }
    Run r = run_program(dir, TOP_BUILDDIR "/tools/rslc", "slope.sl -o slope.o");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    r = rtrender("-q -o obj.exr --backend native two.rib");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "./slope.o: warning: the object holds bytecode only, so its shader "
                            "runs on the VM (rtrender compiles the shader's .sl to native code)\n");
    run_free(&r);
}
END_TEST

/* A shader whose loop never ends, on a square filling the frame. */
static void write_loop_scene(void)
{
    write_file("loop.sl", "surface loop()\n{\n    float x = 0;\n    while (1) {\n"
                          "        x += 1;\n    }\n    Ci = x;\n}\n");
    write_file("loop.rib", "Format 8 8 1\nProjection \"orthographic\"\nTranslate 0 0 1\n"
                           "WorldBegin\nSurface \"loop\"\n"
                           "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n");
}

START_TEST(runaway_shader_stopped)
{
    /* The step budget names the loop's line (4); the time limit stops a
       render with no budget; either way nothing is written. */
    write_loop_scene();
    Run r = rtrender("-q -o out.png --max-shader-steps 10000 loop.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rtrender: error: shader 'loop' ran past 10000 steps at ./loop.sl:4\n");
    ck_assert(!exists("out.png"));
    run_free(&r);
    /* Both integrators run their tiles on render/tiles.c's pool, whose
       watchdog stops the shaders running at the deadline. */
    static const char *const limited[] = {
        "-q -o out.png --max-shader-steps 0 --time-limit 0.2 --threads 2 loop.rib",
        "-q -o out.png --max-shader-steps 0 --time-limit 0.2 --threads 2 --integrator path "
        "loop.rib",
    };
    for (size_t i = 0; i < sizeof limited / sizeof *limited; i++) {
        r = rtrender(limited[i]);
        ck_assert_int_eq(r.status, 1);
        ck_assert_str_eq(r.err, "rtrender: error: the render ran past its time limit "
                                "(--time-limit)\n");
        ck_assert(!exists("out.png"));
        run_free(&r);
    }
    r = rtrender("--time-limit 0 loop.rib");
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "rtrender: error: --time-limit needs a number of seconds above 0, "
                            "not '0'\n");
    run_free(&r);
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
    Image *img = read_image_in(dir, "out.png");
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
    Image *img = read_image_in(dir, "exposed.tif");
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
    Image *img = read_image_in(dir, "own.exr");
    ck_assert_float_eq_tol(image_pixel(img, 0, 0)[0], 0.5f, 1e-6);
    ck_assert_float_eq_tol(image_pixel(img, 0, 0)[3], 1, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(unknown_request_warns)
{
    /* An unknown request is a warning and the square still renders
       (white, every pixel); --strict makes it an error, nothing written. */
    write_file("unk.rib", "Format 2 2 1\nFrobnicate 1\n" SQUARE("1 1 1"));
    Run r = rtrender("-q -o unk.exr unk.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "unk.rib:2:1: warning: unknown request \"Frobnicate\" skipped\n");
    run_free(&r);
    Image *img = read_image_in(dir, "unk.exr");
    ck_assert_float_eq_tol(image_pixel(img, 1, 1)[0], 1, 1e-6);
    image_free(img);
    r = rtrender("-q --strict -o strict.exr unk.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "unk.rib:2:1: error: unknown request \"Frobnicate\" skipped\n");
    ck_assert(!exists("strict.exr"));
    run_free(&r);
}
END_TEST

/* The gray a one-pixel render of a square under shader `name` gave. */
static float gray_of(const char *args)
{
    Run r = rtrender(args);
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    run_free(&r);
    Image *img = read_image_in(dir, "paths.exr");
    float v = image_pixel(img, 0, 0)[0];
    image_free(img);
    unlink("paths.exr");
    return v;
}

START_TEST(search_paths_from_the_command_line)
{
    /* sub/scene.rib uses shader "quarter" and archive "sq.rib", neither
       beside it: --shaderpath and $RMAN_SHADERPATH find the shader, -I
       the archive; "quarter" #includes "k.h" from the -I folder, the
       scene's own folder searched first. */
    char path[600];
    snprintf(path, sizeof path, "%s/sub", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/shd", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/inc", dir);
    mkdir(path, 0755);
    write_file("shd/quarter.sl", "#include \"k.h\"\nsurface quarter() { Oi = 1; Ci = K; }\n");
    write_file("inc/k.h", "#define K 0.25\n");
    write_file("inc/sq.rib", "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\n");
    write_file("sub/scene.rib", "Format 1 1 1\nQuantize \"rgba\" 0 0 0 0\n"
                                "Display \"paths.exr\" \"exr\" \"rgba\"\n"
                                "Projection \"orthographic\"\nTranslate 0 0 1\nWorldBegin\n"
                                "Surface \"quarter\"\nReadArchive \"sq.rib\"\nWorldEnd\n");
    Run r = rtrender("-q sub/scene.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "error: ReadArchive: cannot find archive \"sq.rib\""));
    run_free(&r);
    /* the shader found, but its #include only with -I */
    r = rtrender("-q --shaderpath shd -o paths.exr -I inc sub/scene.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    ck_assert_float_eq_tol(gray_of("-q --shaderpath shd -Iinc -o paths.exr sub/scene.rib"),
                           0.25f, 1e-6);
    /* RMAN_SHADERPATH, after --shaderpath: a "quarter" there loses to one
       --shaderpath names, and is found when --shaderpath is not given */
    snprintf(path, sizeof path, "%s/env", dir);
    mkdir(path, 0755);
    write_file("env/quarter.sl", "surface quarter() { Oi = 1; Ci = 0.75; }\n");
    setenv("RMAN_SHADERPATH", path, 1);
    ck_assert_float_eq_tol(gray_of("-q -I inc -o paths.exr sub/scene.rib"), 0.75f, 1e-6);
    ck_assert_float_eq_tol(gray_of("-q --shaderpath shd -I inc -o paths.exr sub/scene.rib"),
                           0.25f, 1e-6);
    unsetenv("RMAN_SHADERPATH");
    /* the scene's folder comes first: a quarter.sl beside the scene wins */
    write_file("sub/quarter.sl", "surface quarter() { Oi = 1; Ci = 0.5; }\n");
    ck_assert_float_eq_tol(gray_of("-q --shaderpath shd -I inc -o paths.exr sub/scene.rib"),
                           0.5f, 1e-6);
}
END_TEST

START_TEST(texture_path_from_the_command_line)
{
    /* A texture in tex/, not beside the scene: found with --texturepath
       (paintedplastic's texture() of a constant 0.5 gray image). */
    char path[600];
    snprintf(path, sizeof path, "%s/tex", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/tex/gray.exr", dir);
    Image *t = image_new(4, 4, 4);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            float *p = image_pixel(t, x, y);
            p[0] = p[1] = p[2] = 0.5f, p[3] = 1;
        }
    char err[256];
    ck_assert_msg(image_write(t, path, NULL, err, sizeof err) == 0, "%s", err);
    image_free(t);
    write_file("tx.rib", "Format 1 1 1\nQuantize \"rgba\" 0 0 0 0\n"
                         "Display \"paths.exr\" \"exr\" \"rgba\"\n"
                         "Projection \"orthographic\"\nTranslate 0 0 1\nWorldBegin\n"
                         "Surface \"tex\"\n"
                         "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n");
    write_file("tex.sl", "surface tex() { Oi = 1; Ci = color texture(\"gray.exr\", 0.5, 0.5); }\n");
    Run r = rtrender("-q --strict tx.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "cannot open texture 'gray.exr'"));
    run_free(&r);
    ck_assert_float_eq_tol(gray_of("-q --texturepath tex tx.rib"), 0.5f, 1e-3);
}
END_TEST

/* Runs rtrender, which must succeed saying nothing. */
static void render_clean(const char *args)
{
    Run r = rtrender(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err, "");
    run_free(&r);
}

START_TEST(shadow_map_in_two_passes)
{
    /* Pass 1 renders the depth of an occluder (the left half of the
       frame, z = 4) in front of a floor (z = 5) seen from the light, a
       distant light along +z at the camera: Display "zfile". MakeShadow
       makes it a shadow map, which pass 2's light reads. Pass 2 has the
       floor alone, matte under that light (N.L = 1, no ambient): lit
       (1) on the right half, in shadow (0) on the left. Pixels next to
       the edge (3 and 4 of 8) are left out. */
    write_file("two.rib",
               "Projection \"orthographic\"\nScreenWindow -1 1 -1 1\nFormat 8 8 1\n"
               "PixelFilter \"box\" 1 1\nPixelSamples 4 4\nFrameBegin 1\nDisplay \"two.z\" \"zfile\" \"z\"\nWorldBegin\n"
               "Polygon \"P\" [-2 -2 4  -2 2 4  0 2 4  0 -2 4]\n"
               "Polygon \"P\" [-2 -2 5  -2 2 5  2 2 5  2 -2 5]\nWorldEnd\nFrameEnd\n"
               "MakeShadow \"two.z\" \"two.shd\"\n"
               "FrameBegin 2\nDisplay \"lit.exr\" \"exr\" \"rgba\"\nWorldBegin\n"
               "LightSource \"distantlight\" 1 \"from\" [0 0 0] \"to\" [0 0 1] "
               "\"shadowname\" \"two.shd\"\nSurface \"matte\"\n"
               "Polygon \"P\" [-2 -2 5  -2 2 5  2 2 5  2 -2 5]\nWorldEnd\nFrameEnd\n"
               "FrameBegin 3\nDisplay \"spot.exr\" \"exr\" \"rgba\"\nWorldBegin\n"
               "LightSource \"shadowspot\" 1 \"intensity\" 25 \"coneangle\" 1 "
               "\"shadowname\" \"two.shd\" \"samples\" 1\nSurface \"matte\"\n"
               "Polygon \"P\" [-2 -2 5  -2 2 5  2 2 5  2 -2 5]\nWorldEnd\nFrameEnd\n");
    render_clean("-q two.rib");
    Image *z = read_image_in(dir, "two.z");
    ck_assert_float_eq_tol(image_pixel(z, 1, 4)[0], 4, 1e-4);
    ck_assert_float_eq_tol(image_pixel(z, 6, 4)[0], 5, 1e-4);
    ck_assert(z->meta.has_world_to_camera && z->meta.has_world_to_screen);
    image_free(z);
    Image *shd = read_image_in(dir, "two.shd");
    ck_assert_str_eq(shd->meta.texture_format, "Shadow");
    image_free(shd);
    Image *img = read_image_in(dir, "lit.exr");
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            if (x == 3 || x == 4)
                continue;
            ck_assert_msg(fabsf(image_pixel(img, x, y)[0] - (x > 4)) < 1e-4,
                          "pixel %d,%d: %g", x, y, image_pixel(img, x, y)[0]);
        }
    image_free(img);
    /* Pass 3: shadowspot at the eye along +z, the same map. Lit, a point
       at (x, y, 5) gets intensity cos^2 / |L|^2 (beamdistribution 2)
       times N.L = cos, cos = 5 / |L|: 25 * 125 / |L|^5, about 1. The
       value changes by 5% across a pixel: the mean of 16 stratified
       samples (box filter) lies within 0.3% of the centre's value, a
       half float's rounding within 0.05%. */
    img = read_image_in(dir, "spot.exr");
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            if (x == 3 || x == 4)
                continue;
            float px = -1 + 0.25f * ((float)x + 0.5f), py = 1 - 0.25f * ((float)y + 0.5f);
            float l2 = px * px + py * py + 25, want = x > 4 ? 3125 / (l2 * l2 * sqrtf(l2)) : 0;
            ck_assert_msg(fabsf(image_pixel(img, x, y)[0] - want) < 0.005f,
                          "shadowspot pixel %d,%d: %g, want %g", x, y, image_pixel(img, x, y)[0],
                          want);
        }
    image_free(img);
}
END_TEST

START_TEST(make_texture_and_environments)
{
    /* Six flat pictures, face i of gray (i + 1) / 8: MakeTexture,
       MakeLatLongEnvironment and MakeCubeFaceEnvironment write float
       textures with PRMan's format names and wraps; the cube's faces lie
       in the 3 x 2 layout px py pz over nx ny nz. A frame then reads the
       texture: gray 1/8 at its centre. No frame before them: they run
       first. */
    const char *face[6] = { "px.exr", "nx.exr", "py.exr", "ny.exr", "pz.exr", "nz.exr" };
    for (int i = 0; i < 6; i++) {
        Image *t = image_new(4, 4, 3);
        for (int k = 0; k < 4 * 4 * 3; k++)
            t->pixels[k] = (float)(i + 1) / 8;
        char path[600], err[256];
        snprintf(path, sizeof path, "%s/%s", dir, face[i]);
        ck_assert_msg(image_write(t, path, NULL, err, sizeof err) == 0, "%s", err);
        image_free(t);
    }
    write_file("gray.sl", "surface gray() { Oi = 1; Ci = color texture(\"px.tex\", 0.5, 0.5); }\n");
    write_file("make.rib",
               "MakeTexture \"px.exr\" \"px.tex\" \"periodic\" \"clamp\" \"box\" 1 1\n"
               "MakeLatLongEnvironment \"py.exr\" \"ll.tex\" \"box\" 1 1\n"
               "MakeCubeFaceEnvironment \"px.exr\" \"nx.exr\" \"py.exr\" \"ny.exr\" "
               "\"pz.exr\" \"nz.exr\" \"cube.tex\" 90 \"box\" 1 1\n"
               "Format 1 1 1\nQuantize \"rgba\" 0 0 0 0\nDisplay \"gray.exr\" \"exr\" \"rgba\"\n"
               "Projection \"orthographic\"\nTranslate 0 0 1\nWorldBegin\nSurface \"gray\"\n"
               "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n");
    render_clean("-q make.rib");
    Image *t = read_image_in(dir, "px.tex");
    ck_assert_str_eq(t->meta.texture_format, "Plain Texture");
    ck_assert_str_eq(t->meta.wrap_modes, "periodic,clamp");
    image_free(t);
    t = read_image_in(dir, "ll.tex");
    ck_assert_str_eq(t->meta.texture_format, "LatLong Environment");
    ck_assert_float_eq_tol(image_pixel(t, 2, 2)[0], 3.0f / 8, 1e-6);
    image_free(t);
    t = read_image_in(dir, "cube.tex");
    ck_assert_str_eq(t->meta.texture_format, "CubeFace Environment");
    ck_assert_int_eq(t->width, 12);
    ck_assert_int_eq(t->height, 8);
    static const int col[6] = { 0, 0, 1, 1, 2, 2 }, row[6] = { 0, 1, 0, 1, 0, 1 };
    for (int i = 0; i < 6; i++)
        ck_assert_float_eq_tol(image_pixel(t, 4 * col[i] + 1, 4 * row[i] + 2)[1],
                               (float)(i + 1) / 8, 1e-6);
    image_free(t);
    Image *img = read_image_in(dir, "gray.exr");
    ck_assert_float_eq_tol(image_pixel(img, 0, 0)[0], 1.0f / 8, 1e-4);
    image_free(img);
    /* a picture that is not there: a located error, no image */
    write_file("nopic.rib", "MakeTexture \"none.exr\" \"none.tex\" \"clamp\" \"clamp\" "
                            "\"box\" 1 1\n");
    Run r = rtrender("-q nopic.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "nopic.rib:1:1: error: MakeTexture: cannot read "
                                        "\"none.exr\""));
    ck_assert(!exists("none.tex"));
    run_free(&r);
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

/* How many temporary files process pid has beside dir/name. */
static size_t temps_of(const char *name, long pid)
{
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/.%s.tmp.%ld.*", dir, name, pid);
    glob_t g;
    size_t n = glob(pattern, 0, NULL, &g) == 0 ? g.gl_pathc : 0;
    globfree(&g);
    return n;
}

/* SIGTERM while the image is being encoded: exit 143, and neither the
   temporary file nor a half image is left. */
START_TEST(sigterm_removes_temp_file)
{
    /* An empty world renders fast; a big EXR takes a moment to encode. */
    write_file("big.rib", "Format 2048 2048 1\nPixelSamples 1 1\nWorldBegin\nWorldEnd\n");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (chdir(dir) == 0 && null >= 0 && dup2(null, 1) >= 0 && dup2(null, 2) >= 0)
            execl(TOP_BUILDDIR "/tools/rtrender", "rtrender", "-q", "-o", "out.exr", "big.rib",
                  (char *)NULL);
        _exit(127);
    }
    int status = 0;
    bool seen = false, ended = false;
    for (long i = 0; i < 200000 && !seen && !ended; i++) {
        seen = temps_of("out.exr", pid) > 0;
        ended = !seen && waitpid(pid, &status, WNOHANG) == pid;
        if (!seen && !ended)
            usleep(100);
    }
    if (seen)
        kill(pid, SIGTERM);
    ck_assert_msg(seen, "rtrender ended (status %d) before its temporary file was seen", status);
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 143);
    ck_assert_int_eq(temps_of("out.exr", pid), 0);
    ck_assert(!exists("out.exr"));
}
END_TEST

/* After a SIGKILL nothing can clean up: the next write of the same file
   removes the temporary files of processes that no longer run, and
   leaves those of running ones. */
START_TEST(stale_temp_files_swept)
{
    pid_t dead = fork();
    ck_assert_int_ge(dead, 0);
    if (dead == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(dead, NULL, 0), dead);
    char stale[64], live[64];
    snprintf(stale, sizeof stale, ".out.png.tmp.%ld.0", (long)dead);
    snprintf(live, sizeof live, ".out.png.tmp.%ld.7", (long)getpid());
    write_file(stale, "half an image");
    write_file(live, "being written");
    write_file("square.rib", SQUARE("1 1 1"));
    Run r = rtrender("-q --res 4x4 -o out.png square.rib");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    ck_assert(exists("out.png"));
    ck_assert(!exists(stale));
    ck_assert(exists(live));
}
END_TEST

/* -o onto a FIFO (as root, -o /dev/full once replaced the device) is
   refused and the FIFO stays. */
START_TEST(output_not_a_regular_file)
{
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/fifo.png", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    write_file("square.rib", SQUARE("1 1 1"));
    Run r = rtrender("-q --res 4x4 -o fifo.png square.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "fifo.png: error: not a regular file; not writing\n");
    run_free(&r);
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
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

static Suite *make_suite(void)
{
    Suite *s = suite_create("rtrender");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, bad_scenes_write_nothing);
    tcase_add_test(tc, runaway_shader_stopped);
    tcase_add_test(tc, backend_choice);
    tcase_add_test(tc, output_png_by_extension);
    tcase_add_test(tc, exposure_into_float_tiff);
    tcase_add_test(tc, shader_from_the_rib_folder);
    tcase_add_test(tc, unknown_request_warns);
    tcase_add_test(tc, search_paths_from_the_command_line);
    tcase_add_test(tc, texture_path_from_the_command_line);
    tcase_add_test(tc, shadow_map_in_two_passes);
    tcase_add_test(tc, make_texture_and_environments);
    tcase_add_test(tc, frames_numbered);
    tcase_add_test(tc, debug_pixel);
    tcase_add_test(tc, sigterm_removes_temp_file);
    tcase_add_test(tc, stale_temp_files_swept);
    tcase_add_test(tc, output_not_a_regular_file);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}
