/*
** check_path_deriv.c: derivatives at the path tracer's hits, which take
** their neighbours from stand-in lanes one pixel's footprint away
** (render/path_deriv.c), against closed forms: calculatenormal() of a
** displaced patch, Du, du and area() on patches and a skewed triangle,
** at camera hits and at a hit seen in a mirror, on both shading
** backends; and a noise-bumped sphere lit as the classic integrator
** lights it (black before: issue 14).
*/
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "backends.h"
#include "pathtest.h"

/* A 16 x 16 orthographic view of [-1, 1] x [-1, 1] down world +z from
   z = -5: a pixel is 0.125 units wide. */
#define ORTHO16                                                                                   \
    "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"                      \
    "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"

/* Asserts that every covered pixel of img is want, within tol; returns
   how many were. */
static int assert_covered(const Image *img, const double want[3], double tol, const char *what)
{
    int n = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            const float *c = image_pixel(img, x, y);
            if (c[3] < 1)
                continue;
            for (int k = 0; k < 3; k++)
                ck_assert_msg(fabs(c[k] - want[k]) < tol, "%s: (%d, %d) channel %d is %g, want %g",
                              what, x, y, k, (double)c[k], want[k]);
            n++;
        }
    return n;
}

/* steps.sl's (Du(s), du, area) is exactly (1, 0.5, 1) at every one of the
   16x16 pixels of rib, path-traced. */
static void assert_steps_everywhere(const char *rib)
{
    const double want[3] = { 1, 0.5, 1 };
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 1, 2);
    ck_assert_int_eq(assert_covered(path, want, 1e-3, "path"), 256);
    image_free(path);
}

START_TEST(calculatenormal_of_a_tilted_patch)
{
    /* A patch 4 units a side at z = 0 with s along x, displaced by
       P += 2 s N: the moved surface rises 2 over 4, so calculatenormal
       leans its normal atan(2 / 4) from the view axis. A distant light
       along that axis (intensity 1) on matte (Kd 1, no ambient) gives
       cos(atan(1/2)) = 2 / sqrt(5) at every pixel, from both integrators
       (no noise). The path tracer takes direct light alone (maxdepth 1):
       the moved points float up to 2 units off the patch, and paths
       leaving them would light it again. */
    const char *rib = "Option \"integrator\" \"int maxdepth\" [1]\n" ORTHO16
                      "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
                              "Displacement \"tilts\" \"k\" 2\nSurface \"matte\" \"Ka\" 0\n"
                              "Patch \"bilinear\" \"P\" [-2 -2 0  2 -2 0  -2 2 0  2 2 0]\n"
                              "WorldEnd\n";
    const double c = 2 / sqrt(5.0), want[3] = { c, c, c };
    Image *path = render(rib, RENDER_INTEGRATOR_PATH, 1, 2);
    Image *classic = render(rib, RENDER_INTEGRATOR_CLASSIC, 1, 2);
    ck_assert_int_eq(assert_covered(path, want, 1e-3, "path"), 256);
    ck_assert_int_eq(assert_covered(classic, want, 1e-3, "classic"), 256);
    image_free(path);
    image_free(classic);
}
END_TEST

START_TEST(steps_at_camera_hits)
{
    /* A patch 2 units a side, s = u along x: Du(s) = 1, and a pixel's
       footprint (0.125 units) is du = 0.125 / 2 = 1/16 of u and an area
       of 0.125^2 = 1/64; steps scales du by 8 and the area by 64:
       (1, 0.5, 1). (The classic integrator's adjacent pixels give about
       that, their samples jittered in their pixels.) */
    const char *rib = ORTHO16 "Surface \"steps\" \"dus\" 8 \"ars\" 64\n"
                              "Patch \"bilinear\" \"P\" [-1 -1 0  1 -1 0  -1 1 0  1 1 0]\n"
                              "WorldEnd\n";
    assert_steps_everywhere(rib);
}
END_TEST

