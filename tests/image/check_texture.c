/*
** check_texture.c: the texture system against values worked out by hand
** on synthetic maps the tests write: constants, bilinear interpolation
** of a gradient, checkerboard averages at coarse MIP levels, the three
** wrap modes, channels and fill, lat-long environment directions, shadow
** depth tests with bias and percentage-closer filtering, textureinfo,
** errors naming the file, the search path, and concurrent first use.
*/
#include "config.h"
#include "tests/image/check_image.h"

#include "render/image/texture.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char err[512];

/* Writes img as a float TIFF (or EXR, by the name) with wrap modes. */
static const char *write_map(Image *img, const char *name, const char *wrap)
{
    const char *path = scratch(name);
    snprintf(img->meta.wrap_modes, sizeof img->meta.wrap_modes, "%s", wrap);
    ImageWriteOptions o = { .storage = IMAGE_FLOAT, .tiled = true };
    ck_assert_msg(image_write(img, path, &o, err, sizeof err) == 0, "%s", err);
    image_free(img);
    return path;
}

/* A lookup at one point (all corners equal) or a box [s0, s1] x [t0, t1]. */
static VmTexLookup query(VmTexKind kind, const char *name, int nchannels)
{
    return (VmTexLookup){ .kind = kind, .name = name, .nchannels = nchannels, .swidth = 1,
                          .twidth = 1, .samples = 1, .filter = "gaussian" };
}

static void set_box(VmTexLookup *q, double s0, double s1, double t0, double t1)
{
    const double c[4][2] = { { s0, t0 }, { s1, t0 }, { s1, t1 }, { s0, t1 } };
    for (int i = 0; i < 4; i++)
        q->corner[i][0] = (float)c[i][0], q->corner[i][1] = (float)c[i][1], q->corner[i][2] = 0;
}

static float tex1(TexSystem *ts, const char *path, double s0, double s1, double t0, double t1)
{
    VmTexLookup q = query(VM_TEXTURE, path, 1);
    set_box(&q, s0, s1, t0, t1);
    float out[1];
    ck_assert_msg(texsys_lookup(ts, &q, out, err, sizeof err) == 0, "%s", err);
    return out[0];
}

static float tex_at(TexSystem *ts, const char *path, double s, double t)
{
    return tex1(ts, path, s, s, t, t);
}

#define EXPECT_NEAR(got, want, tol)                                                           \
    ck_assert_msg(fabs((double)(got) - (double)(want)) <= (tol), "%s = %.9g, want %.9g", #got, \
                  (double)(got), (double)(want))

/* ---- texture ------------------------------------------------------------------------------ */

static float constant(int x, int y, int c)
{
    return 0.25f * (float)(c + 1) + (float)(x * y) * 0;
}

START_TEST(constant_everywhere)
{
    const char *p = write_map(make_image(16, 8, 3, constant), "const.tif", "periodic,clamp");
    TexSystem *ts = texsys_new();
    VmTexLookup q = query(VM_TEXTURE, p, 3);
    const double boxes[][4] = { { 0.3, 0.3, 0.7, 0.7 },   { 0, 1, 0, 1 },
                                { -3, 5, 0.2, 0.25 },     { 0.1, 0.12, -2, 9 },
                                { 0.99, 1.01, 0.5, 0.5 }, { 0.5, 0.9, 0.1, 0.11 } };
    for (size_t i = 0; i < sizeof boxes / sizeof boxes[0]; i++)
        for (int blur = 0; blur < 2; blur++) {
            set_box(&q, boxes[i][0], boxes[i][1], boxes[i][2], boxes[i][3]);
            q.blur = blur * 0.1f;
            float out[3];
            ck_assert_msg(texsys_lookup(ts, &q, out, err, sizeof err) == 0, "%s", err);
            for (int c = 0; c < 3; c++)
                EXPECT_NEAR(out[c], 0.25 * (c + 1), 1e-6);
        }
    texsys_free(ts);
}
END_TEST

static float gradient(int x, int y, int c)
{
    return (float)(x + 10 * y + c);
}

