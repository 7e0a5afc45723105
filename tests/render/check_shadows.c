/*
** check_shadows.c: BMRT's ray-traced shadows (Attribute "light"
** "shadows" "on") and transmission through partly opaque surfaces,
** against closed forms, in both integrators on both shading backends.
** A matte plane (Ka = Kd = 1, no ambient light) under a point light of
** intensity I at height h reflects I h / (x^2 + y^2 + h^2)^(3/2)
** (RISpec's pointlight and matte: Cl = I / d^2 times cos = h / d);
** under a distant light at angle a from the normal, I cos a. A square
** occluder between them shadows a region computed by projection; the
** shadowed pixels are 0 under an opaque occluder, (1 - Os) times the lit
** value under a partly opaque one, and the lit value with shadows "off";
** a light shader's transmission() sees opacity too, visibility() not.
** The attribute's value at each light's declaration is the one used.
** BMRT's Attribute "render" "casts_shadows" makes an occluder cast no
** shadow ("none"), a full one ("opaque") or pass 1 - Os ("Os").
** A pixel is a mean of samples inside it (box filter of one pixel), so
** it must lie within the closed form's range over its area (0.2% and
** 1e-4 for rounding); the shadows' edges lie on pixel edges.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backends.h"
#include "pathtest.h"

/* The plane z = 0 seen from above (orthographic, 32 x 32 pixels over
   [-2, 2]^2, so pixel (i, j) covers x in [-2 + i/8, -2 + (i+1)/8] and y
   in [2 - (j+1)/8, 2 - j/8]), matte, with LIGHTS declared first and
   geometry BETWEEN it and the light. */
#define SCENE(lights, between)                                                                    \
    "Format 32 32 1\nProjection \"orthographic\"\nScreenWindow -2 2 -2 2\n"                        \
    "PixelFilter \"box\" 1 1\nOption \"integrator\" \"int maxdepth\" [2]\nTranslate 0 0 5\n"        \
    "WorldBegin\n" lights "Surface \"matte\"\n"                                                   \
    "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\n" between "WorldEnd\n"
/* A black square of side 1 about the z axis at height 1, of opacity OS. */
#define SQUARE(os)                                                                                \
    "AttributeBegin\nSurface \"constant\"\nColor [0 0 0]\nOpacity [" os "]\n"                     \
    "Polygon \"P\" [-0.5 -0.5 -1  -0.5 0.5 -1  0.5 0.5 -1  0.5 -0.5 -1]\nAttributeEnd\n"
/* The same under BMRT's Attribute "render" "casts_shadows" CASTS. */
#define SQUARE_CASTING(os, casts)                                                                 \
    "AttributeBegin\nAttribute \"render\" \"casts_shadows\" \"" casts "\"\n" SQUARE(os)             \
    "AttributeEnd\n"
#define POINT_LIGHT "LightSource \"pointlight\" 1 \"from\" [0 0 -2] \"intensity\" 4\n"
#define SHADOWS_ON "Attribute \"light\" \"shadows\" \"on\"\n"

/* What the plane reflects at (x, y) under the point light at height 2,
   intensity 4, or the distant light from (-1, 0, -1), intensity 1. */
static double point_lit(double x, double y)
{
    return 4 * 2 / pow(x * x + y * y + 4, 1.5);
}

static double distant_lit(double x, double y)
{
    (void)x, (void)y;
    return sqrt(0.5);
}

/* The range of lit over pixel (i, j) (on a 17 x 17 grid, edges
   included), times 1 - os where the shadow (the square [x0, x1] x [y0,
   y1] on the plane) covers it; pixel edges lie on the shadows' edges. */
static void pixel_range(double (*lit)(double, double), int i, int j, const double shadow[4],
                        double os, double *lo, double *hi)
{
    enum { N = 16 };
    *lo = INFINITY, *hi = -INFINITY;
    for (int a = 0; a <= N; a++)
        for (int b = 0; b <= N; b++) {
            double x = -2 + (i + (double)a / N) / 8, y = 2 - (j + (double)b / N) / 8;
            double xc = -2 + (i + 0.5) / 8, yc = 2 - (j + 0.5) / 8;
            bool in = xc > shadow[0] && xc < shadow[1] && yc > shadow[2] && yc < shadow[3];
            double v = lit(x, y) * (in ? 1 - os : 1);
            *lo = fmin(*lo, v), *hi = fmax(*hi, v);
        }
}

