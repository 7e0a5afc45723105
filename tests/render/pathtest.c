/*
** pathtest.c: the path tracer image tests' shared helpers (pathtest.h).
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pathtest.h"

Image *render_with(const char *rib, const RenderSettings *rs, RenderStats *st, char *err,
                   int errlen)
{
    RibLoadOptions lo;
    RibDiag diag;
    rib_load_options_init(&lo);
    lo.default_shader_path = SHADER_DIR ":" TEST_SHADER_DIR;
    rib_diag_init(&diag, stderr);
    RibScene *scene = rib_load_memory("test.rib", rib, strlen(rib), &lo, &diag);
    ck_assert_msg(scene && diag.nerrors == 0 && scene->nframes == 1, "the scene does not load");
    Render *r = render_new(scene, rs);
    Image *img = render_frame_image(r, &scene->frames[0], st, err, errlen);
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
    return img;
}

Image *render(const char *rib, RenderIntegrator integrator, int spp, int threads)
{
    RenderSettings rs;
    render_settings_init(&rs);
    rs.integrator = integrator, rs.spp = spp, rs.threads = threads, rs.quiet = true;
    char err[1024];
    Image *img = render_with(rib, &rs, NULL, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    return img;
}

void window_mean(const Image *img, int c, int x0, int y0, int x1, int y1, double *mean,
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

void assert_mean(const Image *img, int x0, int y0, int x1, int y1, const double want[3],
                 double slack, const char *what)
{
    for (int c = 0; c < 3; c++) {
        double m, se;
        window_mean(img, c, x0, y0, x1, y1, &m, &se);
        ck_assert_msg(fabs(m - want[c]) < 5 * se + slack * want[c],
                      "%s, channel %d: %g +- %g, want %g", what, c, m, se, want[c]);
    }
}

void save_map(Image *map, char path[64])
{
    strcpy(path, "/tmp/check_path_mapXXXXXX.exr");
    int fd = mkstemps(path, 4);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[512];
    ck_assert_msg(image_write(map, path, NULL, err, sizeof err) == 0, "%s", err);
    image_free(map);
}

Image *grey_map(int w, int h, const float *rows)
{
    Image *map = image_new(w, h, 3);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
            for (int c = 0; c < 3; c++)
                image_pixel(map, i, j)[c] = rows[j];
    return map;
}