START_TEST(gradient_is_bilinear)
{
    /* texel (x, y) holds x + 10 y at (s, t) = ((x + .5) / 8, (y + .5) / 4):
       inside, a point lookup is (8 s - .5) + 10 (4 t - .5) */
    const char *p = write_map(make_image(8, 4, 1, gradient), "grad.tif", "clamp,clamp");
    TexSystem *ts = texsys_new();
    const double pts[][2] = { { 0.3, 0.6 }, { 0.0625, 0.125 }, { 0.5, 0.5 }, { 0.93, 0.87 },
                              { 0.2, 0.4 } };
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double s = pts[i][0], t = pts[i][1];
        EXPECT_NEAR(tex_at(ts, p, s, t), (8 * s - 0.5) + 10 * (4 * t - 0.5), 1e-5);
    }
    /* by hand: (0.3, 0.6) is 1.9 texels across, 1.9 down: 1.9 + 19 */
    EXPECT_NEAR(tex_at(ts, p, 0.3, 0.6), 20.9, 1e-5);
    /* clamped: left of the first centre and above the top one, texel 0 */
    EXPECT_NEAR(tex_at(ts, p, 0.02, 0.05), 0, 1e-6);
    EXPECT_NEAR(tex_at(ts, p, 1.5, 0.6), 7 + 19, 1e-5);
    /* a box a texel wide over a linear ramp averages to its centre */
    EXPECT_NEAR(tex1(ts, p, 0.25, 0.375, 0.5, 0.5), (8 * 0.3125 - 0.5) + 15, 1e-5);
    texsys_free(ts);
}
END_TEST

static float checker1(int x, int y, int c)
{
    return (float)((x + y + c) % 2);
}

static float checker8(int x, int y, int c)
{
    return (float)((x / 8 + y / 8 + c) % 2);
}

START_TEST(checkerboard_mip_levels)
{
    const char *fine = write_map(make_image(64, 64, 1, checker1), "check1.tif", "periodic");
    const char *coarse = write_map(make_image(64, 64, 1, checker8), "check8.tif", "periodic");
    TexSystem *ts = texsys_new();
    /* level 0 at texel centres: the texels themselves */
    EXPECT_NEAR(tex_at(ts, fine, 10.5 / 64, 20.5 / 64), 0, 1e-6);
    EXPECT_NEAR(tex_at(ts, fine, 11.5 / 64, 20.5 / 64), 1, 1e-6);
    /* any box 2 or more texels across reads level 1 or coarser: all 0.5 */
    EXPECT_NEAR(tex1(ts, fine, 0.3, 0.3 + 4 / 64.0, 0.6, 0.6 + 4 / 64.0), 0.5, 1e-6);
    EXPECT_NEAR(tex1(ts, fine, 0.1, 0.1 + 2 / 64.0, 0.2, 0.2 + 2 / 64.0), 0.5, 1e-6);
    EXPECT_NEAR(tex1(ts, fine, 0.77, 0.9, 0.01, 0.4), 0.5, 1e-6);
    EXPECT_NEAR(tex1(ts, fine, -2, 3, -1, 4), 0.5, 1e-6);
    /* 8-texel cells: a box 8 texels wide on a cell reads level 3, whose
       texel is that cell; 16 wide reads level 4, which averages four */
    EXPECT_NEAR(tex1(ts, coarse, 8 / 64.0, 16 / 64.0, 0, 8 / 64.0), 1, 1e-6);
    EXPECT_NEAR(tex1(ts, coarse, 16 / 64.0, 24 / 64.0, 0, 8 / 64.0), 0, 1e-6);
    EXPECT_NEAR(tex1(ts, coarse, 0, 16 / 64.0, 16 / 64.0, 32 / 64.0), 0.5, 1e-6);
    /* a box 3 texels wide (lod log2 3) blends levels 1 and 2, both equal
       to the cell inside one cell */
    EXPECT_NEAR(tex1(ts, coarse, 1 / 64.0, 4 / 64.0, 1 / 64.0, 4 / 64.0), 0, 1e-6);
    EXPECT_NEAR(tex1(ts, coarse, 9 / 64.0, 12 / 64.0, 1 / 64.0, 4 / 64.0), 1, 1e-6);
    texsys_free(ts);
}
END_TEST