/* Checks every pixel of img outside the occluders' picture ([-seen,
   seen]^2, where the camera sees them) against pixel_want. */
static void assert_plane(const Image *img, double (*lit)(double, double), const double shadow[4],
                         double os, double seen, const char *what)
{
    int from = (int)floor((2 - seen) * 8), to = (int)ceil((2 + seen) * 8);
    for (int j = 0; j < 32; j++)
        for (int i = 0; i < 32; i++) {
            if (i >= from && i < to && j >= from && j < to)
                continue;
            double lo, hi;
            pixel_range(lit, i, j, shadow, os, &lo, &hi);
            for (int c = 0; c < 3; c++) {
                double got = image_pixel(img, i, j)[c];
                ck_assert_msg(got >= lo * 0.998 - 1e-4 && got <= hi * 1.002 + 1e-4,
                              "%s: pixel (%d, %d) channel %d is %g, want %g to %g", what, i, j, c,
                              got, lo, hi);
            }
        }
}

/* The point light's shadow of the square: projected from height 2
   through height 1 onto the plane, twice its size. */
static const double point_shadow[4] = { -1, 1, -1, 1 };
static const double no_shadow[4] = { 0, 0, 0, 0 };

static void each_integrator(const char *rib, double (*lit)(double, double),
                            const double shadow[4], double os, double seen, const char *what)
{
    static const RenderIntegrator integrators[] = { RENDER_INTEGRATOR_CLASSIC,
                                                    RENDER_INTEGRATOR_PATH };
    for (int k = 0; k < 2; k++) {
        Image *img = render(rib, integrators[k], 4, 2);
        char name[128];
        snprintf(name, sizeof name, "%s (%s)", what, k ? "path" : "classic");
        assert_plane(img, lit, shadow, os, seen, name);
        image_free(img);
    }
}

START_TEST(point_light_shadowed)
{
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT, SQUARE("1 1 1")), point_lit, point_shadow, 1,
                    0.5, "opaque square, shadows on");
    each_integrator(SCENE(SHADOWS_ON "Attribute \"light\" \"shadows\" [\"on\"]\n" POINT_LIGHT,
                          SQUARE("1 1 1")),
                    point_lit, point_shadow, 1, 0.5, "shadows [\"on\"]");
}
END_TEST

START_TEST(point_light_unshadowed)
{
    each_integrator(SCENE(POINT_LIGHT, SQUARE("1 1 1")), point_lit, no_shadow, 0,
                    0.5, "shadows by default off");
    each_integrator(SCENE("Attribute \"light\" \"shadows\" \"off\"\n" POINT_LIGHT,
                          SQUARE("1 1 1")),
                    point_lit, no_shadow, 0, 0.5, "shadows off");
}
END_TEST

START_TEST(shadows_at_declaration)
{
    /* on, light 1, off, light 2: light 1 alone is shadowed. Each light
       is seen alone (Illuminate switches the other off), as the path
       tracer's light samples pick one light each. */
#define SECOND_LIGHT "LightSource \"pointlight\" 2 \"from\" [0 0 -2] \"intensity\" 4\n"
#define SHADOWS_OFF "Attribute \"light\" \"shadows\" \"off\"\n"
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT SHADOWS_OFF SECOND_LIGHT "Illuminate 2 0\n",
                          SQUARE("1 1 1")),
                    point_lit, point_shadow, 1, 0.5, "on, light 1, off, light 2: light 1");
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT SHADOWS_OFF SECOND_LIGHT "Illuminate 1 0\n",
                          SQUARE("1 1 1")),
                    point_lit, no_shadow, 0, 0.5, "on, light 1, off, light 2: light 2");
    /* Set after the light, before the geometry: the light is unshadowed. */
    each_integrator(SCENE(POINT_LIGHT SHADOWS_ON, SQUARE("1 1 1")), point_lit, no_shadow, 0,
                    0.5, "on after the light");
#undef SECOND_LIGHT
#undef SHADOWS_OFF
}
END_TEST

