/*
** lighting.c: the lighting builtins over a group of W lanes (lighting.h).
** They follow RISpec 3.2 section 15.6, each an illuminance loop over the
** non-ambient lights in the hemisphere around N (cone angle PI/2):
**   ambient()            sum of the ambient lights' Cl
**   diffuse(N)           sum Cl * (normalize(L) . N)
**   specular(N, V, r)    sum Cl * max(0, N . normalize(normalize(L) + V))^(1/r)
**   phong(N, V, size)    sum Cl * max(0, R . normalize(L))^size,
**                        R = reflect(-normalize(V), normalize(N))
**
** The loops run lights outside and lanes inside: each light is asked of
** the host once for the group (VmHost.light_rows, else its light per
** lane), and the per-lane maths reads rows, so that native code, which
** inlines this file with W a constant, vectorises it. A lane outside the
** mask or out of a light's reach computes on whatever its rows hold and
** its sum is left as it was (a select, not a branch), so that NaN or
** infinity there never reaches a result.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/lighting.h"

static float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize3(const float *a, float *out)
{
    float l = sqrtf(dot3(a, a));
    for (int k = 0; k < 3; k++)
        out[k] = l > 0 ? a[k] / l : 0;
}

/* The hemisphere (angle pi/2) is the common case: a sign test. */
bool rsl_in_cone(const float l[3], const float axis[3], float angle)
{
    float d = dot3(l, axis), l2 = dot3(l, l), a2 = dot3(axis, axis);
    if (l2 == 0 || a2 == 0)
        return false;
    if (angle == (float)M_PI / 2)
        return d >= -1e-6f * sqrtf(l2 * a2);
    return d >= (cosf(angle) - 1e-6f) * sqrtf(l2 * a2);
}

/* The specular lobe for unit direction l to the light: max(0, N . H) to
   the power 1/roughness, H the half vector of l and V. */
static float specular_weight(const float *l, const float *N, const float *V, float roughness)
{
    float hv[3], hn[3];
    for (int k = 0; k < 3; k++)
        hv[k] = l[k] + V[k];
    normalize3(hv, hn);
    float d = dot3(N, hn);
    return powf(d > 0 ? d : 0, 1 / roughness);
}

float rsl_specularbrdf(const float L[3], const float N[3], const float V[3], float roughness)
{
    float l[3];
    normalize3(L, l);
    return specular_weight(l, N, V, roughness);
}

/* phong's lobe for unit direction l: max(0, R . l)^size. */
static float phong_weight(const float *l, const float *N, const float *V, float size)
{
    float v[3], n[3], r[3];
    normalize3(V, v);
    normalize3(N, n);
    float vn = dot3(v, n); /* R = reflect(-V, N) = -V + 2 (V.N) N */
    for (int k = 0; k < 3; k++)
        r[k] = -v[k] + 2 * vn * n[k];
    float d = dot3(r, l);
    return powf(d > 0 ? d : 0, size);
}

