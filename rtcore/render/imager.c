/*
** imager.c: the frame's imager shader (RiImager), run over the filtered
** image before Exposure and Quantize: each pixel is a shading point with
** Ci its color, Oi and alpha its coverage, and P its raster position.
*/
#include <string.h>

#include "rtcore/image/image.h"
#include "rtcore/render/internal.h"
#include "vm/grid.h"

static void store(const RShader *sh, VmState *s, RVar g, const float *f, unsigned k, int lane)
{
    const VmVar *v = sh->var[g];
    if (v && ((v->reg & VM_V) || lane == 0))
        vm_var_store(s, v, f, k, lane);
}

static float load(const RShader *sh, const VmState *s, RVar g, unsigned k, int lane,
                  float otherwise)
{
    const VmVar *v = sh->var[g];
    return v ? vm_var_load(s, v, k, (v->reg & VM_V) ? lane : 0) : otherwise;
}

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
        for (int l = 0; l < n; l++) {
            size_t i = first + (size_t)l;
            const float *p = img->pixels + i * (size_t)img->channels;
            float alpha = p[3], Oi[3] = { alpha, alpha, alpha };
            float P[3] = { (float)(x0 + (int)(i % (size_t)img->width)) + 0.5f,
                           (float)(y0 + (int)(i / (size_t)img->width)) + 0.5f, 0 };
            store(sh, &s, RV_Ci, p, 3, l);
            store(sh, &s, RV_Oi, Oi, 3, l);
            store(sh, &s, RV_alpha, &alpha, 1, l);
            store(sh, &s, RV_P, P, 3, l);
            s.random_seed[l] = (uint32_t)i;
        }
        c->frame[0].running = sh;
        if ((rc = vm_session_run(&ss, &s, err, errlen)) < 0)
            break;
        for (int l = 0; l < n; l++) {
            float *p = img->pixels + (first + (size_t)l) * (size_t)img->channels;
            for (unsigned k = 0; k < 3; k++)
                p[k] = load(sh, &s, RV_Ci, k, l, p[k]);
            p[3] = load(sh, &s, RV_alpha, 0, l, p[3]);
        }
    }
    vm_session_close(&ss);
    return rc;
}
