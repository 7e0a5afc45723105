/*
** check_path_lobes.c: the path tracer's environment() lobes and light
** categories against closed forms and the classic integrator. A mirror
** that looks its reflection up in an environment map (envmirror.sl)
** shows that map where nothing is in the way, and what is in the way
** where something is, its hits shaded in batches, and a map that cannot
** be read is an error at the shader's line; illuminance("category", ...) sums the lights of its
** category alone, delta lights and area lights, on both shading
** backends.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends.h"
#include "pathtest.h"

/* A plane z = 0 (world z up, as environment maps are) filling an
   orthographic view from above, shaded by SURFACE, under LIGHTS. The
   mirror direction is world +z: the map's top row (t = 0), or WALL,
   which hangs at z = 10, above the camera. */
#define FROM_ABOVE(lights, surface)                                                               \
    "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"                      \
    "PixelFilter \"box\" 1 1\nOption \"integrator\" \"int maxdepth\" [4]\nTranslate 0 0 5\n"       \
    "Rotate 180 1 0 0\nWorldBegin\n" lights surface                                               \
    "Polygon \"P\" [-100 -100 0  -100 100 0  100 100 0  100 -100 0]\nWorldEnd\n"
#define WALL                                                                                      \
    "AttributeBegin\nSurface \"constant\"\nColor [0.3 0.6 0.9]\n"                               \
    "Polygon \"P\" [-100 -100 10  -100 100 10  100 100 10  100 -100 10]\nAttributeEnd\n"

/* A 4 x 2 map, its upper half (world +z) SKY and its lower half
   ground. */
static const float SKY[3] = { 0.25f, 0.5f, 0.625f }; /* exact in half floats */
static void sky_map(char path[64])
{
    Image *map = image_new(4, 2, 3);
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++)
            image_pixel(map, i, 0)[c] = SKY[c], image_pixel(map, i, 1)[c] = 0.75f;
    save_map(map, path);
}

/* Asserts that every pixel of img is want, to rounding. */
static void assert_flat(const Image *img, const double want[3], const char *what)
{
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            for (int c = 0; c < 3; c++)
                ck_assert_msg(fabs(image_pixel(img, x, y)[c] - want[c]) < 1e-5,
                              "%s: (%d, %d) channel %d is %g, want %g", what, x, y, c,
                              (double)image_pixel(img, x, y)[c], want[c]);
}

START_TEST(environment_open_scene)
{
    /* Nothing above the mirror: the path tracer follows the lookup's
       lobe (its only one, weight Kr = 0.5, so no noise) out of the
       scene, where it sees the lookup, Kr * SKY; the classic integrator
       shades the lookup as the shader's own colour, the same. */
    char map[64], rib[1024];
    sky_map(map);
    snprintf(rib, sizeof rib,
             FROM_ABOVE("", "Surface \"envmirror\" \"Kr\" 0.5 \"string envname\" \"%s\"\n"), map);
    const double want[3] = { 0.5 * SKY[0], 0.5 * SKY[1], 0.5 * SKY[2] };
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 4, 2);
    Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 1, 2);
    unlink(map);
    assert_flat(path, want, "path");
    assert_flat(classic, want, "classic");
    image_free(path);
    image_free(classic);
}
END_TEST

START_TEST(environment_reflects_geometry)
{
    /* The wall (constant, radiance (0.3, 0.6, 0.9)) above the mirror is
       what its lobe now meets: Kr times the wall, which only a lobe
       taken to camera space from the world-space direction the lookup
       reads finds (camera space's +z goes down, through the plane). With
       trace() of the same direction besides (Kr 0.25, Kt 0.5) the two
       lobes, each picked by its weight, each see the wall: 0.75 times it,
       with no noise. The classic integrator still shows the map. */
    char map[64], rib[1024];
    sky_map(map);
    static const char *const params[2] = { "\"Kr\" 0.5", "\"Kr\" 0.25 \"Kt\" 0.5" };
    static const double k[2] = { 0.5, 0.75 };
    for (int i = 0; i < 2; i++) {
        snprintf(rib, sizeof rib,
                 FROM_ABOVE(WALL, "Surface \"envmirror\" %s \"string envname\" \"%s\"\n"),
                 params[i], map);
        const double want[3] = { k[i] * 0.3, k[i] * 0.6, k[i] * 0.9 };
        Image *path = render(rib, RENDER_INTEGRATOR_PATH, 4, 2);
        assert_flat(path, want, params[i]);
        image_free(path);
    }
    Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 1, 2);
    /* 0.25 of the map, 0.5 of the wall (trace()) */
    const double mixed[3] = { 0.25 * SKY[0] + 0.15, 0.25 * SKY[1] + 0.3, 0.25 * SKY[2] + 0.45 };
    assert_flat(classic, mixed, "classic");
    image_free(classic);
    unlink(map);
}
END_TEST

