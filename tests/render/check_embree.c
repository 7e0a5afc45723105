/*
** check_embree.c: the path tracer reproduces Embree's pathtracer tutorial
** on Embree's Cornell box (bench/embree_cornell.h): at 64x64 pixels, 64
** samples a pixel and path length 8, the mean of each channel differs
** from Embree's image by less than 4 standard errors of the pixels'
** differences (their noise, both renders'), and Embree's image is not
** black (a mean above 0.1: the box is lit). Skipped, saying why, without
** embree-tools.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/embree_cornell.h"
#include "render/render.h"
#include "../common/suite.h"

START_TEST(agrees_with_embree)
{
    CornellSettings cs = { 64, 64, 8, 2 };
    char err[2048], dir[] = "/tmp/check_embree.XXXXXX", rib[256], ppm[256];
    ck_assert(mkdtemp(dir) != NULL);
    snprintf(rib, sizeof rib, "%s/cornell_box.rib", dir);
    snprintf(ppm, sizeof ppm, "%s/embree.ppm", dir);
    ck_assert_msg(embree_cornell_rib(EMBREE_CORNELL_ECS, &cs, rib, err, sizeof err) == 0, "%s",
                  err);
    ck_assert_msg(embree_cornell_run(EMBREE_CORNELL_ECS, &cs, ppm, 0, NULL, err, sizeof err) == 0,
                  "%s", err);
    Image *ref = embree_cornell_read_ppm(ppm, err, sizeof err);
    ck_assert_msg(ref != NULL, "%s", err);

    RibDiag diag;
    rib_diag_init(&diag, stderr);
    RibScene *scene = render_load(rib, &diag);
    ck_assert(scene && diag.nerrors == 0);
    RenderSettings rs;
    render_settings_init(&rs);
    rs.quiet = true, rs.spp = cs.spp, rs.threads = cs.threads;
    Render *r = render_new(scene, &rs);
    Image *img = render_frame_image(r, &scene->frames[0], NULL, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);

    double mean[3], se[3], ref_mean[3];
    embree_cornell_diff(img, ref, mean, se, ref_mean);
    for (int c = 0; c < 3; c++) {
        ck_assert_msg(ref_mean[c] > 0.1, "Embree's channel %d is black: %g", c, ref_mean[c]);
        ck_assert_msg(mean[c] < 4 * se[c] && mean[c] > -4 * se[c],
                      "channel %d: ours - Embree's = %g, standard error %g", c, mean[c], se[c]);
    }
    image_free(img);
    image_free(ref);
    render_free(r);
    rib_scene_free(scene);
    rib_diag_free(&diag);
    unlink(ppm);
    unlink(rib);
    rmdir(dir);
}
END_TEST

int main(void)
{
    char why[512];
    if (!embree_cornell_available(why, sizeof why)) {
        printf("check_embree: skipped: %s\n", why);
        return 77;
    }
    Suite *s = suite_create("embree");
    TCase *tc = tcase_create("cornell");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, agrees_with_embree);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
