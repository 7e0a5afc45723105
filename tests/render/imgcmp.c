/*
** imgcmp.c: compares a rendered image with a reference by the metric of
** the regression images (imgdiff.h), for make installcheck, which renders
** with the installed rtrender and so cannot use check_scenes (that links
** the renderer of the build tree).
**
**   imgcmp IMAGE REFERENCE
**
** Prints the size, the PSNR and the largest difference; exits 0 within
** the bounds, 1 outside them or when the images do not compare (a missing
** file, other sizes, fewer than four channels).
*/
#include <stdio.h>
#include <stdlib.h>

#include "imgdiff.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: imgcmp IMAGE REFERENCE\n");
        return 1;
    }
    char err[2048];
    Image *img = image_read(argv[1], IMAGE_FORMAT_AUTO, err, sizeof err);
    Image *ref = img ? image_read(argv[2], IMAGE_FORMAT_AUTO, err, sizeof err) : NULL;
    int rc = 1;
    if (!img || !ref)
        fprintf(stderr, "imgcmp: error: %s\n", err);
    else if (img->width != ref->width || img->height != ref->height || img->channels < 4
             || ref->channels < 4)
        fprintf(stderr, "imgcmp: error: %s is %dx%d with %d channels, %s %dx%d with %d; "
                "both need RGBA of one size\n", argv[1], img->width, img->height,
                img->channels, argv[2], ref->width, ref->height, ref->channels);
    else {
        ImageDiff d = image_diff(img, ref);
        bool ok = image_diff_ok(&d);
        printf("%s: %dx%d, PSNR %.2f dB (at least %.0f), max difference %.4f (at most %g) at "
               "pixel %d,%d channel %d: %s\n", argv[1], img->width, img->height, d.psnr,
               IMGDIFF_MIN_PSNR, d.worst, IMGDIFF_MAX_DIFF, d.wx, d.wy, d.wc,
               ok ? "ok" : "FAILED");
        rc = !ok;
    }
    image_free(img);
    image_free(ref);
    return rc;
}
