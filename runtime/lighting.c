/*
** lighting.c: the lighting builtins over a group of W lanes (lighting.h).
** They follow RISpec 3.2 section 15.6, each an illuminance loop over the
** non-ambient lights in the hemisphere around N (cone angle PI/2):
**   ambient()            sum of the ambient lights' Cl
**   diffuse(N)           sum Cl * (normalize(L) . N)
**   specular(N, V, r)    sum Cl * max(0, N . normalize(normalize(L) + V))^(8/r)
**   phong(N, V, size)    sum Cl * max(0, R . normalize(L))^size,
**                        R = reflect(-normalize(V), normalize(N))
** specular()'s exponent is 8/r, not RISpec's 1/r: PRMan's and BMRT's
** specular() draw highlights that much tighter (Aqsis and RibTools use
** 8/r to match them), and scenes are written and their roughness tuned
** against those renderers: with 1/r a roughness 0.1 plastic highlight
** covers most of a sphere. specularbrdf() is specular()'s lobe and keeps
** the same exponent, so an illuminance loop can rebuild specular().
**
** The loops run lights outside and lanes inside: each light is asked of
** the host once for the group (lightrows.c), and the per-lane maths reads
** rows, so that native code, which inlines this file with W a constant,
** vectorises it; what talks to the host stays out of line (lightrows.c
** is not in the bitcode), which keeps the inlined code, and the time to
** compile it, small. A lane outside the
** mask or out of a light's reach computes on whatever its rows hold and
** its sum is left as it was (a select, not a branch), so that NaN or
** infinity there never reaches a result.
*/
#include <math.h>
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

float rsl_specular_exponent(float roughness)
{
    return 8 / roughness;
}

/* The specular lobe for unit direction l to the light: max(0, N . H) to
   the power rsl_specular_exponent(roughness), H the half vector of l
   and V. */
static float specular_weight(const float *l, const float *N, const float *V, float roughness)
{
    float hv[3], hn[3];
    for (int k = 0; k < 3; k++)
        hv[k] = l[k] + V[k];
    normalize3(hv, hn);
    float d = dot3(N, hn);
    return powf(d > 0 ? d : 0, rsl_specular_exponent(roughness));
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

float rsl_light_weight(int kind, const float L[3], const float N[3], const float V[3], float x,
                       bool *on)
{
    if (kind == RSL_SHADE_AMBIENT)
        return 1;
    float l[3];
    *on = *on && rsl_in_cone(L, N, (float)M_PI / 2);
    normalize3(L, l);
    return kind == RSL_SHADE_DIFFUSE    ? dot3(l, N)
           : kind == RSL_SHADE_SPECULAR ? specular_weight(l, N, V, x)
                                        : phong_weight(l, N, V, x);
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
        rsl_light_lobes(h, kind, base, W, mask, args);
    for (int i = 0; i < h->nlights; i++) {
        RslLightRows scratch;
        const RslLightRows *r = rsl_light_group(ls, i, base, W, mask, P, &scratch);
        uint32_t use = r->reach & mask & (kind == RSL_SHADE_AMBIENT ? r->ambient : ~r->ambient);
        if (!use)
            continue;
        for (int j = 0; j < W; j++) {
            float L[3], N[3] = { 0, 0, 0 }, V[3] = { 0, 0, 0 }, x = 0;
            bool on = use >> j & 1;
            lane3(r->s, W, j, L);
            if (kind != RSL_SHADE_AMBIENT)
                lane3(args, W, j, N);
            if (kind >= RSL_SHADE_SPECULAR) {
                lane3(args + 3 * W, W, j, V);
                x = row(args, 6, W, j);
            }
            float w = rsl_light_weight(kind, L, N, V, x, &on);
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
    if (h && h->lobe)
        rsl_light_lobes(h, RSL_SHADE_ILLUMINANCE, base, W, mask, args);
    if (!h || i < 0 || i >= h->nlights)
        return;
    /* Not kept: the renderer's light callback marks the light the loop
       is at, for lightsource() in the body. */
    RslLights once = { h, NULL };
    RslLightRows scratch;
    const RslLightRows *r = rsl_light_group(&once, i, base, W, mask, args, &scratch);
    uint32_t use = r->reach & ~r->ambient;
    for (int j = 0; j < W; j++) {
        float L[3], axis[3];
        bool on = use >> j & 1;
        lane3(r->s, W, j, L);
        if (cone) {
            lane3(args + 3 * W, W, j, axis);
            on = on && rsl_in_cone(L, axis, row(args, 6, W, j));
        }
        for (int k = 0; k < 9; k++)
            out[k * W + j] = on ? r->s[k * W + j] : 0;
        out[9 * W + j] = on;
    }
}

void rsl_illuminate(int cone, int W, uint32_t mask, const float *args, float *out)
{
    const float *Ps = args + (cone ? 7 : 3) * W;
    memset(out, 0, 10 * (size_t)W * sizeof *out);
    for (int j = 0; j < W; j++) {
        float L[3], axis[3];
        bool on = mask >> j & 1;
        for (int k = 0; k < 3; k++)
            L[k] = row(Ps, k, W, j) - row(args, k, W, j);
        if (cone) {
            lane3(args + 3 * W, W, j, axis);
            on = on && rsl_in_cone(L, axis, row(args, 6, W, j));
        }
        for (int k = 0; k < 3; k++)
            out[k * W + j] = L[k];
        out[9 * W + j] = on;
    }
}

void rsl_solar(int axis_given, int W, uint32_t mask, const float *args, float *out)
{
    memset(out, 0, 10 * (size_t)W * sizeof *out);
    for (int j = 0; j < W; j++) {
        bool on = mask >> j & 1;
        for (int k = 0; on && axis_given && k < 3; k++)
            out[k * W + j] = row(args, k, W, j);
        out[9 * W + j] = on;
    }
}
