/*
** check_path.c: the path tracer against closed forms and against the
** classic integrator. A white furnace (an albedo-1 matte sphere inside a
** constant-colour sphere of radiance 1) returns 1, and a plane of albedo
** Kd cutting that sphere returns Kd; a matte plane under a point light or
** an area light, and specular() and phong() highlights under a distant
** light (RISpec's closed forms), get the same direct light from both
** integrators (radiometry in render/path.h); the error of a noisy pixel
** mean falls as 1/sqrt(spp); bad integrator settings are errors.
** Tolerances are stated per test as multiples of the estimated noise.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "render/image/image.h"
#include "render/path.h"
#include "render/render.h"
#include "backends.h"
#include "pathtest.h"

/* A matte sphere of albedo 1 inside a sphere of constant radiance 1. */
#define FURNACE                                                                                   \
    "Format 32 32 1\nProjection \"perspective\" \"fov\" 20\nPixelFilter \"box\" 1 1\n"            \
    "Translate 0 0 5\nWorldBegin\nAttributeBegin\nSurface \"constant\"\nColor [1 1 1]\n"          \
    "Sphere 50 -50 50 360\nAttributeEnd\nSurface \"matte\"\nSphere 1 -1 1 360\nWorldEnd\n"

START_TEST(white_furnace)
{
    /* Every path leaves the convex sphere after one bounce and sees
       radiance 1: the sphere is 1 everywhere, within the noise of 16
       cosine samples a pixel (5 standard errors of the window's mean,
       and 0.5% for the tessellation's facets). */
    Image *img = render(FURNACE, RENDER_INTEGRATOR_PATH, 16, 2);
    for (int c = 0; c < 3; c++) {
        double m, se;
        window_mean(img, c, 8, 8, 24, 24, &m, &se);
        ck_assert_msg(fabs(m - 1) < 5 * se + 0.005, "channel %d: %g +- %g, want 1", c, m, se);
    }
    image_free(img);
}
END_TEST

/* A plane z = 0 seen from above (orthographic, 32 x 32 pixels over
   [-2, 2]^2), under LIGHTS, shaded as they say. */
#define PLANE_LIT(lights)                                                                         \
    "Format 32 32 1\nProjection \"orthographic\"\nScreenWindow -2 2 -2 2\n"                        \
    "PixelFilter \"box\" 1 1\nOption \"integrator\" \"int maxdepth\" [2]\nTranslate 0 0 5\n"        \
    "WorldBegin\n" lights "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n"
/* The plane, matte, lit by LIGHT. */
#define PLANE(light) PLANE_LIT(light "Surface \"matte\"\n")

/* A small black square between the light and the plane, casting a
   shadow (black, so that no light bounces between it and the plane). */
#define BLOCKER                                                                                   \
    "AttributeBegin\nSurface \"constant\"\nColor [0 0 0]\n"                                     \
    "Polygon \"P\" [-0.5 -0.5 -0.5  -0.5 0.5 -0.5  0.5 0.5 -0.5  0.5 -0.5 -0.5]\nAttributeEnd\n"

START_TEST(point_light_as_classic)
{
    /* Point and spot lights are delta lights: one sample, no noise, and
       the same pixel positions as the classic integrator's, so the images
       agree to rounding (Cl is irradiance over pi: path.h); shadowed, the
       light shader's transmission() ray goes into the path tracer's
       shadow stream (counted there) and casts the same shadow. */
    static const char *const ribs[] = {
        PLANE("LightSource \"pointlight\" 1 \"from\" [0.5 0.5 -1] \"intensity\" 2\n"),
        PLANE("LightSource \"pointlight\" 1 \"from\" [0.5 0.5 -1] \"intensity\" 2 "
              "\"shadowname\" \"raytrace\"\n" BLOCKER),
        PLANE("LightSource \"shadowspot\" 1 \"from\" [0 0 -2] \"to\" [0 0 0] \"intensity\" 4 "
              "\"coneangle\" 0.6 \"shadowname\" \"raytrace\"\n" BLOCKER),
    };
    for (size_t k = 0; k < sizeof ribs / sizeof *ribs; k++) {
        Image *classic = render(ribs[k], RENDER_INTEGRATOR_CLASSIC, 4, 2);
        RenderSettings rs;
        render_settings_init(&rs);
        rs.integrator = RENDER_INTEGRATOR_PATH, rs.spp = 4, rs.threads = 2, rs.quiet = true;
        RenderStats st;
        char err[512];
        Image *path = render_with(ribs[k], &rs, &st, err, sizeof err);
        ck_assert_msg(path != NULL, "%s", err);
        int dark = 0;
        for (int y = 0; y < 32; y++)
            for (int x = 0; x < 32; x++) {
                for (int c = 0; c < 4; c++)
                    ck_assert_float_eq_tol(image_pixel(path, x, y)[c],
                                           image_pixel(classic, x, y)[c], 1e-4);
                dark += image_pixel(path, x, y)[0] == 0;
            }
        ck_assert_msg(k == 0 ? st.bounce_shadow_rays[0] == 0 && dark == 0
                             : st.bounce_shadow_rays[0] > 0 && dark > 0,
                      "case %zu: %d pixels in shadow, %llu shadow rays", k, dark,
                      (unsigned long long)st.bounce_shadow_rays[0]);
        image_free(classic);
        image_free(path);
    }
}
END_TEST

