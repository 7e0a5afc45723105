/*
** lights.c: the lighting builtins and illuminance's light loop over a
** VmHost (host.h).
**
** The builtins follow their RISpec 3.2 definitions (section 15.6), each an
** illuminance loop over the non-ambient lights in the hemisphere around N
** (cone angle PI/2):
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
** The code generator passes the shading point P as a last argument, since
** the lights are seen from there.
*/
#include <math.h>
#include <string.h>

#include "runtime/builtins.h"
#include "runtime/host.h"
#include "vm/lanes.h"
#include "vm/lights.h"

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

/* Is direction l within angle of axis? (Both need not be unit.) The
   hemisphere (angle pi/2) is the common case: a sign test. */
static bool in_cone(const float *l, const float *axis, float angle)
{
    float d = dot3(l, axis), l2 = dot3(l, l), a2 = dot3(axis, axis);
    if (l2 == 0 || a2 == 0)
        return false;
    if (angle == (float)M_PI / 2)
        return d >= -1e-6f * sqrtf(l2 * a2);
    return d >= (cosf(angle) - 1e-6f) * sqrtf(l2 * a2);
}

/* specular()'s exponent for a roughness (see the top of the file). */
static float specular_exponent(float roughness)
{
    return 8 / roughness;
}

/* The specular lobe for unit direction l to the light: max(0, N . H) to
   the power specular_exponent(roughness), H the half vector of l and V. */
static float specular_weight(const float *l, const float *N, const float *V, float roughness)
{
    float hv[3], hn[3];
    for (int k = 0; k < 3; k++)
        hv[k] = l[k] + V[k];
    normalize3(hv, hn);
    float d = dot3(N, hn);
    return powf(d > 0 ? d : 0, specular_exponent(roughness));
}

typedef enum Shade { SH_AMBIENT, SH_DIFFUSE, SH_SPECULAR, SH_PHONG } Shade;

static void shade(const VmHost *h, int lane, Shade kind, const float *const *args, int nargs,
                  float *out)
{
    const float *P = args[nargs - 1];
    out[0] = out[1] = out[2] = 0;
    if (h && h->lobe && kind == SH_DIFFUSE)
        h->lobe(h->user, lane, VM_LOBE_COSINE, args[0], NULL, 0);
    else if (h && h->lobe && kind == SH_SPECULAR)
        h->lobe(h->user, lane, VM_LOBE_SPECULAR, args[0], args[1], specular_exponent(args[2][0]));
    else if (h && h->lobe && kind == SH_PHONG)
        h->lobe(h->user, lane, VM_LOBE_PHONG, args[0], args[1], args[2][0]);
    for (int i = 0; h && i < h->nlights; i++) {
        VmLightSample s;
        if (!h->light(h->user, i, lane, P, &s) || s.ambient != (kind == SH_AMBIENT))
            continue;
        float w = 1;
        if (kind != SH_AMBIENT) {
            const float *N = args[0];
            if (!in_cone(s.L, N, (float)M_PI / 2))
                continue;
            float l[3];
            normalize3(s.L, l);
            if (kind == SH_DIFFUSE) {
                w = dot3(l, N);
            } else if (kind == SH_SPECULAR) {
                w = specular_weight(l, N, args[1], args[2][0]);
            } else {
                float v[3], n[3], r[3];
                normalize3(args[1], v);
                normalize3(N, n);
                float vn = dot3(v, n); /* R = reflect(-V, N) = -V + 2 (V.N) N */
                for (int k = 0; k < 3; k++)
                    r[k] = -v[k] + 2 * vn * n[k];
                float d = dot3(r, l);
                w = powf(d > 0 ? d : 0, args[2][0]);
            }
        }
        for (int k = 0; k < 3; k++)
            out[k] += s.Cl[k] * w;
    }
}

void vm_light_builtin(float *out, const VmCall *call)
{
    static const Shade by_fn[BI_COUNT] = { [BI_AMBIENT] = SH_AMBIENT, [BI_DIFFUSE] = SH_DIFFUSE,
                                           [BI_SPECULAR] = SH_SPECULAR, [BI_PHONG] = SH_PHONG };
    shade(call->self->host, call->lane, by_fn[call->self->id], call->args, call->nargs, out);
}