START_TEST(environment_hits_shade_together)
{
    /* The host is told each environment() lookup's lane, so that hits
       making lookups are run together: the 16 x 16 x 4 = 1024 paths of
       the open scene each hit the mirror once and leave along its
       lookup's lobe; their hits run in batches, without lights and then
       with the one call answering 1, at least 8 hits a run on average.
       Hit by hit (a run each, as when the host could not tell lookups
       apart) they took 1072 runs. The image is still Kr * SKY. */
    char map[64], rib[1024], err[1024];
    sky_map(map);
    snprintf(rib, sizeof rib,
             FROM_ABOVE("", "Surface \"envmirror\" \"Kr\" 0.5 \"string envname\" \"%s\"\n"), map);
    RenderSettings rs;
    render_settings_init(&rs);
    rs.integrator = RENDER_INTEGRATOR_PATH, rs.spp = 4, rs.threads = 1, rs.quiet = true;
    RenderStats st;
    Image *path = render_with(rib, &rs, &st, err, sizeof err);
    unlink(map);
    ck_assert_msg(path != NULL, "%s", err);
    assert_flat(path, (const double[3]){ 0.5 * SKY[0], 0.5 * SKY[1], 0.5 * SKY[2] }, "path");
    ck_assert_msg(st.batches <= 1024 / 8, "%llu runs for 1024 hits", (unsigned long long)st.batches);
    image_free(path);
}
END_TEST

START_TEST(environment_lobe_sees_its_map)
{
    /* Under an environment light too (constant, 2), a path leaving
       along the lookup's lobe sees the lookup, not the light: Kr *
       SKY. */
    char map[64], rib[1024];
    sky_map(map);
    snprintf(rib, sizeof rib,
             FROM_ABOVE("LightSource \"envlight\" 1 \"intensity\" 2\n",
                        "Surface \"envmirror\" \"Kr\" 0.5 \"string envname\" \"%s\"\n"),
             map);
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 4, 2);
    unlink(map);
    assert_flat(path, (const double[3]){ 0.5 * SKY[0], 0.5 * SKY[1], 0.5 * SKY[2] }, "path");
    image_free(path);
}
END_TEST

START_TEST(environment_and_diffuse_furnace)
{
    /* Kd 0.3 of diffuse() under a constant environment light of 1 and
       Kr 0.5 of a map of 1: the plane returns 0.8, the next direction
       picked between the lookup's lobe and the cosine lobe by their
       weights, light samples weighed against the cosine lobe's share (5
       standard errors of the mean of 16 samples a pixel). */
    static const float ones[2] = { 1, 1 };
    char map[64], rib[1024];
    save_map(grey_map(4, 2, ones), map);
    snprintf(rib, sizeof rib,
             FROM_ABOVE("LightSource \"envlight\" 1\n", "Surface \"envmirror\" \"Kr\" 0.5 "
                                                        "\"Kd\" 0.3 \"string envname\" \"%s\"\n"),
             map);
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    unlink(map);
    assert_mean(path, 0, 0, 16, 16, (const double[3]){ 0.8, 0.8, 0.8 }, 1e-4, "the plane");
    image_free(path);
}
END_TEST

START_TEST(environment_map_unreadable)
{
    /* A lookup's map that cannot be read stops the path tracer's render
       with an error at the shader's line, and no image. */
    RenderSettings rs;
    render_settings_init(&rs);
    rs.quiet = true, rs.integrator = RENDER_INTEGRATOR_PATH;
    char err[1024];
    const char *rib =
        FROM_ABOVE("", "Surface \"envmirror\" \"string envname\" \"/nonexistent/map.exr\"\n");
    ck_assert_ptr_null(render_with(rib, &rs, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "envmirror.sl:10: error: environment(): cannot open texture "
                              "'/nonexistent/map.exr'"),
                  "%s", err);
}
END_TEST

