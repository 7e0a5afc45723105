/*
** lights.c: the lighting builtins and illuminance's light loop over a
** VmHost (host.h), one lane at a time. Their semantics are
** runtime/lighting.c's: a light's weight (rsl_light_weight) and the
** lobes the host is told of, shared with native code's groups of lanes;
** illuminance's sample is its rsl_light_sample on a group of one. The
** code generator passes the shading point P as a last argument, since
** the lights are seen from there.
*/
#include <math.h>
#include <string.h>

#include "runtime/builtins.h"
#include "runtime/host.h"
#include "runtime/lighting.h"
#include "vm/lanes.h"
#include "vm/lights.h"

/* A lane's arguments as the rows of a group of one: their floats in a
   row. */
static void pack(const VmCall *call, float *rows)
{
    for (int i = 0, n = 0; i < call->nargs; i++)
        for (int k = 0; k < call->argn[i]; k++)
            rows[n++] = call->args[i][k];
}

/* ambient, diffuse, specular, phong: the sum over the lights of Cl times
   the weight, asking the host's light for this lane (rather than
   rsl_shade_lights on a group of one, whose rows cost the VM time). */
void vm_light_builtin(float *out, const VmCall *call)
{
    static const int by_fn[BI_COUNT] = { [BI_AMBIENT] = RSL_SHADE_AMBIENT, [BI_DIFFUSE] = RSL_SHADE_DIFFUSE,
                                         [BI_SPECULAR] = RSL_SHADE_SPECULAR, [BI_PHONG] = RSL_SHADE_PHONG };
    const VmHost *h = call->self->host;
    const float *const *args = call->args, *P = args[call->nargs - 1];
    int kind = by_fn[call->self->id];
    bool ambient = kind == RSL_SHADE_AMBIENT, spec = kind >= RSL_SHADE_SPECULAR;
    out[0] = out[1] = out[2] = 0;
    if (h && h->lobe && !ambient) {
        float rows[10];
        pack(call, rows);
        rsl_light_lobes(h, kind, call->lane, 1, 1, rows);
    }
    for (int i = 0; h && i < h->nlights; i++) {
        VmLightSample s;
        if (!h->light(h->user, i, call->lane, P, &s) || s.ambient != ambient)
            continue;
        bool on = true;
        float w = rsl_light_weight(kind, s.L, ambient ? NULL : args[0], spec ? args[1] : NULL,
                                   spec ? args[2][0] : 0, &on);
        for (int k = 0; on && k < 3; k++)
            out[k] += s.Cl[k] * w;
    }
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
    bool category = call->nargs == 3 || call->nargs == 5;
    int i = (int)call->args[0][0];
    if (category && host) {
        const char *cats = host->light_category ? host->light_category(host->user, i) : NULL;
        if (!cats)
            vm_lane_warn(call, "this renderer does not tell which categories its lights are "
                         "in: \"%s\" runs over every light", vm_lane_string(call, call->nargs - 1));
        else if (!vm_light_in_category(cats, vm_lane_string(call, call->nargs - 1)))
            i = -1; /* none: the lobe is told all the same */
    }
    float rows[9]; /* i, P, axis, angle, category */
    pack(call, rows);
    RslLights ls = { host, NULL };
    rsl_light_sample(&ls, i, call->nargs - category >= 4, call->lane, 1, 1, rows + 1, out);
}

/* illuminate(from [, axis, angle]) at Ps: rsl_illuminate on a group of
   one. args: from, [axis, angle,] Ps. */
void vm_light_illuminate(float *out, const VmCall *call)
{
    float rows[10];
    pack(call, rows);
    rsl_illuminate(call->nargs >= 4, 1, 1, rows, out);
}

/* solar([axis, angle]) at Ps: rsl_solar on a group of one. args:
   [axis, angle,] Ps. */
void vm_light_solar(float *out, const VmCall *call)
{
    float rows[7];
    pack(call, rows);
    rsl_solar(call->nargs >= 2, 1, 1, rows, out);
}

/* specularbrdf(L, N, V, roughness): specular's lobe for one direction L,
   as a color (white: the caller multiplies by Cl). */
void vm_light_specularbrdf(float *out, const VmCall *call)
{
    out[0] = out[1] = out[2] = rsl_specularbrdf(call->args[0], call->args[1], call->args[2],
                                                call->args[3][0]);
}