static float ramp4(int x, int y, int c)
{
    return (float)(x + 1 + y * 0 + c * 0);
}

START_TEST(wrap_modes)
{
    /* four texels 1 2 3 4 at s = 1/8, 3/8, 5/8, 7/8 */
    TexSystem *ts = texsys_new();
    const char *per = write_map(make_image(4, 1, 1, ramp4), "per.tif", "periodic,clamp");
    const char *cla = write_map(make_image(4, 1, 1, ramp4), "cla.tif", "clamp,clamp");
    const char *blk = write_map(make_image(4, 1, 1, ramp4), "blk.tif", "black,clamp");
    const char *none = write_map(make_image(4, 1, 1, ramp4), "none.tif", "");
    /* s = 0: between the last texel and the first */
    EXPECT_NEAR(tex_at(ts, per, 0, 0.5), 2.5, 1e-6);
    EXPECT_NEAR(tex_at(ts, per, 1, 0.5), 2.5, 1e-6);
    EXPECT_NEAR(tex_at(ts, per, 1.125, 0.5), 1, 1e-6);
    EXPECT_NEAR(tex_at(ts, per, -0.125, 0.5), 4, 1e-6);
    EXPECT_NEAR(tex1(ts, per, 0.1, 1.1, 0.5, 0.5), 2.5, 1e-6);     /* one period */
    EXPECT_NEAR(tex1(ts, per, -7.3, 12.7, 0.5, 0.5), 2.5, 1e-6);   /* twenty */
    EXPECT_NEAR(tex_at(ts, cla, 0, 0.5), 1, 1e-6);
    EXPECT_NEAR(tex_at(ts, cla, 1, 0.5), 4, 1e-6);
    EXPECT_NEAR(tex_at(ts, cla, -5, 0.5), 1, 1e-6);
    EXPECT_NEAR(tex1(ts, cla, 0.5, 2.5, 0.5, 0.5), 31 / 8.0, 1e-5); /* 3, 4, then 6 x 4 */
    EXPECT_NEAR(tex_at(ts, blk, 0, 0.5), 0.5, 1e-6);  /* half of texel 0, half black */
    EXPECT_NEAR(tex_at(ts, blk, 1, 0.5), 2, 1e-6);
    EXPECT_NEAR(tex_at(ts, blk, -3, 0.5), 0, 1e-6);
    EXPECT_NEAR(tex_at(ts, blk, 0.5, 0.5), 2.5, 1e-6);
    EXPECT_NEAR(tex_at(ts, none, 1.5, 0.5), 0, 1e-6); /* unsaid: black, like txmake */
    /* t clamps: far above or below the single row reads it */
    EXPECT_NEAR(tex_at(ts, per, 0.625, -4), 3, 1e-6);
    texsys_free(ts);
}
END_TEST

START_TEST(channels_and_fill)
{
    const char *p = write_map(make_image(2, 2, 2, constant), "two.tif", "clamp");
    TexSystem *ts = texsys_new();
    VmTexLookup q = query(VM_TEXTURE, p, 3);
    set_box(&q, 0.5, 0.5, 0.5, 0.5);
    q.fill = 0.7f;
    float out[3];
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    EXPECT_NEAR(out[0], 0.25, 1e-6);
    EXPECT_NEAR(out[1], 0.5, 1e-6);
    EXPECT_NEAR(out[2], 0.7, 1e-6);
    q.channel = 1;
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    EXPECT_NEAR(out[0], 0.5, 1e-6);
    EXPECT_NEAR(out[1], 0.7, 1e-6);
    q.channel = 5, q.nchannels = 1;
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    EXPECT_NEAR(out[0], 0.7, 1e-6);
    texsys_free(ts);
}
END_TEST

static float odd_values(int x, int y, int c)
{
    return (float)((x * 7 + y * 3) % 5) + (float)c * 0;
}

