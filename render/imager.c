/*
** imager.c: the frame's imager shader (RiImager), run over the filtered
** image before Exposure and Quantize: each pixel is a shading point with
** Ci its color, Oi and alpha its coverage, and P its raster position.
*/
#include <stdlib.h>
#include <string.h>

#include "render/frame.h"
#include "render/image/image.h"

int imager_apply(const RFrame *fr, const RShader *sh, Image *img, char *err, int errlen)
{
    /* The imager sees the frame through a shading context of its own,
       at depth 0: its host answers space and option queries. */
    ShadeCtx *c = malloc(sizeof *c);
    shade_ctx_init(c, &fr->world, fr->shading, 0, NULL);
    size_t npix = (size_t)img->width * (size_t)img->height;
    int rc = 0;
    for (size_t first = 0; first < npix && rc == 0; first += VM_MAX_BATCH) {
        int n = npix - first < VM_MAX_BATCH ? (int)(npix - first) : VM_MAX_BATCH;
        float Ci[VM_MAX_BATCH][3], Oi[VM_MAX_BATCH][3], alpha[VM_MAX_BATCH];
        float P[VM_MAX_BATCH][3];
        uint32_t seed[VM_MAX_BATCH];
        for (int l = 0; l < n; l++) {
            size_t i = first + (size_t)l;
            const float *p = img->pixels + i * (size_t)img->channels;
            memcpy(Ci[l], p, sizeof Ci[l]);
            alpha[l] = Oi[l][0] = Oi[l][1] = Oi[l][2] = p[3];
            P[l][0] = (float)(fr->cam.x0 + (int)(i % (size_t)img->width)) + 0.5f;
            P[l][1] = (float)(fr->cam.y0 + (int)(i / (size_t)img->width)) + 0.5f;
            P[l][2] = 0;
            seed[l] = (uint32_t)i;
        }
        /* What the shader does not set keeps the pixel's value. */
        ShadeBatch b = { .n = n, .seed = seed };
        b.in[RV_Ci] = &Ci[0][0], b.in[RV_Oi] = &Oi[0][0], b.in[RV_alpha] = alpha;
        b.in[RV_P] = &P[0][0];
        b.out[RV_Ci] = sh->has[RV_Ci] ? &Ci[0][0] : NULL;
        b.out[RV_alpha] = sh->has[RV_alpha] ? alpha : NULL;
        if ((rc = shade_run(c, sh, &b, err, errlen)) < 0)
            break;
        for (int l = 0; l < n; l++) {
            float *p = img->pixels + (first + (size_t)l) * (size_t)img->channels;
            memcpy(p, Ci[l], sizeof Ci[l]);
            p[3] = alpha[l];
        }
    }
    shade_ctx_free(c);
    free(c);
    return rc;
}