START_TEST(half_opaque_occluder)
{
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT, SQUARE("0.5 0.5 0.5")), point_lit,
                    point_shadow, 0.5, 0.5, "square of opacity 0.5");
    /* Two layers of 0.5 let a quarter through: the second square at
       height 0.5, of side 1.5, casts the same shadow. */
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT,
                          SQUARE("0.5 0.5 0.5") "AttributeBegin\nTranslate 0 0 0.5\n"
                          "Scale 1.5 1.5 1\n" SQUARE("0.5 0.5 0.5") "AttributeEnd\n"),
                    point_lit, point_shadow, 0.75, 0.75, "two squares of opacity 0.5");
}
END_TEST

START_TEST(shader_shadows_see_opacity)
{
    /* A light's own shadow rays: transmission() (pointlight's "raytrace")
       passes 1 - Os as the attribute's shadows do; visibility()
       (tests/render/shaders/vislight.sl) is 0 behind any surface. */
    each_integrator(SCENE("LightSource \"pointlight\" 1 \"from\" [0 0 -2] \"intensity\" 4 "
                          "\"shadowname\" \"raytrace\"\n",
                          SQUARE("0.5 0.5 0.5")),
                    point_lit, point_shadow, 0.5, 0.5, "transmission() through opacity 0.5");
    each_integrator(SCENE("LightSource \"vislight\" 1 \"from\" [0 0 -2] \"intensity\" 4\n",
                          SQUARE("0.5 0.5 0.5")),
                    point_lit, point_shadow, 1, 0.5, "visibility() through opacity 0.5");
}
END_TEST

START_TEST(casts_shadows)
{
    /* "none": no shadow at all, even from an opaque square; "opaque": a
       full one from a square of opacity 0.5; "Os": 1 - Os passes;
       "shade" (the shader not run) as "Os". The same for a light
       shader's transmission(). */
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT, SQUARE_CASTING("1 1 1", "none")), point_lit,
                    no_shadow, 0, 0.5, "casts_shadows none");
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT, SQUARE_CASTING("0.5 0.5 0.5", "opaque")),
                    point_lit, point_shadow, 1, 0.5, "casts_shadows opaque");
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT, SQUARE_CASTING("0.5 0.5 0.5", "Os")),
                    point_lit, point_shadow, 0.5, 0.5, "casts_shadows Os");
    each_integrator(SCENE(SHADOWS_ON POINT_LIGHT, SQUARE_CASTING("0.25 0.25 0.25", "shade")),
                    point_lit, point_shadow, 0.25, 0.5, "casts_shadows shade");
#define RAYTRACED_LIGHT                                                                           \
    "LightSource \"pointlight\" 1 \"from\" [0 0 -2] \"intensity\" 4 \"shadowname\" \"raytrace\"\n"
    each_integrator(SCENE(RAYTRACED_LIGHT, SQUARE_CASTING("1 1 1", "none")), point_lit, no_shadow,
                    0, 0.5, "transmission() past casts_shadows none");
    each_integrator(SCENE(RAYTRACED_LIGHT, SQUARE_CASTING("0.5 0.5 0.5", "opaque")), point_lit,
                    point_shadow, 1, 0.5, "transmission() at casts_shadows opaque");
#undef RAYTRACED_LIGHT
}
END_TEST

START_TEST(distant_light_shadowed)
{
    /* Light along (1, 0, 1): the plane gets cos 45 degrees, and a square
       at height 4, out of the picture at x = -3, shadows [0.5, 1.5] x
       [-0.5, 0.5]. A light at infinity: the ray goes out of the scene,
       not the length of L (to - from) only. */
    static const double shadow[4] = { 0.5, 1.5, -0.5, 0.5 };
    each_integrator(SCENE(SHADOWS_ON "LightSource \"distantlight\" 1 \"from\" [0 0 0] "
                                     "\"to\" [1 0 1]\n",
                          "AttributeBegin\nTranslate -3 0 -3\n" SQUARE("1 1 1") "AttributeEnd\n"),
                    distant_lit, shadow, 1, 0, "distant light");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("shadows");
    TCase *tc = tcase_create("bmrt");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, point_light_shadowed);
    tcase_add_test(tc, point_light_unshadowed);
    tcase_add_test(tc, shadows_at_declaration);
    tcase_add_test(tc, half_opaque_occluder);
    tcase_add_test(tc, shader_shadows_see_opacity);
    tcase_add_test(tc, casts_shadows);
    tcase_add_test(tc, distant_light_shadowed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}