START_TEST(emitting_diffuse_as_classic)
{
    /* A coloured surface that emits and reflects through diffuse(): the
       path tracer reads its lobe's weight from the first run's probe
       lane (path_shade.c) instead of running it again, and still gets
       the classic integrator's emission plus direct light, channel by
       channel, to rounding (a delta light, and nothing to bounce off). */
    const char *rib = PLANE_LIT("LightSource \"pointlight\" 1 \"from\" [0.5 0.5 -1] "
                                "\"intensity\" 2\nColor [0.2 0.5 1]\n"
                                "Surface \"glow\" \"Kd\" 0.6 \"Ke\" 0.25\n");
    Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 4, 2);
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 4, 2);
    static const float emits[3] = { 0.25f * 0.2f, 0.25f * 0.5f, 0.25f };
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++)
            for (int c = 0; c < 3; c++) {
                ck_assert_float_eq_tol(image_pixel(path, x, y)[c], image_pixel(classic, x, y)[c],
                                       1e-4);
                ck_assert_msg(image_pixel(path, x, y)[c] > emits[c],
                              "(%d, %d) channel %d: %g, emits %g", x, y, c,
                              image_pixel(path, x, y)[c], emits[c]);
            }
    image_free(classic);
    image_free(path);
}
END_TEST

/* An arealight disk of radius 1 facing the plane from 1 above it,
   one-sided, so the camera sees the plane through its back. */
#define DISK                                                                                      \
    "AttributeBegin\nSides 1\nTranslate 0 0 -1\nAreaLightSource \"arealight\" 1 "                   \
    "\"intensity\" 0.5 \"samples\" 64\nDisk 0 1 360\nAttributeEnd\nIlluminate 1 1\n"

