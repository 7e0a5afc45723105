/*
** check_surface_derivs.c: derivative builtins of public shaders at
** rendered hits, on both shading backends and in both integrators
** (issue 16). calculatenormal() against the surface's orientation: RISpec
** turns Ng around when the current orientation differs from the
** handedness of the coordinate system (ReverseOrientation, Orientation
** "rh", a mirroring Scale); calculatenormal's normal of a moved surface
** must turn with it, or faceforward() turns it away from the eye and
** bumped surfaces go black. Deriv(num, den) where den changes along one
** parameter only.
*/
#include <check.h>
#include <math.h>
#include <stdio.h>

#include "backends.h"
#include "pathtest.h"

/* A 16 x 16 orthographic view of [-1, 1] x [-1, 1] down world +z from
   z = -5: a pixel is 0.125 units wide; the path tracer takes direct light
   alone (as check_path_deriv's tilted patch). */
#define ORTHO16                                                                                   \
    "Option \"integrator\" \"int maxdepth\" [1]\n"                                                \
    "Format 16 16 1\nProjection \"orthographic\"\nScreenWindow -1 1 -1 1\n"                      \
    "PixelFilter \"box\" 1 1\nTranslate 0 0 5\nWorldBegin\n"

/* What turns a surface's orientation around, each on its own: nothing
   (the reference), the two requests and a mirroring transform. */
static const char *const turns[] = { "", "ReverseOrientation", "Orientation \"rh\"",
                                     "Scale -1 1 1" };
#define NTURNS (int)(sizeof turns / sizeof *turns)

/* Asserts that every pixel of rib's image is want in every channel,
   within tol, from both integrators; what names the case. */
static void assert_everywhere(const char *rib, double want, double tol, const char *what)
{
    static const RenderIntegrator integrators[] = { RENDER_INTEGRATOR_CLASSIC,
                                                    RENDER_INTEGRATOR_PATH };
    for (int i = 0; i < 2; i++) {
        Image *img = render(rib, integrators[i], 1, 2);
        for (int y = 0; y < img->height; y++)
            for (int x = 0; x < img->width; x++)
                for (int k = 0; k < 3; k++) {
                    double c = image_pixel(img, x, y)[k];
                    ck_assert_msg(fabs(c - want) < tol, "%s, %s: (%d, %d) is %g, want %g", what,
                                  i ? "path" : "classic", x, y, c, want);
                }
        image_free(img);
    }
}

START_TEST(calculatenormal_on_the_side_of_Ng)
{
    /* Undisplaced, a flat patch's calculatenormal is along Ng: sidewithng
       is exactly 1 (cos 0) at every pixel, however it is turned. */
    for (int i = 0; i < NTURNS; i++) {
        char rib[1024];
        snprintf(rib, sizeof rib,
                 ORTHO16 "%s\nSurface \"sidewithng\"\n"
                         "Patch \"bilinear\" \"P\" [-2 -2 0  2 -2 0  -2 2 0  2 2 0]\nWorldEnd\n",
                 turns[i]);
        assert_everywhere(rib, 1, 1e-4, turns[i]);
    }
}
END_TEST

START_TEST(tilted_patch_lit_however_turned)
{
    /* check_path_deriv's tilted patch: P += 2 s N on a patch 4 units a
       side leans the normal atan(2 / 4) from the view axis, so matte
       (Kd 1, no ambient) under a distant light along that axis is
       cos(atan(1/2)) = 2 / sqrt(5) at every pixel. Turned around, N and
       the displacement turn (the surface rises towards the eye instead),
       and so must calculatenormal: facing away from Ng, matte's
       faceforward kept it facing away and the patch came out black. */
    const double c = 2 / sqrt(5.0);
    for (int i = 0; i < NTURNS; i++) {
        char rib[1024];
        snprintf(rib, sizeof rib,
                 ORTHO16 "LightSource \"distantlight\" 1 \"from\" [0 0 -5] \"to\" [0 0 0]\n"
                         "%s\nDisplacement \"tilts\" \"k\" 2\nSurface \"matte\" \"Ka\" 0\n"
                         "Patch \"bilinear\" \"P\" [-2 -2 0  2 -2 0  -2 2 0  2 2 0]\nWorldEnd\n",
                 turns[i]);
        assert_everywhere(rib, c, 1e-3, turns[i]);
    }
}
END_TEST

START_TEST(deriv_along_one_parameter)
{
    /* Deriv(P, s) on a flat patch 10 units a side with s along x, seen in
       perspective: s does not change along v, so Deriv is Du(P) / Du(s),
       of length 10, at every pixel. Neighbouring hits give a Dv(s) of
       rounding (about 1e-6 of Du(s)), which Deriv once divided by: half
       the pixels were infinite (superplank's overall scale). */
    const char *rib = "Option \"integrator\" \"int maxdepth\" [1]\n"
                      "Format 16 16 1\nProjection \"perspective\" \"fov\" 40\n"
                      "PixelFilter \"box\" 1 1\nTranslate 0 0 10\nWorldBegin\n"
                      "Surface \"derivlen\" \"k\" 10\n"
                      "Patch \"bilinear\" \"P\" [-5 -5 0  5 -5 0  -5 5 0  5 5 0]\nWorldEnd\n";
    assert_everywhere(rib, 1, 1e-3, "Deriv(P, s)");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("surface_derivs");
    TCase *tc = tcase_create("surface_derivs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, calculatenormal_on_the_side_of_Ng);
    tcase_add_test(tc, tilted_patch_lit_however_turned);
    tcase_add_test(tc, deriv_along_one_parameter);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite_on_backends(make_suite);
}