START_TEST(categories_of_delta_lights)
{
    /* Three distant lights from the eye (catlight.sl): 0.1 in "key" (the
       shader's default __category), 0.2 in "fill" and "rim", 0.4 in
       none. Each quarter's catsurf sums the Cl of the lights its
       category picks: "key" 0.1, "-key" 0.6, "rim" 0.2, "" all, 0.7. A
       light sample picks one light of three (weighed 3), so a quarter's
       mean is within 5 standard errors of its sum. */
    static const char *const cats[4] = { "key", "-key", "rim", "" };
    static const double want[4] = { 0.1, 0.6, 0.2, 0.7 };
    char rib[2048];
    int at = snprintf(rib, sizeof rib,
                      "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"
                      "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
                      "LightSource \"catlight\" 1 \"intensity\" 0.1\n"
                      "LightSource \"catlight\" 2 \"intensity\" 0.2 \"string __category\" "
                      "\"fill,rim\"\n"
                      "LightSource \"catlight\" 3 \"intensity\" 0.4 \"string __category\" \"\"\n");
    for (int q = 0; q < 4; q++) {
        float x0 = q % 2 ? 0 : -1, y0 = q / 2 ? 0 : -1;
        at += snprintf(rib + at, sizeof rib - (size_t)at,
                       "AttributeBegin\nSurface \"catsurf\" \"string cat\" \"%s\"\n"
                       "Polygon \"P\" [%g %g 0  %g %g 0  %g %g 0  %g %g 0]\nAttributeEnd\n",
                       cats[q], x0, y0, x0, y0 + 1, x0 + 1, y0 + 1, x0 + 1, y0);
    }
    snprintf(rib + at, sizeof rib - (size_t)at, "WorldEnd\n");
    Image *img = render(rib, RENDER_INTEGRATOR_PATH, 16, 2);
    for (int q = 0; q < 4; q++) {
        /* screen y grows downward in the image */
        int x0 = q % 2 ? 8 : 0, y0 = q / 2 ? 0 : 8;
        const double w[3] = { want[q], want[q], want[q] };
        assert_mean(img, x0, y0, x0 + 8, y0 + 8, w, 0, cats[q]);
    }
    image_free(img);
}
END_TEST

START_TEST(categories_of_area_lights)
{
    /* Two area lights (catarea.sl), disks above the plane, in "key" and
       "fill"; catmatte takes the light of "key" alone. The path tracer's
       light samples of a light in a category are not weighed against
       the lobes (whose directions are evaluated under no category); its
       mean over the image is the classic integrator's, within 5
       standard errors of both and 1% (the disks' facets), and less than
       the light of both. */
    static const char *const head =
        "Format 32 32 1\nProjection \"orthographic\"\nScreenWindow -2 2 -2 2\n"
        "PixelFilter \"box\" 1 1\nOption \"integrator\" \"int maxdepth\" [2]\nTranslate 0 0 5\n"
        "WorldBegin\nAttributeBegin\nSides 1\nTranslate -1 0 -1\nAreaLightSource \"catarea\" 1 "
        "\"intensity\" 0.5 \"samples\" 64 \"string __category\" \"key\"\nDisk 0 0.8 360\n"
        "AttributeEnd\nIlluminate 1 1\nAttributeBegin\nSides 1\nTranslate 1 0 -1\n"
        "AreaLightSource \"catarea\" 2 \"intensity\" 0.5 \"samples\" 64 \"string __category\" "
        "\"fill\"\nDisk 0 0.8 360\nAttributeEnd\nIlluminate 2 1\n";
    char rib[2048];
    double m[3], se[3];
    static const char *const cats[3] = { "key", "key", "" };
    for (int k = 0; k < 3; k++) {
        snprintf(rib, sizeof rib, "%sSurface \"catmatte\" \"string cat\" \"%s\"\n"
                 "Polygon \"P\" [-2 -2 0  -2 2 0  2 2 0  2 -2 0]\nWorldEnd\n", head, cats[k]);
        Image *img = render(rib, k ? RENDER_INTEGRATOR_CLASSIC : RENDER_INTEGRATOR_PATH,
                            k ? 4 : 16, 2);
        window_mean(img, 0, 0, 0, 32, 32, &m[k], &se[k]);
        image_free(img);
    }
    ck_assert_msg(fabs(m[0] - m[1]) < 5 * sqrt(se[0] * se[0] + se[1] * se[1]) + 0.01 * m[1],
                  "path %g +- %g, classic %g +- %g", m[0], se[0], m[1], se[1]);
    ck_assert_msg(m[1] < 0.75 * m[2], "\"key\" %g, both lights %g", m[1], m[2]);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("path_lobes");
    TCase *tc = tcase_create("path_lobes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, environment_open_scene);
    tcase_add_test(tc, environment_reflects_geometry);
    tcase_add_test(tc, environment_hits_shade_together);
    tcase_add_test(tc, environment_lobe_sees_its_map);
    tcase_add_test(tc, environment_and_diffuse_furnace);
    tcase_add_test(tc, environment_map_unreadable);
    tcase_add_test(tc, categories_of_delta_lights);
    tcase_add_test(tc, categories_of_area_lights);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}