START_TEST(odd_sizes_keep_the_mean)
{
    /* 5 x 3: box-filtered levels 2 x 1 and 1 x 1 keep the mean */
    Image *img = make_image(5, 3, 1, odd_values);
    double mean = 0;
    for (int i = 0; i < 15; i++)
        mean += img->pixels[i] / 15;
    const char *p = write_map(img, "odd.tif", "clamp");
    TexSystem *ts = texsys_new();
    EXPECT_NEAR(tex1(ts, p, 0, 1, 0, 1), mean, 1e-5);
    EXPECT_NEAR(tex1(ts, p, -10, 11, -10, 11), mean, 1e-5);
    char *str = NULL;
    float res[2];
    ck_assert_int_eq(texsys_info(ts, p, "resolution", 'f', 2, res, (const char **)&str, err,
                                 sizeof err), 1);
    ck_assert(res[0] == 5 && res[1] == 3);
    texsys_free(ts);
}
END_TEST

/* ---- environment ---------------------------------------------------------------------------- */

/* 64 x 32 lat-long: the top quarter (+z) 1, the bottom (-z) 2, the band
   between by longitude: around +x (s = .5) 3, +y (.75) 4, -x (0 / 1) 5,
   -y (.25) 6. Channel c adds 10 c. */
static float sky(int x, int y, int c)
{
    float v;
    if (y < 8)
        v = 1;
    else if (y >= 24)
        v = 2;
    else if (x >= 24 && x < 40)
        v = 3;
    else if (x >= 40 && x < 56)
        v = 4;
    else if (x >= 8 && x < 24)
        v = 6;
    else
        v = 5;
    return v + 10.0f * (float)c;
}

START_TEST(environment_axes)
{
    Image *img = make_image(64, 32, 3, sky);
    snprintf(img->meta.texture_format, sizeof img->meta.texture_format, "LatLong Environment");
    const char *p = write_map(img, "sky.exr", "");
    TexSystem *ts = texsys_new();
    const struct {
        float d[3], want;
    } axes[] = { { { 0, 0, 1 }, 1 },  { { 0, 0, -1 }, 2 }, { { 1, 0, 0 }, 3 },
                 { { 0, 1, 0 }, 4 },  { { -1, 0, 0 }, 5 }, { { 0, -1, 0 }, 6 },
                 { { 0, 0, 7 }, 1 },  { { -3, 0, 0 }, 5 } };
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; i++)
        for (int wide = 0; wide < 2; wide++) {
            VmTexLookup q = query(VM_ENVIRONMENT, p, 3);
            for (int k = 0; k < 4; k++) {
                memcpy(q.corner[k], axes[i].d, sizeof q.corner[k]);
                if (wide) /* a small cone: 0.05 radians across */
                    for (int j = 0; j < 3; j++)
                        if (axes[i].d[j] == 0)
                            q.corner[k][j] += ((k + j) & 1 ? 0.025f : -0.025f) *
                                              (fabsf(axes[i].d[0] + axes[i].d[1] + axes[i].d[2]));
            }
            float out[3];
            ck_assert_msg(texsys_lookup(ts, &q, out, err, sizeof err) == 0, "%s", err);
            for (int c = 0; c < 3; c++)
                ck_assert_msg(fabsf(out[c] - (axes[i].want + 10 * c)) < 1e-5,
                              "direction %zu (%g %g %g), wide %d, channel %d: %g", i,
                              axes[i].d[0], axes[i].d[1], axes[i].d[2], wide, c, out[c]);
        }
    /* the seam: just either side of -x both read -x's region */
    VmTexLookup q = query(VM_ENVIRONMENT, p, 1);
    const float seam[4][3] = { { -1, 0.01f, 0 }, { -1, -0.01f, 0 }, { -1, -0.01f, 0.01f },
                               { -1, 0.01f, 0.01f } };
    memcpy(q.corner, seam, sizeof seam);
    float out[1];
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    EXPECT_NEAR(out[0], 5, 1e-5);
    const char *type = NULL;
    ck_assert_int_eq(texsys_info(ts, p, "type", 's', 1, NULL, &type, err, sizeof err), 1);
    ck_assert_str_eq(type, "environment");
    texsys_free(ts);
}
END_TEST

