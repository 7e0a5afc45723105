/*
** imgdiff.h: how far a rendered image is from its reference, the metric
** of the regression images (check_scenes) and of make installcheck
** (imgcmp): PSNR over the R, G, B and A values of all pixels, peak 1,
** and the largest single difference.
*/
#ifndef RT_TESTS_IMGDIFF_H
#define RT_TESTS_IMGDIFF_H

#include <stdbool.h>

#include "render/image/image.h"

/* The passing bounds: PSNR at least 45 dB, no value more than 0.05 off. */
#define IMGDIFF_MIN_PSNR 45.0
#define IMGDIFF_MAX_DIFF 0.05

typedef struct ImageDiff {
    double psnr;      /* 10 log10(1 / MSE); INFINITY when equal */
    double worst;     /* the largest |difference|; a NaN counts as INFINITY */
    int wx, wy, wc;   /* where it is: pixel and channel */
} ImageDiff;

/* Compares the first four channels of two images of the same size (the
   caller checks the sizes and that both have four channels). */
ImageDiff image_diff(const Image *img, const Image *ref);

/* Whether d is within the bounds above. */
bool image_diff_ok(const ImageDiff *d);

#endif
