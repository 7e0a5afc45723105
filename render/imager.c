/*
** imager.c: the frame's imager shader (RiImager), run over the filtered
** image before Exposure and Quantize: each pixel is a shading point with
** Ci its color, Oi and alpha its coverage, and P its raster position.
*/
#include <string.h>

#include "render/image/image.h"
#include "render/internal.h"

int imager_apply(ShadeCtx *c, const RShader *sh, Image *img, int x0, int y0, char *err,
                 int errlen)
{
    VmSession ss;
    if (vm_session_open(&ss, sh->obj, &c->host, VM_MAX_BATCH, err, errlen) < 0)
        return -1;
    size_t npix = (size_t)img->width * (size_t)img->height;
    int rc = 0;
    for (size_t first = 0; first < npix && rc == 0; first += VM_MAX_BATCH) {
        int n = npix - first < VM_MAX_BATCH ? (int)(npix - first) : VM_MAX_BATCH;
        VmState s;
        vm_session_batch(&ss, &s, n);
        rshader_bind(sh, &ss, &s);
        float Ci[VM_MAX_BATCH][3], Oi[VM_MAX_BATCH][3], alpha[VM_MAX_BATCH];
        float P[VM_MAX_BATCH][3];
        for (int l = 0; l < n; l++) {
            size_t i = first + (size_t)l;
            const float *p = img->pixels + i * (size_t)img->channels;
            memcpy(Ci[l], p, sizeof Ci[l]);
            alpha[l] = Oi[l][0] = Oi[l][1] = Oi[l][2] = p[3];
            P[l][0] = (float)(x0 + (int)(i % (size_t)img->width)) + 0.5f;
            P[l][1] = (float)(y0 + (int)(i / (size_t)img->width)) + 0.5f;
            P[l][2] = 0;
            s.random_seed[l] = (uint32_t)i;
        }
        rshader_store(sh, &s, RV_Ci, &Ci[0][0], 3, n);
        rshader_store(sh, &s, RV_Oi, &Oi[0][0], 3, n);
        rshader_store(sh, &s, RV_alpha, alpha, 1, n);
        rshader_store(sh, &s, RV_P, &P[0][0], 3, n);
        c->frame[0].running = sh;
        if ((rc = vm_session_run(&ss, &s, err, errlen)) < 0)
            break;
        /* What the shader does not set keeps the pixel's value. */
        if (sh->var[RV_Ci])
            rshader_load(sh, &s, RV_Ci, &Ci[0][0], 3, n);
        if (sh->var[RV_alpha])
            rshader_load(sh, &s, RV_alpha, alpha, 1, n);
        for (int l = 0; l < n; l++) {
            float *p = img->pixels + (first + (size_t)l) * (size_t)img->channels;
            memcpy(p, Ci[l], sizeof Ci[l]);
            p[3] = alpha[l];
        }
    }
    vm_session_close(&ss);
    return rc;
}