/* 3 x 2 faces of 8 x 8 (px py pz / nx ny nz): face f holds
   100 (f + 1) + x + 10 y at its texel (x, y). */
static float cube(int x, int y, int c)
{
    int f = x / 8 + 3 * (y / 8);
    return (float)(100 * (f + 1) + x % 8 + 10 * (y % 8) + c * 1000);
}

START_TEST(environment_cube_faces)
{
    Image *img = make_image(24, 16, 1, cube);
    snprintf(img->meta.texture_format, sizeof img->meta.texture_format, "CubeFace Environment");
    const char *p = write_map(img, "cube.tif", "");
    TexSystem *ts = texsys_new();
    /* a face's centre (s = t = .5) is between texels 3 and 4: 3.5 + 35;
       off centre, +s and +t run along each face's own axes */
    const struct {
        float d[3], want;
    } dirs[] = {
        { { 1, 0, 0 }, 138.5 },   { { 0, 1, 0 }, 238.5 },    { { 0, 0, 1 }, 338.5 },
        { { -1, 0, 0 }, 438.5 },  { { 0, -1, 0 }, 538.5 },   { { 0, 0, -1 }, 638.5 },
        { { 1, 0, -0.5f }, 140.5 },  /* px: +s is -z, s = .75: 5.5 across */
        { { 1, -0.5f, 0 }, 158.5 },  /* px: +t is -y, t = .75: 5.5 down */
        { { 0.5f, 1, 0.5f }, 260.5 }, /* py: +s +x, +t +z: both .75 */
        { { 0.5f, -1, 0.5f }, 520.5 }, /* ny: +s +x (.75), +t -z (.25: 1.5 down) */
        { { -0.5f, 0, -1 }, 640.5 },  /* nz: +s is -x */
        { { 0, 0.25f, 1 }, 328.5 },   /* pz: +t is -y, t = .375: 2.5 down */
    };
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        VmTexLookup q = query(VM_ENVIRONMENT, p, 1);
        for (int k = 0; k < 4; k++)
            memcpy(q.corner[k], dirs[i].d, sizeof q.corner[k]);
        float out[1];
        ck_assert_msg(texsys_lookup(ts, &q, out, err, sizeof err) == 0, "%s", err);
        ck_assert_msg(fabsf(out[0] - dirs[i].want) < 1e-3, "direction %zu: %g, want %g", i,
                      out[0], dirs[i].want);
    }
    /* a cone covering a whole face averages it: 100 (f + 1) + 3.5 + 35 */
    VmTexLookup q = query(VM_ENVIRONMENT, p, 1);
    const float wide[4][3] = { { 1, -1, -1 }, { 1, 1, -1 }, { 1, 1, 1 }, { 1, -1, 1 } };
    memcpy(q.corner, wide, sizeof wide);
    float out[1];
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    EXPECT_NEAR(out[0], 138.5, 1e-3);
    float res[2];
    const char *s;
    ck_assert_int_eq(texsys_info(ts, p, "resolution", 'f', 2, res, &s, err, sizeof err), 1);
    ck_assert(res[0] == 8 && res[1] == 8);
    /* not 3 x 2 squares: a clear error */
    img = make_image(20, 16, 1, cube);
    snprintf(img->meta.texture_format, sizeof img->meta.texture_format, "CubeFace Environment");
    q.name = write_map(img, "badcube.tif", "");
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "3 x 2 square faces, not 20 x 16"), "%s", err);
    texsys_free(ts);
}
END_TEST

/* ---- shadows --------------------------------------------------------------------------------- */

static float halves(int x, int y, int c)
{
    return x < 16 ? 5.0f : 100.0f + (float)(y + c) * 0;
}

/* A shadow map seen from the origin down +z: world-to-camera the
   identity, world-to-screen (x, y, z) -> (x / z, y / z); its left half
   stores depth 5, its right half 100. */
