/*
** lightrows.c: the host's side of the lighting over groups of lanes
** (lighting.h): asking the host for a light's samples at a group (its
** light_rows, else its light lane by lane), keeping them for the run, and
** telling it of the lobes. Compiled into the library only, not into the
** runtime's bitcode: native code calls these out of line (bound by
** address in backends/llvm/jit.c), as they are calls into the host
** anyway, so that the code inlined into every shader is the maths alone.
*/
#include <stdlib.h>
#include <string.h>

#include "runtime/lighting.h"

bool rsl_lights_open(RslLights *ls, const VmHost *host, bool keep)
{
    ls->host = host;
    ls->kept = NULL;
    /* A host told of lobes may answer each lighting call with other
       lights (the path tracer's probes, along the call's N): none kept. */
    if (!keep || !host || host->lobe || host->nlights <= 0)
        return true;
    ls->kept = malloc((size_t)host->nlights * sizeof *ls->kept);
    if (!ls->kept)
        return false;
    for (int i = 0; i < host->nlights; i++)
        ls->kept[i].base = -1;
    return true;
}

void rsl_lights_close(RslLights *ls)
{
    free(ls->kept);
    ls->kept = NULL;
}

static void lane3(const float *x, int W, int j, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = x[k * W + j];
}

/* The host's light lane by lane (the lanes of mask) into r's rows, zero
   on entry; ask() inlines it with W a constant where it can. */
static inline void ask_lanes(const VmHost *h, int i, int base, int W, uint32_t mask,
                             const float *P, RslLightRows *r)
{
    r->reach = r->ambient = 0;
    for (uint32_t m = mask & ((1u << W) - 1); m; m &= m - 1) {
        int j = __builtin_ctz(m);
        VmLightSample x;
        float p[3];
        lane3(P, W, j, p);
        if (!h->light(h->user, i, base + j, p, &x))
            continue;
        r->reach |= 1u << j;
        r->ambient |= (uint32_t)x.ambient << j;
        for (int k = 0; k < 3; k++) {
            r->s[k * W + j] = x.L[k];
            r->s[(3 + k) * W + j] = x.Cl[k];
            r->s[(6 + k) * W + j] = x.Ol[k];
        }
    }
}

/* Asks the host for light i at the lanes of mask into r. */
static void ask(const VmHost *h, int i, int base, int W, uint32_t mask, const float *P, RslLightRows *r)
{
    r->base = base;
    r->asked = mask;
    memcpy(r->P, P, 3 * (size_t)W * sizeof *P);
    memset(r->s, 0, 9 * (size_t)W * sizeof *r->s);
    if (h->light_rows) {
        r->reach = h->light_rows(h->user, i, base, W, mask, P, r->s, &r->ambient) & mask;
        r->ambient &= r->reach;
    } else if (W == 16) { /* AVX-512's and AVX2's groups with constant strides: */
        ask_lanes(h, i, base, 16, mask, P, r); /* 10% of native matte */
    } else if (W == 8) {
        ask_lanes(h, i, base, 8, mask, P, r);
    } else {
        ask_lanes(h, i, base, W, mask, P, r);
    }
}

/* Whether r holds light samples for the lanes of mask at P. The calls
   of a shader at the same points pass the same rows (native code zeroes
   the lanes outside the mask), so the rows are compared whole first: equal
   bits are equal points, and only a difference needs the lane by lane
   test. */
static bool holds(const RslLightRows *r, int base, int W, uint32_t mask, const float *P)
{
    if (r->base != base || (mask & ~r->asked))
        return false;
    if (memcmp(r->P, P, 3 * (size_t)W * sizeof *P) == 0)
        return true;
    for (int j = 0; j < W; j++)
        for (int k = 0; mask >> j & 1 && k < 3; k++)
            if (r->P[k * W + j] != P[k * W + j])
                return false;
    return true;
}

void rsl_light_lobes(const VmHost *h, int kind, int base, int W, uint32_t mask, const float *args)
{
    for (int j = 0; j < W; j++) {
        if (!(mask >> j & 1))
            continue;
        if (kind == RSL_SHADE_ILLUMINANCE) { /* args are P and a cone: no N */
            h->lobe(h->user, base + j, VM_LOBE_COSINE, NULL, NULL, 0);
            continue;
        }
        float N[3], V[3], x;
        lane3(args, W, j, N);
        if (kind == RSL_SHADE_DIFFUSE) {
            h->lobe(h->user, base + j, VM_LOBE_COSINE, N, NULL, 0);
            continue;
        }
        lane3(args + 3 * W, W, j, V);
        x = args[6 * W + j];
        if (kind == RSL_SHADE_SPECULAR)
            h->lobe(h->user, base + j, VM_LOBE_SPECULAR, N, V, rsl_specular_exponent(x));
        else
            h->lobe(h->user, base + j, VM_LOBE_PHONG, N, V, x);
    }
}

const RslLightRows *rsl_light_group(RslLights *ls, int i, int base, int W, uint32_t mask,
                                    const float *P, RslLightRows *scratch)
{
    RslLightRows *r = ls->kept ? &ls->kept[i] : scratch;
    if (!ls->kept || !holds(r, base, W, mask, P))
        ask(ls->host, i, base, W, mask, P, r);
    return r;
}