START_TEST(glossy_as_classic)
{
    /* A distant light 30 degrees off the view axis of an orthographic
       camera looking straight at the plane (V = N): specular() is
       cos(15 deg)^(8/roughness) (the half vector halves the angle),
       phong() cos(30 deg)^size (R = N). Delta lights take no samples,
       so both integrators give the closed form to rounding. */
    static const struct {
        const char *params;
        double want;
    } cases[] = {
        { "\"Ks\" 1 \"roughness\" 0.8", 0.70695 }, /* cos(pi/12)^10 */
        /* PRMan's exponent at a typical roughness: RISpec's 1/roughness
           would give cos(pi/12)^10 = 0.707 here too. */
        { "\"Ks\" 1 \"roughness\" 0.1", 0.062446 }, /* cos(pi/12)^80 */
        { "\"Kp\" 1 \"size\" 4", 0.5625 },         /* cos(pi/6)^4 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char light[256], rib[1024];
        snprintf(light, sizeof light,
                 "LightSource \"distantlight\" 1 \"from\" [0 0 0] \"to\" [0.5 0 0.8660254]\n"
                 "Surface \"glossy\" %s\n",
                 cases[k].params);
        snprintf(rib, sizeof rib, PLANE_LIT("%s"), light);
        Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 1, 2);
        Image *path = render(rib, RENDER_INTEGRATOR_PATH, 1, 2);
        for (int c = 0; c < 3; c++) {
            ck_assert_float_eq_tol(image_pixel(classic, 16, 16)[c], cases[k].want, 1e-4);
            ck_assert_float_eq_tol(image_pixel(path, 16, 16)[c], cases[k].want, 1e-4);
        }
        image_free(classic);
        image_free(path);
    }
}
END_TEST

/* A plane with the given surface filling the view, inside a sphere of
   constant radiance 1 that it cuts in half. */
#define PLANE_FURNACE(surface)                                                                         \
    "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"                      \
    "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\nAttributeBegin\n"                     \
    "Surface \"constant\"\nColor [1 1 1]\nSphere 50 -50 50 360\nAttributeEnd\n"                  \
    "Surface " surface "\nPolygon \"P\" [-100 -100 0  -100 100 0  100 100 0  100 -100 0]\n" \
    "WorldEnd\n"

START_TEST(plane_furnace)
{
    /* Every bounce off the plane sees the sphere's radiance 1 over the
       whole hemisphere, so the plane returns its albedo for light from
       the camera (V = N): Kd for matte, the lobes' closed forms for
       specular() and phong() (lobe_energy) through the path tracer's
       directions from them (within 5 standard errors and 0.5% for the
       sphere's facets). */
    static const struct {
        const char *rib;
        double albedo;
    } cases[] = {
        { PLANE_FURNACE("\"matte\" \"Kd\" 0.3"), 0.3 },
        { PLANE_FURNACE("\"matte\" \"Kd\" 0.7"), 0.7 },
        { PLANE_FURNACE("\"glossy\" \"Ks\" 1 \"roughness\" 0.8"), 0.65625 },
        { PLANE_FURNACE("\"glossy\" \"Kp\" 1 \"size\" 4"), 0.4 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        Image *img = render(cases[k].rib, RENDER_INTEGRATOR_PATH, 16, 2);
        double m, se;
        window_mean(img, 0, 0, 0, 16, 16, &m, &se);
        ck_assert_msg(fabs(m - cases[k].albedo) < 5 * se + 0.005, "%s: %g +- %g, want %g",
                      cases[k].rib, m, se, cases[k].albedo);
        image_free(img);
    }
}
END_TEST

START_TEST(area_light_as_classic)
{
    /* Under the disk (the 8 x 8 pixels over [-0.5, 0.5]^2) the mean of
       the path tracer's pixels, its light samples and cosine-lobe hits on
       the disk under MIS, equals the classic integrator's within 5
       standard errors of both and 1% (the disk's facets). */
    Image *classic = render(PLANE(DISK), RENDER_INTEGRATOR_CLASSIC, 4, 2);
    Image *path = render(PLANE(DISK), RENDER_INTEGRATOR_PATH, 16, 2);
    double mc, sc, mp, sp;
    window_mean(classic, 0, 12, 12, 20, 20, &mc, &sc);
    window_mean(path, 0, 12, 12, 20, 20, &mp, &sp);
    ck_assert_msg(fabs(mp - mc) < 5 * sqrt(sc * sc + sp * sp) + 0.01 * mc,
                  "path %g +- %g, classic %g +- %g", mp, sp, mc, sc);
    image_free(classic);
    image_free(path);
}
END_TEST

START_TEST(glossy_area_light_as_classic)
{
    /* Diffuse plus a specular() highlight under the disk: the path
       tracer's light samples and its directions from the mixture of the
       cosine and half-vector lobes under MIS agree with the classic
       integrator's 64 light samples, within 5 standard errors and 1%. */
    const char *rib = PLANE_LIT(DISK "Surface \"glossy\" \"Kd\" 0.5 \"Ks\" 0.5 "
                                     "\"roughness\" 1.6\n");
    Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 4, 2);
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    double mc, sc, mp, sp;
    window_mean(classic, 0, 12, 12, 20, 20, &mc, &sc);
    window_mean(path, 0, 12, 12, 20, 20, &mp, &sp);
    ck_assert_msg(fabs(mp - mc) < 5 * sqrt(sc * sc + sp * sp) + 0.01 * mc,
                  "path %g +- %g, classic %g +- %g", mp, sp, mc, sc);
    image_free(classic);
    image_free(path);
}
END_TEST

/* RISpec's weight of a lighting call's lobe for unit N, V and L (the
   factor of Cl: pi f cos under path.h's radiometry). */
static double rsl_weight(const ShadeLobe *o, const float L[3])
{
    const float *N = o->N, *V = o->V;
    double nl = N[0] * L[0] + N[1] * L[1] + N[2] * L[2];
    if (nl < 0)
        return 0;
    if (o->kind == VM_LOBE_COSINE)
        return nl;
    double vn = V[0] * N[0] + V[1] * N[1] + V[2] * N[2], h[3], rl = 0;
    for (int k = 0; k < 3; k++)
        rl += (2 * vn * N[k] - V[k]) * L[k], h[k] = V[k] + L[k];
    if (o->kind == VM_LOBE_PHONG)
        return pow(fmax(0, rl), o->exponent);
    double len = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    return pow(fmax(0, (N[0] * h[0] + N[1] * h[1] + N[2] * h[2]) / len), o->exponent);
}

/* A lobe's albedo for light from V, (1/pi) times its weight over the
   hemisphere, estimated from n directions the lobe draws: its mean and
   standard error. */
static void albedo(const ShadeLobe *o, int n, double *mean, double *se)
{
    ShadeLobes lb = { .n = 1, .lobe = { *o } };
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        float u[3], L[3];
        for (int k = 0; k < 3; k++)
            u[k] = rt_unit(rt_hash((uint32_t)i, (uint32_t)k, 0xa1bed0u));
        path_lobes_sample(&lb, o->N, u, L);
        float pdf = path_lobes_pdf(&lb, o->N, L);
        double x = pdf > 0 ? rsl_weight(o, L) / (3.14159265358979 * pdf) : 0;
        s += x, s2 += x * x;
    }
    *mean = s / n;
    *se = sqrt(fmax(0, s2 / n - *mean * *mean) / n);
}

START_TEST(max_and_min_as_the_library)
{
    /* rt_maxf and rt_minf, which the shading stages use in place of
       fmaxf and fminf, answer as they do: the larger (smaller) value, and
       where one argument is NaN the other; both NaN, NaN. Volatile, so
       that the compiler folds none of the library's calls. */
    static const float v[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3e38f, -3e38f, 1e-45f,
                               INFINITY, -INFINITY, NAN };
    int n = (int)(sizeof v / sizeof *v);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            volatile float a = v[i], b = v[j];
            float want[2] = { fmaxf(a, b), fminf(a, b) }, got[2] = { rt_maxf(a, b), rt_minf(a, b) };
            for (int k = 0; k < 2; k++)
                ck_assert_msg(isnan(want[k]) ? isnan(got[k]) : got[k] == want[k],
                              "%s(%g, %g) = %g, the library's %g", k ? "rt_minf" : "rt_maxf",
                              (double)a, (double)b, (double)got[k], (double)want[k]);
        }
}
END_TEST