static const char *shadow_map(const char *name)
{
    Image *img = make_image(32, 32, 1, halves);
    static const float proj[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0 };
    memcpy(img->meta.world_to_camera, (float[16]){ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 },
           sizeof img->meta.world_to_camera);
    memcpy(img->meta.world_to_screen, proj, sizeof proj);
    img->meta.has_world_to_camera = img->meta.has_world_to_screen = true;
    snprintf(img->meta.texture_format, sizeof img->meta.texture_format, "Shadow");
    return write_map(img, name, "");
}

static float shadow_at(TexSystem *ts, const char *p, float x, float y, float z, float bias)
{
    VmTexLookup q = query(VM_SHADOW, p, 1);
    q.bias = bias;
    for (int k = 0; k < 4; k++)
        q.corner[k][0] = x, q.corner[k][1] = y, q.corner[k][2] = z;
    float out[1];
    ck_assert_msg(texsys_lookup(ts, &q, out, err, sizeof err) == 0, "%s", err);
    return out[0];
}

START_TEST(shadow_depths)
{
    const char *p = shadow_map("shadow.tif");
    TexSystem *ts = texsys_new();
    /* (-1, 0, z): s = (-1/z + 1) / 2 < 0.5, the half at depth 5 */
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, 4, 0), 0, 0);    /* in front */
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, 8, 0), 1, 0);    /* behind */
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, 8, 4), 0, 0);    /* 8 - 4 is in front */
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, 8, 2.5f), 1, 0); /* 8 - 2.5 is not */
    EXPECT_NEAR(shadow_at(ts, p, 1, 0, 8, 0), 0, 0);     /* the far half */
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, 200, 0), 1, 0);
    EXPECT_NEAR(shadow_at(ts, p, -30, 0, 8, 0), 0, 0);   /* off the map */
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, -8, 0), 0, 0);   /* behind the light */
    /* current space 5 units nearer than world: (-1, 0, 3) is world (-1, 0, 8) */
    texsys_set_current_to_world(ts, (float[16]){ 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1 });
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, 3, 0), 1, 0);
    EXPECT_NEAR(shadow_at(ts, p, -1, 0, -1, 0), 0, 0);
    texsys_free(ts);
}
END_TEST

START_TEST(shadow_percentage_closer)
{
    const char *p = shadow_map("pcf.exr");
    TexSystem *ts = texsys_new();
    /* corners across s in [0.25, 0.75] at depth 8: the left half of the
       box is behind depth 5; 4 x 4 strata split exactly in two */
    VmTexLookup q = query(VM_SHADOW, p, 1);
    const float c[4][3] = { { -4, -1, 8 }, { 4, -1, 8 }, { 4, 1, 8 }, { -4, 1, 8 } };
    memcpy(q.corner, c, sizeof c);
    q.samples = 16;
    float out[1];
    ck_assert_msg(texsys_lookup(ts, &q, out, err, sizeof err) == 0, "%s", err);
    EXPECT_NEAR(out[0], 0.5, 0);
    /* with many samples and any count, near a half */
    q.samples = 37;
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    EXPECT_NEAR(out[0], 0.5, 0.1);
    /* blur widens a point into a box: 0.5 of texture space each way
       around s = 0.5 - 1/16: more than half is over the near half */
    q.samples = 64;
    for (int k = 0; k < 4; k++)
        q.corner[k][0] = -1, q.corner[k][1] = 0, q.corner[k][2] = 8;
    q.blur = 0.25f;
    ck_assert(texsys_lookup(ts, &q, out, err, sizeof err) == 0);
    ck_assert_msg(out[0] > 0.5 && out[0] < 1, "blurred: %g", out[0]);
    texsys_free(ts);
}
END_TEST