void vm_light_count(float *out, const VmCall *call)
{
    const VmHost *host = call->self->host;
    out[0] = host ? (float)host->nlights : 0;
}

/* Is the name a..b (spaces trimmed) one of the comma-separated cats? */
static bool in_list(const char *cats, const char *a, const char *b)
{
    while (a < b && *a == ' ')
        a++;
    while (b > a && b[-1] == ' ')
        b--;
    if (a == b || (b - a == 1 && *a == '*'))
        return true;
    for (const char *c = cats; *c;) {
        const char *e = c;
        while (*e && *e != ',')
            e++;
        const char *x = c, *y = e;
        while (x < y && *x == ' ')
            x++;
        while (y > x && y[-1] == ' ')
            y--;
        if (y - x == b - a && !memcmp(x, a, (size_t)(b - a)))
            return true;
        c = *e ? e + 1 : e;
    }
    return false;
}

bool vm_light_in_category(const char *cats, const char *expr)
{
    const char *p = expr;
    for (;;) { /* an alternative: terms joined by '&' */
        bool all = true;
        for (;;) {
            while (*p == ' ')
                p++;
            bool not = *p == '-' || *p == '!';
            p += not;
            const char *a = p;
            while (*p && *p != '&' && *p != '|' && *p != ',')
                p++;
            if (in_list(cats, a, p) == not)
                all = false;
            if (*p != '&')
                break;
            p++;
        }
        if (all)
            return true;
        if (!*p)
            return false;
        p++;
    }
}

/* One light for illuminance: args are the light index, P, optionally
   axis and angle, and optionally the category. out: L, Cl, Ol, and 1 if
   the light takes part. */
void vm_light_sample(float *out, const VmCall *call)
{
    const VmHost *host = call->self->host;
    const float *const *args = call->args;
    bool category = call->nargs == 3 || call->nargs == 5;
    VmLightSample s;
    memset(out, 0, 10 * sizeof *out);
    if (host && host->lobe)
        host->lobe(host->user, call->lane, VM_LOBE_COSINE, NULL, NULL, 0);
    if (category && host) {
        const char *cats = host->light_category
                               ? host->light_category(host->user, (int)args[0][0]) : NULL;
        if (!cats)
            vm_lane_warn(call, "this renderer does not tell which categories its lights are "
                         "in: \"%s\" runs over every light", vm_lane_string(call, call->nargs - 1));
        else if (!vm_light_in_category(cats, vm_lane_string(call, call->nargs - 1)))
            return;
    }
    if (!host || !host->light(host->user, (int)args[0][0], call->lane, args[1], &s)
        || s.ambient)
        return;
    if (call->nargs - category >= 4 && !in_cone(s.L, args[2], args[3][0]))
        return;
    memcpy(out, s.L, sizeof s.L);
    memcpy(out + 3, s.Cl, sizeof s.Cl);
    memcpy(out + 6, s.Ol, sizeof s.Ol);
    out[9] = 1;
}

/* illuminate(from [, axis, angle]) at Ps: L = Ps - from, and the point
   takes part if L is within angle of axis. args: from, [axis, angle,] Ps. */
void vm_light_illuminate(float *out, const VmCall *call)
{
    const float *const *args = call->args;
    int nargs = call->nargs;
    const float *Ps = args[nargs - 1], *from = args[0];
    memset(out, 0, 10 * sizeof *out);
    for (int k = 0; k < 3; k++)
        out[k] = Ps[k] - from[k];
    out[9] = nargs < 4 || in_cone(out, args[1], args[2][0]);
}

/* solar([axis, angle]): light arriving along axis (L = axis); without
   arguments, from every direction (L left zero). Every point takes part. */
void vm_light_solar(float *out, const VmCall *call)
{
    memset(out, 0, 10 * sizeof *out);
    if (call->nargs >= 2)
        memcpy(out, call->args[0], 3 * sizeof *out);
    out[9] = 1;
}

/* specularbrdf(L, N, V, roughness): specular's lobe for one direction L,
   as a color (white: the caller multiplies by Cl). */
void vm_light_specularbrdf(float *out, const VmCall *call)
{
    float l[3];
    normalize3(call->args[0], l);
    out[0] = out[1] = out[2] = specular_weight(l, call->args[1], call->args[2],
                                               call->args[3][0]);
}