START_TEST(lobe_energy)
{
    /* Each lobe's albedo at normal incidence (V = N), drawn from its own
       density, against its closed form: cosine 1; phong() 2/(size+1),
       at most 1 from size 1 on; specular() (8/(m+2)) (1 - 2^-(m/2+1)),
       m = 8/roughness, at most 1 from m 5.3 (roughness 1.5) on and 1.5
       at m 2: there the formula reflects more than it receives, and the
       path tracer keeps it (path.h). Within 5 standard errors. */
    static const struct {
        VmLobeKind kind;
        float exponent;
        double want;
    } cases[] = {
        { VM_LOBE_COSINE, 0, 1 },        { VM_LOBE_PHONG, 1, 1 },
        { VM_LOBE_PHONG, 4, 0.4 },       { VM_LOBE_PHONG, 50, 2.0 / 51 },
        { VM_LOBE_SPECULAR, 10, 0.65625 }, { VM_LOBE_SPECULAR, 2, 1.5 },
        { VM_LOBE_SPECULAR, 100, 8.0 / 102 * (1 - pow(2, -51)) },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        ShadeLobe o = { cases[k].kind, { 0, 0, 1 }, { 0, 0, 1 }, cases[k].exponent };
        double m, se;
        albedo(&o, 100000, &m, &se);
        ck_assert_msg(fabs(m - cases[k].want) <= 5 * se + 1e-6, "lobe %d^%g: %g +- %g, want %g",
                      (int)cases[k].kind, cases[k].exponent, m, se, cases[k].want);
    }
    /* Light from 60 degrees off the normal: the lobes that conserve
       energy at normal incidence still do (part of each falls below the
       horizon). */
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        ShadeLobe o = { cases[k].kind, { 0, 0, 1 }, { 0.8660254f, 0, 0.5f }, cases[k].exponent };
        double m, se;
        albedo(&o, 100000, &m, &se);
        ck_assert_msg(cases[k].want > 1 || m <= 1 + 5 * se + 1e-6, "lobe %d^%g at 60 deg: %g +- %g",
                      (int)cases[k].kind, cases[k].exponent, m, se);
    }
}
END_TEST

/* The root-mean-square difference of channel 0 of two images. */
static double rms(const Image *a, const Image *b)
{
    double s = 0;
    for (int y = 0; y < a->height; y++)
        for (int x = 0; x < a->width; x++) {
            double d = image_pixel(a, x, y)[0] - image_pixel(b, x, y)[0];
            s += d * d;
        }
    return sqrt(s / (a->width * a->height));
}

START_TEST(error_falls_as_one_over_root_spp)
{
    /* Against a render of 256 samples a pixel, the error at 4 and at 64
       is sqrt(1/4 + 1/256) : sqrt(1/64 + 1/256) = 3.6 : 1 (the
       reference's own noise included); 2.5 to 5.5 allows for the
       estimate of each. */
    Image *ref = render(PLANE(DISK), RENDER_INTEGRATOR_PATH, 256, 2);
    Image *lo = render(PLANE(DISK), RENDER_INTEGRATOR_PATH, 4, 2);
    Image *hi = render(PLANE(DISK), RENDER_INTEGRATOR_PATH, 64, 2);
    double ratio = rms(lo, ref) / rms(hi, ref);
    ck_assert_msg(ratio > 2.5 && ratio < 5.5, "error ratio %g, want about 3.6", ratio);
    image_free(ref);
    image_free(lo);
    image_free(hi);
}
END_TEST