START_TEST(shadow_info_and_misuse)
{
    const char *p = shadow_map("info.tif");
    const char *plain = write_map(make_image(2, 2, 1, constant), "plain.tif", "");
    TexSystem *ts = texsys_new();
    const float c2w[16] = { 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1 };
    texsys_set_current_to_world(ts, c2w);
    float m[16], f[2];
    const char *s = NULL;
    ck_assert_int_eq(texsys_info(ts, p, "viewingmatrix", 'm', 16, m, &s, err, sizeof err), 1);
    for (int i = 0; i < 16; i++) /* world to camera is the identity */
        EXPECT_NEAR(m[i], c2w[i], 0);
    ck_assert_int_eq(texsys_info(ts, p, "projectionmatrix", 'm', 16, m, &s, err, sizeof err), 1);
    EXPECT_NEAR(m[2 * 4 + 3], 2, 0); /* z row: 2 z lands in w */
    EXPECT_NEAR(m[3 * 4 + 3], 3, 0); /* translation z 3 lands in w */
    EXPECT_NEAR(m[3 * 4 + 2], 1, 0);
    ck_assert_int_eq(texsys_info(ts, p, "type", 's', 1, NULL, &s, err, sizeof err), 1);
    ck_assert_str_eq(s, "shadow");
    ck_assert_int_eq(texsys_info(ts, p, "channels", 'f', 1, f, &s, err, sizeof err), 1);
    EXPECT_NEAR(f[0], 1, 0);
    ck_assert_int_eq(texsys_info(ts, plain, "type", 's', 1, NULL, &s, err, sizeof err), 1);
    ck_assert_str_eq(s, "texture");
    ck_assert_int_eq(texsys_info(ts, plain, "viewingmatrix", 'm', 16, m, &s, err, sizeof err), 0);
    ck_assert_int_eq(texsys_info(ts, plain, "resolution", 'f', 3, f, &s, err, sizeof err), 0);
    ck_assert_int_eq(texsys_info(ts, plain, "nonsense", 'f', 1, f, &s, err, sizeof err), 0);
    VmTexLookup q = query(VM_SHADOW, plain, 1);
    ck_assert_int_eq(texsys_lookup(ts, &q, f, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "plain.tif' is not a shadow map"), "%s", err);
    texsys_free(ts);
}
END_TEST

/* ---- errors, search path, threads -------------------------------------------------------------- */

START_TEST(missing_and_broken_textures)
{
    TexSystem *ts = texsys_new();
    VmTexLookup q = query(VM_TEXTURE, "x.tif", 3);
    float out[3];
    for (int again = 0; again < 2; again++) {
        ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
        ck_assert_str_eq(err, "cannot open texture 'x.tif': No such file or directory");
    }
    const char *s;
    ck_assert_int_eq(texsys_info(ts, "x.tif", "type", 's', 1, NULL, &s, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot open texture 'x.tif': No such file or directory");

    write_bytes(scratch("junk.tif"), "II*\0not really", 14);
    q.name = scratch("junk.tif");
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    char want[600];
    snprintf(want, sizeof want, "cannot read texture '%s': not a readable TIFF", q.name);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);

    /* half an EXR */
    Image *img = make_image(32, 32, 3, constant);
    ck_assert(image_write(img, scratch("whole.exr"), NULL, err, sizeof err) == 0);
    image_free(img);
    size_t n;
    uint8_t *d = read_bytes(scratch("whole.exr"), &n);
    write_bytes(scratch("half.exr"), d, n / 2);
    free(d);
    q.name = scratch("half.exr");
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "cannot read texture") && strstr(err, "half.exr"), "%s", err);

    /* a device never ends and a FIFO would wait for a writer: neither is read */
    q.name = "/dev/zero";
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot read texture '/dev/zero': not a regular file (a device)");
    ck_assert(mkfifo(scratch("fifo.tex"), 0600) == 0);
    q.name = scratch("fifo.tex");
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "fifo.tex': not a regular file (a FIFO)"), "%s", err);

    q.kind = VM_ENVIRONMENT, q.name = "nothing.exr";
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot open texture 'nothing.exr': No such file or directory");
    q.kind = VM_SHADOW, q.name = "nothing.shd";
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    ck_assert_str_eq(err, "cannot open texture 'nothing.shd': No such file or directory");
    texsys_free(ts);
}
END_TEST

/* The cache's limit: a 16 x 16 RGB pyramid is taken as 16 * 16 * 3 * 4 * 4/3
   = 4096 bytes, so a limit of 6000 holds one, and the second fails
   saying so (the first still works). */
