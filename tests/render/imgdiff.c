/*
** imgdiff.c: the regression-image metric (imgdiff.h).
*/
#include <math.h>

#include "imgdiff.h"

ImageDiff image_diff(const Image *img, const Image *ref)
{
    ImageDiff d = { 0 };
    double se = 0;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            for (int c = 0; c < 4; c++) {
                double e = fabs((double)image_pixel(img, x, y)[c] - image_pixel(ref, x, y)[c]);
                if (isnan(e))
                    e = INFINITY;
                if (e > d.worst)
                    d.worst = e, d.wx = x, d.wy = y, d.wc = c;
                se += e * e;
            }
    double mse = se / (4.0 * img->width * img->height);
    d.psnr = mse > 0 ? 10 * log10(1 / mse) : INFINITY;
    return d;
}

bool image_diff_ok(const ImageDiff *d)
{
    return d->psnr >= IMGDIFF_MIN_PSNR && d->worst <= IMGDIFF_MAX_DIFF;
}
