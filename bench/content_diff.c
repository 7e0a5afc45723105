/*
** content_diff.c: the image metric of scripts/measure-content. Compares a
** rendered image with a reference image shipped beside a public scene.
**
**   content_diff RENDERED REFERENCE   prints the mean absolute difference
**   content_diff --size IMAGE         prints IMAGE's "WIDTH HEIGHT"
**
** The metric: both images as RGB in [0, 1], 8/16-bit samples as v/255 or
** v/65535 with no colour space conversion (a gray image's one channel is
** used for R, G and B; alpha and other channels are ignored), rendered
** values clamped to [0, 1]. When the sizes differ the reference is area
** averaged onto the rendered image's pixel grid (each rendered pixel's
** footprint, stretched over the whole reference, weighted by overlap), so
** a reference of any resolution compares with a smaller render. The
** result is the mean of |rendered - reference| over every pixel and the
** three channels: 0 is identical, 1 is white against black everywhere.
** Exit status 2 with a message when an image cannot be read.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/image/image.h"

static Image *read_or_die(const char *path)
{
    char err[512];
    Image *img = image_read(path, IMAGE_FORMAT_AUTO, err, sizeof err);
    if (!img) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    return img;
}

/* Channel c (0..2) of pixel (x, y) as RGB in [0, 1]. */
static double rgb_at(const Image *img, int x, int y, int c)
{
    const float *p = image_pixel(img, x, y);
    double v = img->channels >= 3 ? p[c] : p[0];
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The overlap of [a0, a1) with [b0, b1). */
static double overlap(double a0, double a1, double b0, double b1)
{
    double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

/* The reference's area average over the rendered pixel (x, y)'s
   footprint, channel c. */
static double ref_area_mean(const Image *ref, const Image *out, int x, int y, int c)
{
    double sx = (double)ref->width / out->width, sy = (double)ref->height / out->height;
    double x0 = x * sx, x1 = (x + 1) * sx, y0 = y * sy, y1 = (y + 1) * sy;
    double sum = 0, wsum = 0;
    for (int j = (int)floor(y0); j < (int)ceil(y1) && j < ref->height; j++) {
        double wy = overlap(y0, y1, j, j + 1);
        for (int i = (int)floor(x0); i < (int)ceil(x1) && i < ref->width; i++) {
            double w = wy * overlap(x0, x1, i, i + 1);
            sum += w * rgb_at(ref, i, j, c);
            wsum += w;
        }
    }
    return wsum > 0 ? sum / wsum : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--size")) {
        Image *img = read_or_die(argv[2]);
        printf("%d %d\n", img->width, img->height);
        image_free(img);
        return 0;
    }
    if (argc != 3 || argv[1][0] == '-') {
        fprintf(stderr, "usage: content_diff RENDERED REFERENCE | --size IMAGE\n");
        return 2;
    }
    Image *out = read_or_die(argv[1]), *ref = read_or_die(argv[2]);
    double sum = 0;
    for (int y = 0; y < out->height; y++)
        for (int x = 0; x < out->width; x++)
            for (int c = 0; c < 3; c++)
                sum += fabs(rgb_at(out, x, y, c) - ref_area_mean(ref, out, x, y, c));
    printf("%.4f\n", sum / (3.0 * out->width * out->height));
    image_free(out);
    image_free(ref);
    return 0;
}