START_TEST(memory_limit)
{
    const char *a = write_map(make_image(16, 16, 3, constant), "a16.tif", "clamp");
    const char *b = write_map(make_image(16, 16, 3, constant), "b16.tif", "clamp");
    TexSystem *ts = texsys_new();
    texsys_set_memory_limit(ts, 6000);
    EXPECT_NEAR(tex_at(ts, a, 0.5, 0.5), 0.25, 1e-6);
    VmTexLookup q = query(VM_TEXTURE, b, 3);
    float out[3];
    ck_assert_int_eq(texsys_lookup(ts, &q, out, err, sizeof err), -1);
    char want[700];
    snprintf(want, sizeof want, "cannot load texture '%s': its 4096 bytes would take the "
             "textures past their limit of 6000 bytes (4096 in use)", b);
    ck_assert_str_eq(err, want);
    EXPECT_NEAR(tex_at(ts, a, 0.25, 0.75), 0.25, 1e-6);
    texsys_free(ts);
}
END_TEST

START_TEST(search_path_and_host_signature)
{
    write_map(make_image(4, 4, 3, constant), "found.tif", "clamp");
    TexSystem *ts = texsys_new();
    char dirs[700];
    snprintf(dirs, sizeof dirs, "/nonexistent:%s", scratch(""));
    texsys_set_searchpath(ts, dirs);
    /* the VmHost callbacks, as the renderer plugs them in */
    VmHost host = { .texture = texsys_host_texture, .textureinfo = texsys_host_textureinfo,
                    .user = ts };
    VmTexLookup q = query(VM_TEXTURE, "found.tif", 3);
    set_box(&q, 0.2, 0.4, 0.6, 0.8);
    float out[3];
    ck_assert_msg(host.texture(host.user, &q, out, err, sizeof err) == 0, "%s", err);
    EXPECT_NEAR(out[2], 0.75, 1e-6);
    float res[2];
    const char *s;
    ck_assert_int_eq(host.textureinfo(host.user, "found.tif", "resolution", 'f', 2, res, &s, err,
                                      sizeof err), 1);
    ck_assert(res[0] == 4 && res[1] == 4);
    texsys_free(ts);
}
END_TEST

typedef struct Worker {
    TexSystem *ts;
    const char *path;
    int bad;
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    char e[256];
    for (int i = 0; i < 200; i++) {
        VmTexLookup q = query(VM_TEXTURE, w->path, 1);
        double s = (i % 8 + 0.5) / 8, t = (i / 8 % 4 + 0.5) / 4;
        set_box(&q, s, s, t, t);
        float out[1];
        if (texsys_lookup(w->ts, &q, out, e, sizeof e) != 0 ||
            out[0] != (float)(i % 8 + 10 * (i / 8 % 4)))
            w->bad++;
    }
    return NULL;
}

START_TEST(concurrent_first_use)
{
    const char *p = write_map(make_image(8, 4, 1, gradient), "threads.tif", "clamp");
    TexSystem *ts = texsys_new();
    pthread_t th[4];
    Worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (Worker){ ts, p, 0 };
        ck_assert(pthread_create(&th[i], NULL, work, &w[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        ck_assert_int_eq(w[i].bad, 0);
    }
    texsys_free(ts);
}
END_TEST

Suite *texture_suite(void)
{
    Suite *s = suite_create("texture");
    TCase *tc = tcase_create("texture");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, constant_everywhere);
    tcase_add_test(tc, gradient_is_bilinear);
    tcase_add_test(tc, checkerboard_mip_levels);
    tcase_add_test(tc, wrap_modes);
    tcase_add_test(tc, channels_and_fill);
    tcase_add_test(tc, odd_sizes_keep_the_mean);
    tcase_add_test(tc, environment_axes);
    tcase_add_test(tc, environment_cube_faces);
    tcase_add_test(tc, shadow_depths);
    tcase_add_test(tc, shadow_percentage_closer);
    tcase_add_test(tc, shadow_info_and_misuse);
    tcase_add_test(tc, missing_and_broken_textures);
    tcase_add_test(tc, memory_limit);
    tcase_add_test(tc, search_path_and_host_signature);
    tcase_add_test(tc, concurrent_first_use);
    suite_add_tcase(s, tc);
    return s;
}