START_TEST(same_image_for_any_thread_count)
{
    Image *one = render(PLANE(DISK), RENDER_INTEGRATOR_PATH, 4, 1);
    Image *two = render(PLANE(DISK), RENDER_INTEGRATOR_PATH, 4, 2);
    ck_assert_int_eq(memcmp(one->pixels, two->pixels, sizeof(float) * 32 * 32 * 5), 0);
    image_free(one);
    image_free(two);
}
END_TEST

/* Renders a matte square over [x0, 2] x [-2, 2] seen from the camera's
   side, orthographic over [-2, 2]^2 at the given size, with no light and
   path length 2, at spp samples a pixel; its counters in *st. */
static void render_square(int size, float x0, int spp, RenderStats *st)
{
    char rib[512], err[512];
    snprintf(rib, sizeof rib,
             "Format %d %d 1\nPixelFilter \"box\" 1 1\nProjection \"orthographic\"\n"
             "ScreenWindow -2 2 -2 2\nTranslate 0 0 1\nWorldBegin\nSurface \"matte\"\n"
             "Polygon \"P\" [%g -2 0  %g 2 0  2 2 0  2 -2 0]\nWorldEnd\n",
             size, size, x0, x0);
    RenderSettings rs;
    render_settings_init(&rs);
    rs.integrator = RENDER_INTEGRATOR_PATH, rs.spp = spp, rs.threads = 2, rs.quiet = true;
    rs.max_depth = 2;
    Image *img = render_with(rib, &rs, st, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    image_free(img);
}

START_TEST(stats_per_bounce_and_stage)
{
    /* The square filling a 32x32 frame: every camera ray hits (bounce 0:
       32*32*4 rays) and with path length 2 every path takes one more
       segment and escapes (bounce 1: as many rays, none beyond); each
       16x16 tile's 1024 samples go into the queue of 2048 at once, half
       filling it twice (8 rounds, room for 8 * 2048). The stages'
       seconds add up to no more than the threads' time. */
    RenderStats st;
    render_square(32, -2, 4, &st);
    ck_assert_uint_eq(st.bounce_rays[0], 32 * 32 * 4);
    ck_assert_uint_eq(st.bounce_rays[1], 32 * 32 * 4);
    ck_assert_uint_eq(st.bounce_rays[2], 0);
    ck_assert_uint_eq(st.rounds, 8);
    ck_assert_uint_eq(st.round_rays, 8 * 1024);
    ck_assert_uint_eq(st.round_room, 8 * 2048);
    double sum = 0;
    for (int k = 0; k < RENDER_STAGES; k++) {
        ck_assert(st.stage_seconds[k] >= 0);
        sum += st.stage_seconds[k];
    }
    ck_assert_msg(sum <= st.seconds * st.threads + 1e-3, "stages %g s, render %g s on %d", sum,
                  st.seconds, st.threads);
}
END_TEST

START_TEST(queue_refills)
{
    /* The square over half of one 16x16 tile at 32 samples a pixel:
       8192 camera rays, half of them hitting and going on (4096 rays at
       bounce 1). Refilled with camera paths as paths end, the queue of
       2048 takes the 12288 rays in 6 full rounds and a last partial one
       at most; run in waves that it emptied, it took 8, 75% full. */
    RenderStats st;
    render_square(16, 0, 32, &st);
    ck_assert_uint_eq(st.bounce_rays[0], 8192);
    ck_assert_uint_eq(st.bounce_rays[1], 4096);
    ck_assert_uint_eq(st.round_rays, 12288);
    ck_assert_msg(st.rounds <= 7, "%llu rounds", (unsigned long long)st.rounds);
}
END_TEST

START_TEST(emitter_without_area)
{
    /* An area light with no geometry, and one on a polygon of no area
       (its points on a line), give the path tracer nothing to sample:
       errors naming the light, and no image. */
    static const char *const cases[][2] = {
        { "AttributeBegin\nAreaLightSource \"arealight\" 1\nAttributeEnd\n",
          "test.rib:5:1: error: area light \"arealight\" has no area to emit from (no geometry "
          "follows it); the path tracer samples its surface" },
        { "AttributeBegin\nAreaLightSource \"arealight\" 1\n"
          "Polygon \"P\" [0 0 0  1 1 0  2 2 0]\nAttributeEnd\n",
          "test.rib:5:1: error: area light \"arealight\" has no area to emit from (its "
          "triangles have none); the path tracer samples its surface" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char rib[512], err[512];
        snprintf(rib, sizeof rib,
                 "Format 4 4 1\nTranslate 0 0 5\nWorldBegin\n%sSurface \"matte\"\n"
                 "Sphere 1 -1 1 360\nWorldEnd\n",
                 cases[i][0]);
        RenderSettings rs;
        render_settings_init(&rs);
        rs.quiet = true, rs.integrator = RENDER_INTEGRATOR_PATH;
        ck_assert_ptr_null(render_with(rib, &rs, NULL, err, sizeof err));
        ck_assert_str_eq(err, cases[i][1]);
    }
}
END_TEST

START_TEST(bad_integrator_options)
{
    static const char *const cases[][2] = {
        { "Option \"integrator\" \"string name\" \"bidir\"\n",
          "rtrender: error: Option \"integrator\" \"name\" is \"classic\" or \"path\", not "
          "\"bidir\"" },
        { "Option \"integrator\" \"int maxdepth\" [0]\n",
          "rtrender: error: Option \"integrator\" \"maxdepth\" needs a path length from 1 to "
          "1024, not 0" },
        { "Option \"integrator\" \"int maxdepth\" [100000]\n",
          "rtrender: error: Option \"integrator\" \"maxdepth\" needs a path length from 1 to "
          "1024, not 100000" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char rib[512], err[512];
        snprintf(rib, sizeof rib, "Format 4 4 1\n%sWorldBegin\nWorldEnd\n", cases[i][0]);
        RenderSettings rs;
        render_settings_init(&rs);
        rs.quiet = true;
        ck_assert_ptr_null(render_with(rib, &rs, NULL, err, sizeof err));
        ck_assert_str_eq(err, cases[i][1]);
    }
}
END_TEST

/* A plane filling an orthographic view (z = 0, the camera on the -z
   side, open to the whole hemisphere on that side), shaded by SURFACE,
   paths of length 16, under LIGHT. */
#define PLANE_UNDER(light, surface)                                                               \
    "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"                      \
    "PixelFilter \"box\" 1 1\nOption \"integrator\" \"int maxdepth\" [16]\nTranslate 0 0 5\n"      \
    "WorldBegin\n" light surface "Polygon \"P\" [-100 -100 0  -100 100 0  100 100 0  100 -100 0]\n" \
    "WorldEnd\n"
/* The plane, matte. */
#define PLANE_ENV(light) PLANE_UNDER(light, "Surface \"matte\"\n")

START_TEST(env_furnace)
{
    /* A constant environment of radiance L (envlight without a map) over
       an albedo-1 matte sphere returns L on every channel, within 5
       standard errors and 0.5% for the facets; the classic integrator
       sees envlight as the ambient light L, which matte's ambient() term
       turns into the same L (a convex sphere sees all the sky). */
    const char *rib = "Format 32 32 1\nProjection \"perspective\" \"fov\" 20\n"
                      "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
                      "LightSource \"envlight\" 1 \"float intensity\" 2 "
                      "\"color lightcolor\" [0.25 0.5 1]\n"
                      "Surface \"matte\"\nSphere 1 -1 1 360\nWorldEnd\n";
    static const double want[3] = { 0.5, 1, 2 };
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 1, 2);
    assert_mean(path, 8, 8, 24, 24, want, 0.005, "the sphere");
    for (int c = 0; c < 3; c++) {
        ck_assert_float_eq_tol(image_pixel(classic, 16, 16)[c], want[c], 1e-4);
        /* the camera sees the environment where it misses the sphere */
        ck_assert_float_eq_tol(image_pixel(path, 0, 0)[c], want[c], 1e-5);
    }
    image_free(path);
    image_free(classic);
}
END_TEST

START_TEST(env_map_closed_form)
{
    /* A 16 x 8 lat-long map (RenderMan's: +z at t = 0) of radiance 0.2
       with one sun texel 1000 times brighter, lighting the plane's side
       (-z, rows 4..7). The plane's irradiance is the sum over texels of
       L times the integral of max(0, -z) over the texel, (2 pi / 16) (z1^2
       - z0^2) / 2 for a texel between z0 = cos(pi j / 8) and z1 = cos(pi
       (j + 1) / 8) with z <= 0, and white matte reflects it over pi. With
       the map's importance sampling the mean of 16 samples a pixel is
       within 5 standard errors of it (and 0.2% for float sums). */
    enum { W = 16, H = 8 };
    Image *map = image_new(W, H, 3);
    double E[3] = { 0, 0, 0 };
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            float *v = image_pixel(map, i, j);
            bool sun = i == 5 && j == 5;
            v[0] = sun ? 200 : 0.2f, v[1] = sun ? 100 : 0.2f, v[2] = sun ? 50 : 0.2f;
            double z0 = cos(M_PI * j / H), z1 = cos(M_PI * (j + 1) / H);
            for (int c = 0; c < 3; c++)
                E[c] += j >= H / 2 ? v[c] * (2 * M_PI / W) * (z1 * z1 - z0 * z0) / 2 : 0;
        }
    char path_map[64], rib[1024];
    save_map(map, path_map);
    snprintf(rib, sizeof rib, PLANE_ENV("LightSource \"envlight\" 1 \"string mapname\" \"%s\"\n"),
             path_map);
    Image *img = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    unlink(path_map);
    const double want[3] = { E[0] / M_PI, E[1] / M_PI, E[2] / M_PI };
    assert_mean(img, 0, 0, 16, 16, want, 0.002, "the plane");
    image_free(img);
}
END_TEST

START_TEST(env_light_off)
{
    /* A surface the environment light is off for (Illuminate 1 0) gets
       none of its light, neither sampled nor seen by its bounces. */
    const char *rib = PLANE_ENV("LightSource \"envlight\" 1\nIlluminate 1 0\n");
    Image *img = render(rib, RENDER_INTEGRATOR_PATH, 4, 2);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            for (int c = 0; c < 3; c++)
                ck_assert_float_eq(image_pixel(img, x, y)[c], 0);
    image_free(img);
}
END_TEST

START_TEST(env_map_unreadable)
{
    /* A map that cannot be read, a light whose space flattens directions
       and a second environment light are errors at the light, no image. */
    RenderSettings rs;
    render_settings_init(&rs);
    rs.quiet = true, rs.integrator = RENDER_INTEGRATOR_PATH;
    char err[512];
    const char *rib =
        PLANE_ENV("LightSource \"envlight\" 1 \"string mapname\" \"/nonexistent/sky.exr\"\n");
    ck_assert_ptr_null(render_with(rib, &rs, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "test.rib:8:1: error: environment light \"envlight\": ") == err
                      && strstr(err, "/nonexistent/sky.exr"),
                  "%s", err);
    /* A cube-face map (six 1 x 1 faces in RenderMan's 3 x 2 layout) is
       refused by name, not read as a lat-long one. */
    char cube[64], text[1024];
    Image *faces = grey_map(3, 2, (const float[]){ 1, 1 });
    strcpy(faces->meta.texture_format, "CubeFace Environment");
    save_map(faces, cube);
    snprintf(text, sizeof text,
             PLANE_ENV("LightSource \"envlight\" 1 \"string mapname\" \"%s\"\n"), cube);
    ck_assert_ptr_null(render_with(text, &rs, NULL, err, sizeof err));
    unlink(cube);
    char want[256];
    snprintf(want, sizeof want, "test.rib:8:1: error: environment light \"envlight\": '%s' is a "
             "CubeFace Environment map; the path tracer's environment light takes lat-long "
             "maps (MakeLatLongEnvironment)", cube);
    ck_assert_str_eq(err, want);
    rib = PLANE_ENV("AttributeBegin\nScale 1 1 0\nLightSource \"envlight\" 1\nAttributeEnd\n");
    ck_assert_ptr_null(render_with(rib, &rs, NULL, err, sizeof err));
    ck_assert_str_eq(err, "test.rib:10:1: error: environment light \"envlight\": its space is "
                          "singular (a zero scale?): no direction has a place on the map");
    rib = PLANE_ENV("LightSource \"envlight\" 1\nLightSource \"envlight\" 2\n");
    ck_assert_ptr_null(render_with(rib, &rs, NULL, err, sizeof err));
    ck_assert_str_eq(err, "test.rib:9:1: error: a second environment light; the path tracer "
                          "takes one (the first is at line 8)");
}
END_TEST

START_TEST(trace_is_a_specular_lobe)
{
    /* trace() becomes a delta lobe: a plane that is a perfect mirror
       (reflector.sl) facing the camera shows the environment straight
       behind the camera (world -z: the map's lower half, 0.75; the upper
       half is 0.125), with no noise (one lobe, weight 1). */
    static const float rows[4] = { 0.125f, 0.125f, 0.75f, 0.75f };
    char map[64], rib[1024];
    save_map(grey_map(8, 4, rows), map);
    snprintf(rib, sizeof rib,
             PLANE_UNDER("LightSource \"envlight\" 1 \"string mapname\" \"%s\"\n",
                         "Surface \"reflector\"\n"),
             map);
    Image *img = render(rib, RENDER_INTEGRATOR_PATH, 4, 2);
    unlink(map);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            for (int c = 0; c < 3; c++)
                ck_assert_float_eq_tol(image_pixel(img, x, y)[c], 0.75, 1e-6);
    image_free(img);
}
END_TEST

START_TEST(trace_and_diffuse_furnace)
{
    /* mirror.sl without its highlight (Ks 0) reflects Kd through
       diffuse() and Kr through trace(): under a constant environment of
       1 the plane returns Kd + Kr (0.3 + 0.5), the next direction picked
       between the trace() call and the cosine lobe by their weights,
       light samples weighed against the lobe's share (5 standard errors
       of the mean of 16 samples a pixel). */
    const char *rib = PLANE_UNDER("LightSource \"envlight\" 1\n",
                                  "Surface \"mirror\" \"Kd\" 0.3 \"Kr\" 0.5 \"Ks\" 0\n");
    Image *img = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    assert_mean(img, 0, 0, 16, 16, (const double[3]){ 0.8, 0.8, 0.8 }, 1e-4, "the plane");
    image_free(img);
}
END_TEST

/* A glass slab 0.2 thick (glass.sl, index 1.5) between the camera and
   LIGHT, seen face on. */
#define SLAB(light)                                                                               \
    PLANE_UNDER(light "Surface \"glass\"\n"                                                       \
                      "Polygon \"P\" [-100 -100 0.2  100 -100 0.2  100 100 0.2  -100 100 0.2]\n", \
                "")

START_TEST(glass_slab_transmittance)
{
    /* At normal incidence each face reflects R = ((n - 1) / (n + 1))^2
       = 0.04 (Fresnel) and passes 1 - R; with every inner reflection the
       slab passes (1 - R)^2 / (1 - R^2) = (1 - R) / (1 + R) = 0.923077.
       Lit from behind only (world +z: the map's upper half, 1; the
       camera's side 0), the slab shows its transmittance, and under a
       constant environment (energy: 1 = T + R), 1. Each path is worth
       0 or 1 (the Fresnel weights pick the lobes), so 5 standard errors
       of 64 samples a pixel tell T from one face's 1 - R = 0.96. */
    static const float rows[2] = { 1, 0 };
    char map[64], rib[1024];
    save_map(grey_map(4, 2, rows), map);
    snprintf(rib, sizeof rib, SLAB("LightSource \"envlight\" 1 \"string mapname\" \"%s\"\n"), map);
    const char *furnace = SLAB("LightSource \"envlight\" 1\n");
    const struct {
        const char *rib;
        double want;
    } cases[] = { { rib, 0.96 / 1.04 }, { furnace, 1 } };
    for (int k = 0; k < 2; k++) {
        Image *img = render(cases[k].rib, RENDER_INTEGRATOR_PATH, 64, 2);
        const double want[3] = { cases[k].want, cases[k].want, cases[k].want };
        assert_mean(img, 0, 0, 16, 16, want, 1e-4, k ? "under a constant sky" : "lit from behind");
        image_free(img);
    }
    unlink(map);
}
END_TEST

START_TEST(glass_sphere_furnace)
{
    /* A glass sphere (refraction at every angle, Fresnel weights
       summing to 1, no total internal reflection in a sphere) under a
       constant environment of 1 returns 1 where it covers the view. */
    const char *rib = "Format 32 32 1\nProjection \"perspective\" \"fov\" 20\n"
                      "PixelFilter \"box\" 1 1\nOption \"integrator\" \"int maxdepth\" [16]\n"
                      "Translate 0 0 5\nWorldBegin\nLightSource \"envlight\" 1\n"
                      "Surface \"glass\"\nSphere 1 -1 1 360\nWorldEnd\n";
    Image *img = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    assert_mean(img, 8, 8, 24, 24, (const double[3]){ 1, 1, 1 }, 1e-3, "the sphere");
    image_free(img);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("path");
    TCase *tc = tcase_create("path");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, white_furnace);
    tcase_add_test(tc, point_light_as_classic);
    tcase_add_test(tc, emitting_diffuse_as_classic);
    tcase_add_test(tc, glossy_as_classic);
    tcase_add_test(tc, plane_furnace);
    tcase_add_test(tc, area_light_as_classic);
    tcase_add_test(tc, glossy_area_light_as_classic);
    tcase_add_test(tc, max_and_min_as_the_library);
    tcase_add_test(tc, lobe_energy);
    tcase_add_test(tc, error_falls_as_one_over_root_spp);
    tcase_add_test(tc, same_image_for_any_thread_count);
    tcase_add_test(tc, stats_per_bounce_and_stage);
    tcase_add_test(tc, queue_refills);
    tcase_add_test(tc, emitter_without_area);
    tcase_add_test(tc, bad_integrator_options);
    tcase_add_test(tc, env_furnace);
    tcase_add_test(tc, env_map_closed_form);
    tcase_add_test(tc, env_light_off);
    tcase_add_test(tc, env_map_unreadable);
    tcase_add_test(tc, trace_is_a_specular_lobe);
    tcase_add_test(tc, trace_and_diffuse_furnace);
    tcase_add_test(tc, glass_slab_transmittance);
    tcase_add_test(tc, glass_sphere_furnace);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}