START_TEST(steps_seen_in_a_mirror)
{
    /* A mirror in the plane x + z = 0 turns the view rays (+z) to -x,
       onto a patch in the plane x = -3, 4 units a side, u along z (the
       view sees it edge on). Its hits come at the path's second segment,
       where the footprint is still the orthographic pixel (0.125), laid
       across the ray: du = 0.125 / 4 = 1/32 (times 16: 0.5) and an area
       of 1/64 (times 64: 1); Du(s) = 1. reflector's trace() lobe has
       weight 1, so each pixel is exactly (1, 0.5, 1). */
    const char *rib = ORTHO16 "AttributeBegin\nSurface \"reflector\"\n"
                              "Polygon \"P\" [-2 -2 2  -2 2 2  2 2 -2  2 -2 -2]\nAttributeEnd\n"
                              "Surface \"steps\" \"dus\" 16 \"ars\" 64\n"
                              "Patch \"bilinear\" \"P\" [-3 -2 -2  -3 -2 2  -3 2 -2  -3 2 2]\n"
                              "WorldEnd\n";
    assert_steps_everywhere(rib);
}
END_TEST

START_TEST(derivatives_on_a_skewed_triangle)
{
    /* check_render's triangle, st (0, 0), (0.5, 0), (0, 0.25) at its
       corners, seen in perspective: s = 0.5 u and t = 0.25 v over its
       barycentric (u, v), so Du(s) = 0.5, Dv(t) = 0.25 and Du(t) = Dv(s)
       = 0, whichever directions the stand-ins lie in. */
    Image *img = render("Format 32 32 1\nProjection \"perspective\" \"fov\" 40\n"
                        "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
                        "Surface \"deriv\"\n"
                        "Polygon \"P\" [-0.9 -0.8 0  0.8 -0.5 0  -0.4 0.9 0] "
                        "\"st\" [0 0  0.5 0  0 0.25]\nWorldEnd\n",
                        RENDER_INTEGRATOR_PATH, 1, 2);
    const double want[3] = { 0.5, 0.25, 0 };
    ck_assert_int_gt(assert_covered(img, want, 1e-3, "path"), 80);
    image_free(img);
}
END_TEST

START_TEST(noise_bumped_sphere_is_lit)
{
    /* A sphere whose displacement moves P by noise and recomputes N,
       under a distant light, matte without ambient, the path tracer
       taking direct light alone (maxdepth 1, as the classic integrator
       does here): the path tracer's mean over the sphere's pixels is the
       classic integrator's but for where each finds its derivatives'
       neighbours. Both difference over a pixel's footprint, the classic
       integrator across adjacent pixels' hits (on other facets of the
       tessellated sphere), the path tracer within the hit's facet: at 32
       pixels they are 5% apart (0.637 and 0.607; 1.3% at 128, with Km 0
       as well), so within 10%. It was 0 when path hits had no
       neighbours. */
    const char *rib = "Option \"integrator\" \"int maxdepth\" [1]\n"
                      "Format 32 32 1\nProjection \"perspective\" \"fov\" 30\n"
                      "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"
                      "LightSource \"distantlight\" 1 \"from\" [-1 1 -2] \"to\" [0 0 0]\n"
                      "Displacement \"noisebump\" \"Km\" 0.05\nSurface \"matte\" \"Ka\" 0\n"
                      "Sphere 1 -1 1 360\nWorldEnd\n";
    Image *img[2] = { render(rib, RENDER_INTEGRATOR_PATH, 4, 2),
                      render(rib, RENDER_INTEGRATOR_CLASSIC, 4, 2) };
    double mean[2];
    for (int k = 0; k < 2; k++) {
        double sum = 0;
        int n = 0;
        for (int y = 0; y < 32; y++)
            for (int x = 0; x < 32; x++)
                if (image_pixel(img[k], x, y)[3] >= 1)
                    sum += image_pixel(img[k], x, y)[0], n++;
        ck_assert_int_gt(n, 300);
        mean[k] = sum / n;
        image_free(img[k]);
    }
    ck_assert_msg(mean[1] > 0.2, "classic %g", mean[1]);
    ck_assert_msg(fabs(mean[0] - mean[1]) < 0.1 * mean[1], "path %g, classic %g", mean[0],
                  mean[1]);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("path_deriv");
    TCase *tc = tcase_create("path_deriv");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, calculatenormal_of_a_tilted_patch);
    tcase_add_test(tc, steps_at_camera_hits);
    tcase_add_test(tc, steps_seen_in_a_mirror);
    tcase_add_test(tc, derivatives_on_a_skewed_triangle);
    tcase_add_test(tc, noise_bumped_sphere_is_lit);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}