bool rsl_lights_open(RslLights *ls, const VmHost *host, bool keep)
{
    ls->host = host;
    ls->kept = NULL;
    if (!keep || !host || host->nlights <= 0)
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

/* Component k of lane j of the rows at x. */
static float row(const float *x, int k, int W, int j)
{
    return x[k * W + j];
}

static void lane3(const float *x, int W, int j, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = row(x, k, W, j);
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
        return;
    }
    r->reach = r->ambient = 0;
    for (int j = 0; j < W; j++) {
        VmLightSample x;
        float p[3];
        lane3(P, W, j, p);
        if (!(mask >> j & 1) || !h->light(h->user, i, base + j, p, &x))
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

/* Whether r holds light samples for the lanes of mask at P. */
static bool holds(const RslLightRows *r, int base, int W, uint32_t mask, const float *P)
{
    if (r->base != base || (mask & ~r->asked))
        return false;
    for (int j = 0; j < W; j++)
        for (int k = 0; mask >> j & 1 && k < 3; k++)
            if (r->P[k * W + j] != P[k * W + j])
                return false;
    return true;
}

/* Tells the host of the lobe each lane of the call reflects into. */
static void tell_lobes(const VmHost *h, int kind, int base, int W, uint32_t mask, const float *args)
{
    for (int j = 0; j < W; j++) {
        if (!(mask >> j & 1))
            continue;
        float N[3], V[3], x = kind >= RSL_SHADE_SPECULAR ? row(args, 6, W, j) : 0;
        lane3(args, W, j, N);
        lane3(args + 3 * W, W, j, V);
        if (kind == RSL_SHADE_DIFFUSE)
            h->lobe(h->user, base + j, VM_LOBE_COSINE, N, NULL, 0);
        else if (kind == RSL_SHADE_SPECULAR)
            h->lobe(h->user, base + j, VM_LOBE_SPECULAR, N, V, 1 / x);
        else if (kind == RSL_SHADE_PHONG)
            h->lobe(h->user, base + j, VM_LOBE_PHONG, N, V, x);
    }
}

void rsl_shade_lights(RslLights *ls, int kind, int base, int W, uint32_t mask, const float *args,
                      float *out)
{
    static const int nrows[] = { [RSL_SHADE_AMBIENT] = 3, [RSL_SHADE_DIFFUSE] = 6,
                                 [RSL_SHADE_SPECULAR] = 10, [RSL_SHADE_PHONG] = 10 };
    const VmHost *h = ls->host;
    const float *P = args + (nrows[kind] - 3) * W;
    memset(out, 0, 3 * (size_t)W * sizeof *out);
    if (!h)
        return;
    if (h->lobe && kind != RSL_SHADE_AMBIENT)
        tell_lobes(h, kind, base, W, mask, args);
    for (int i = 0; i < h->nlights; i++) {
        RslLightRows scratch, *r = ls->kept ? &ls->kept[i] : &scratch;
        if (!ls->kept || !holds(r, base, W, mask, P))
            ask(h, i, base, W, mask, P, r);
        uint32_t use = r->reach & mask & (kind == RSL_SHADE_AMBIENT ? r->ambient : ~r->ambient);
        if (!use)
            continue;
        for (int j = 0; j < W; j++) {
            float w = 1, L[3];
            bool on = use >> j & 1;
            lane3(r->s, W, j, L);
            if (kind != RSL_SHADE_AMBIENT) {
                float N[3], V[3], l[3], x = kind >= RSL_SHADE_SPECULAR ? row(args, 6, W, j) : 0;
                lane3(args, W, j, N);
                lane3(args + 3 * W, W, j, V);
                on = on && rsl_in_cone(L, N, (float)M_PI / 2);
                normalize3(L, l);
                w = kind == RSL_SHADE_DIFFUSE    ? dot3(l, N)
                    : kind == RSL_SHADE_SPECULAR ? specular_weight(l, N, V, x)
                                                 : phong_weight(l, N, V, x);
            }
            for (int k = 0; k < 3; k++)
                out[k * W + j] += on ? row(r->s, 3 + k, W, j) * w : 0;
        }
    }
}

void rsl_light_sample(RslLights *ls, int i, int cone, int base, int W, uint32_t mask,
                      const float *args, float *out)
{
    const VmHost *h = ls->host;
    memset(out, 0, 10 * (size_t)W * sizeof *out);
    for (int j = 0; h && h->lobe && j < W; j++)
        if (mask >> j & 1)
            h->lobe(h->user, base + j, VM_LOBE_COSINE, NULL, NULL, 0);
    if (!h || i < 0 || i >= h->nlights)
        return;
    /* Not kept: the renderer's light callback marks the light the loop
       is at, for lightsource() in the body. */
    RslLightRows r;
    ask(h, i, base, W, mask, args, &r);
    uint32_t use = r.reach & ~r.ambient;
    for (int j = 0; j < W; j++) {
        float L[3], axis[3];
        bool on = use >> j & 1;
        lane3(r.s, W, j, L);
        if (cone) {
            lane3(args + 3 * W, W, j, axis);
            on = on && rsl_in_cone(L, axis, row(args, 6, W, j));
        }
        for (int k = 0; k < 9; k++)
            out[k * W + j] = on ? r.s[k * W + j] : 0;
        out[9 * W + j] = on;
    }
}
