/*
** builtins.c: the VM runtime's builtin table. Each bound name gets a lane
** function that adapts the VM's calling form to the one implementation of
** the builtin's semantics: mathlib.c for pure math, spline.c, noise.c,
** color.c, strlanes.c for strings and lights.c for lighting.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vm/builtins.h"
#include "runtime/color.h"
#include "vm/lanes.h"
#include "vm/lights.h"
#include "runtime/mathlib.h"
#include "runtime/noise.h"
#include "runtime/spline.h"
#include "runtime/strings.h"

/* A parsed name: argument letters and widths, which arguments are
   outputs, and the result's letter and width. */
typedef struct Sig {
    char base[32];
    int nargs;
    char letter[VM_MAX_ARGS + 1];
    int width[VM_MAX_ARGS];
    bool output[VM_MAX_ARGS];
    int nown;                         /* the call's own, before the extras */
    bool tuple;                       /* some argument is an output */
    char result;
    int outn;
} Sig;

static int letter_width(char c)
{
    switch (c) {
    case 'f': case 's': case 'b': return 1;
    case 'c': case 'p': case 'v': case 'n': return 3;
    case 'm': return 16;
    case 'x': return 0;
    default: return -1;
    }
}

/* name: base "(" letters ")" result, each letter optionally followed by
   "[N]" (an array) and "&" (an output); a "|" may separate the call's own
   arguments from those the code generator appends. */
static bool parse_sig(const char *name, Sig *s)
{
    const char *open = strchr(name, '('), *close = strrchr(name, ')');
    if (!open || !close || close < open || (size_t)(open - name) >= sizeof s->base
        || open == name)
        return false;
    memcpy(s->base, name, (size_t)(open - name));
    s->base[open - name] = '\0';
    s->nargs = 0;
    s->nown = -1;
    for (const char *p = open + 1; p < close;) {
        if (*p == '|' && s->nown < 0) {
            s->nown = s->nargs;
            p++;
            continue;
        }
        int w = letter_width(*p);
        if (w <= 0 || s->nargs == VM_MAX_ARGS)
            return false;
        s->letter[s->nargs] = *p++;
        if (*p == '[') {
            int len = 0;
            for (p++; *p >= '0' && *p <= '9' && len < 100000; p++)
                len = len * 10 + (*p - '0');
            if (*p++ != ']' || len < 1)
                return false;
            w *= len;
        }
        if ((s->output[s->nargs] = *p == '&'))
            p++, s->tuple = true;
        s->width[s->nargs++] = w;
    }
    s->letter[s->nargs] = '\0';
    if (s->nown < 0)
        s->nown = s->nargs;
    s->result = close[1];
    s->outn = letter_width(s->result);
    if (s->outn < 0 || close[2] != '\0')
        return false;
    int total = s->outn;
    for (int i = 0; i < s->nargs; i++)
        total += s->tuple ? s->width[i] : 0;
    if (s->tuple)
        s->outn = total;
    return total <= VM_MAX_VALUE;
}

/* ---- pure math: mathlib's evaluator, by name ---------------------------------- */

static void math_lane(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    if (!rsl_builtin_apply(b->math, call->nargs, call->args, call->argn, out, b->outn))
        memset(out, 0, (size_t)b->outn * sizeof *out);
}

static bool math_sig(const Sig *s)
{
    /* A probe call: identity matrices, since ntransform inverts its
       matrix and refuses a singular one. */
    static const float probe[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    float res[16];
    const float *args[VM_MAX_ARGS];
    if (s->outn < 1 || s->tuple)
        return false;
    for (int k = 0; k < s->nargs; k++) {
        args[k] = probe;
        if (s->width[k] > 16 || s->letter[k] == 's')
            return false;
    }
    return rsl_builtin_eval(s->base, s->nargs, args, s->width, res, s->outn);
}

/* ---- noise and random ------------------------------------------------------------- */

/* The dimension of a noise position from its argument letters: f, ff,
   a triple, or a triple and a float. */
static int noise_dim(const char *letters, int n)
{
    if (n == 1)
        return letters[0] == 'f' ? 1 : 3;
    if (n == 2)
        return letters[0] == 'f' ? 2 : 4;
    return 0;
}

static void noise_lane(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    bool periodic = strcmp(b->base, "pnoise") == 0;
    bool cell = strcmp(b->base, "cellnoise") == 0;
    int npos = periodic ? call->nargs / 2 : call->nargs;
    float p[4], per[4];
    int dim = 0;
    for (int i = 0; i < npos; i++)
        for (int k = 0; k < call->argn[i] && dim < 4; k++) {
            p[dim] = call->args[i][k];
            if (periodic)
                per[dim] = call->args[npos + i][k];
            dim++;
        }
    for (int c = 0; c < b->outn; c++)
        out[c] = cell ? rsl_cellnoise(dim, p, (unsigned)c)
                      : rsl_noise(dim, p, periodic ? per : NULL, (unsigned)c);
}

static bool noise_sig(const Sig *s)
{
    bool periodic = strcmp(s->base, "pnoise") == 0;
    if (strcmp(s->base, "noise") && !periodic && strcmp(s->base, "cellnoise"))
        return false;
    int npos = periodic ? s->nargs / 2 : s->nargs;
    if (periodic && (s->nargs % 2 || memcmp(s->letter, s->letter + npos, (size_t)npos)))
        return false;
    return noise_dim(s->letter, npos) > 0 && (s->outn == 1 || s->outn == 3);
}

/* Each component draws the lane's next number. */
static void random_lane(float *out, const VmCall *call)
{
    VmState *s = call->state;
    for (int c = 0; c < call->self->outn; c++)
        out[c] = rsl_random(s->random_seed[call->lane], s->random_drawn[call->lane]++);
}

static bool random_sig(const Sig *s)
{
    return !strcmp(s->base, "random") && s->nargs == 0 && (s->outn == 1 || s->outn == 3);
}

/* ---- splines ------------------------------------------------------------------------ */

/* spline([basis,] t, cv...) or spline([basis,] t, cv[]). An unknown basis
   gives zero (the compiler checks constant basis names). */
static void spline_lane(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    bool named = b->letters[0] == 's';
    RslSplineBasis basis = named ? rsl_spline_basis(vm_lane_string(call, 0))
                                 : RSL_BASIS_CATMULL_ROM;
    int first = named ? 2 : 1, ncv = call->nargs - first;
    float t = call->args[first - 1][0], cv[VM_MAX_VALUE];
    if (ncv == 1) { /* the array form */
        ncv = call->argn[first] / b->outn;
        memcpy(cv, call->args[first], (size_t)call->argn[first] * sizeof *cv);
    } else {
        for (int i = 0; i < ncv; i++)
            memcpy(cv + i * b->outn, call->args[first + i], (size_t)b->outn * sizeof *cv);
    }
    rsl_spline(basis, t, cv, ncv, b->outn, out);
}

static bool spline_sig(const Sig *s)
{
    if (strcmp(s->base, "spline") || s->tuple || (s->outn != 1 && s->outn != 3))
        return false;
    int first = s->letter[0] == 's' ? 2 : 1, total = 0;
    if (s->nargs <= first || s->letter[first - 1] != 'f')
        return false;
    for (int i = first; i < s->nargs; i++) {
        if (s->width[i] % s->outn || s->letter[i] == 's')
            return false;
        total += s->width[i];
    }
    return total <= VM_MAX_VALUE;
}

/* ---- builtins with output arguments ------------------------------------------------- */

/* Where argument i sits in the tuple. */
static float *tuple_arg(float *out, const VmCall *call, int i)
{
    int at = call->self->retn;
    for (int k = 0; k < i; k++)
        at += call->argn[k];
    return out + at;
}

/* setxcomp/setycomp/setzcomp(t, f), setcomp(c, i, f), setcomp(m, r, c, f):
   indexes clamp like comp's. */
static int clamp_index(float f, int hi)
{
    return f < 0 ? 0 : f > (float)hi ? hi : (int)f;
}

static void setcomp_lane(float *out, const VmCall *call)
{
    const char *base = call->self->base;
    float *t = tuple_arg(out, call, 0);
    const float *f = call->args[call->nargs - 1];
    if (!strcmp(base, "setcomp") && call->nargs == 4)
        t[clamp_index(call->args[1][0], 3) * 4 + clamp_index(call->args[2][0], 3)] = f[0];
    else if (!strcmp(base, "setcomp"))
        t[clamp_index(call->args[1][0], 2)] = f[0];
    else
        t[base[3] - 'x'] = f[0];
}

/* fresnel(I, N, eta, Kr, Kt [, R, T]). */
static void fresnel_lane(float *out, const VmCall *call)
{
    const float *I = call->args[0], *N = call->args[1];
    float eta = call->args[2][0];
    rsl_fresnel(I, N, eta, tuple_arg(out, call, 3), tuple_arg(out, call, 4));
    if (call->nargs == 7) {
        const float *args[3] = { I, N, &call->args[2][0] };
        const int argn[3] = { 3, 3, 1 };
        rsl_builtin_eval("reflect", 2, args, argn, tuple_arg(out, call, 5), 3);
        rsl_builtin_eval("refract", 3, args, argn, tuple_arg(out, call, 6), 3);
    }
}

/* ---- derivatives ---------------------------------------------------------------------- */

/* The code generator appends the derivatives these need (vmgen.c):
   Deriv(num, den, Du num, Dv num, Du den, Dv den) is the change of num
   per change of den, summed over the directions in which den changes. */
static void deriv_lane(float *out, const VmCall *call)
{
    const float *const *a = call->args;
    float du_den = a[4][0], dv_den = a[5][0];
    for (int k = 0; k < call->self->outn; k++)
        out[k] = (du_den != 0 ? a[2][k] / du_den : 0) + (dv_den != 0 ? a[3][k] / dv_den : 0);
}

/* area(P, Du P, Dv P, du, dv): the area of the surface element. */
static void area_lane(float *out, const VmCall *call)
{
    const float *const *a = call->args;
    float eu[3], ev[3], n[3];
    for (int k = 0; k < 3; k++) {
        eu[k] = a[1][k] * a[3][0];
        ev[k] = a[2][k] * a[4][0];
    }
    rsl_cross(eu, ev, n);
    out[0] = sqrtf(rsl_dot(n, n));
}

/* calculatenormal(P, Du P, Dv P) = Du(P) ^ Dv(P). */
static void calculatenormal_lane(float *out, const VmCall *call)
{
    rsl_cross(call->args[1], call->args[2], out);
}

/* filterstep(edge, s1 [, s2] [, "width", w] [, "filter", name]), and
   without s2 four more: Du s1, Dv s1, du, dv. Without s2 the interval is s1 plus or
   minus half the change of s1 over the surface element. */
static void filterstep_lane(float *out, const VmCall *call)
{
    const float *const *a = call->args;
    const char *letters = call->self->letters;
    int end = call->self->nown;
    bool interval = end == call->nargs;
    float width = 1, lo = a[1][0], hi = interval ? a[2][0] : lo;
    RslFilter filter = RSL_FILTER_CATMULL_ROM;
    for (int i = interval ? 3 : 2; i + 1 < end; i += 2) {
        const char *name = vm_lane_string(call, i);
        if (!strcmp(name, "width") || !strcmp(name, "swidth"))
            width = a[i + 1][0];
        else if (!strcmp(name, "filter") && letters[i + 1] == 's')
            filter = rsl_filter(vm_lane_string(call, i + 1));
    }
    if (!interval) {
        float w = fabsf(a[end][0] * a[end + 2][0]) + fabsf(a[end + 1][0] * a[end + 3][0]);
        lo -= w / 2, hi += w / 2;
    }
    float c = (lo + hi) / 2, half = (hi - lo) / 2 * width;
    out[0] = rsl_filterstep(a[0][0], c - half, c + half, filter);
}

static VmLaneFn deriv_sig(const Sig *s)
{
    if (!strcmp(s->base, "Deriv") && s->nargs == 6 && s->nown == 2 && s->letter[1] == 'f')
        return deriv_lane;
    if (!strcmp(s->base, "filterstep") && s->nargs >= 2 && s->result == 'f')
        return filterstep_lane;
    return NULL;
}

/* ---- color spaces ------------------------------------------------------------------ */

/* ctransform(to, c) from rgb, or ctransform(from, to, c). An unknown
   space leaves the color as it was. */
static void ctransform_lane(float *out, const VmCall *call)
{
    int n = call->nargs;
    RslColorSpace from = n == 3 ? rsl_color_space(vm_lane_string(call, 0)) : RSL_CS_RGB;
    RslColorSpace to = rsl_color_space(vm_lane_string(call, n - 2));
    const float *c = call->args[n - 1];
    if (!rsl_color_convert(from, to, c, out))
        memcpy(out, c, 3 * sizeof *c);
}

/* ---- the table ----------------------------------------------------------------------- */

/* Builtins bound by their exact name. */
static const struct {
    const char *name;
    VmLaneFn fn;
} exact[] = {
    { "ambient(|p)c", vm_light_builtin }, { "diffuse(n|p)c", vm_light_builtin },
    { "specular(nvf|p)c", vm_light_builtin }, { "phong(nvf|p)c", vm_light_builtin },
    { "specularbrdf(vnvf)c", vm_light_specularbrdf },
    { "__nlights()f", vm_light_count }, { "__light(fp)m", vm_light_sample },
    { "__light(fpvf)m", vm_light_sample }, { "__illuminate(pp)m", vm_light_illuminate },
    { "__illuminate(pvfp)m", vm_light_illuminate }, { "__solar(p)m", vm_light_solar },
    { "__solar(vfp)m", vm_light_solar },
    { "ctransform(sc)c", ctransform_lane }, { "ctransform(ssc)c", ctransform_lane },
    { "match(ss)f", vm_lane_match },
    { "setxcomp(p&f)x", setcomp_lane }, { "setxcomp(v&f)x", setcomp_lane },
    { "setxcomp(n&f)x", setcomp_lane }, { "setycomp(p&f)x", setcomp_lane },
    { "setycomp(v&f)x", setcomp_lane }, { "setycomp(n&f)x", setcomp_lane },
    { "setzcomp(p&f)x", setcomp_lane }, { "setzcomp(v&f)x", setcomp_lane },
    { "setzcomp(n&f)x", setcomp_lane }, { "setcomp(c&ff)x", setcomp_lane },
    { "setcomp(m&fff)x", setcomp_lane },
    { "fresnel(vvff&f&)x", fresnel_lane }, { "fresnel(vvff&f&v&v&)x", fresnel_lane },
    { "area(p|ppff)f", area_lane }, { "calculatenormal(p|pp)n", calculatenormal_lane },
};

/* concat(s...)s, format(s...)s and printf(s...)x. */
static VmLaneFn string_sig(const Sig *s)
{
    bool all_strings = s->nargs >= 1 && strspn(s->letter, "s") == (size_t)s->nargs;
    if (!strcmp(s->base, "concat") && s->result == 's' && all_strings)
        return vm_lane_concat;
    if (s->nargs < 1 || s->letter[0] != 's' || s->tuple)
        return NULL;
    if (!strcmp(s->base, "format") && s->result == 's')
        return vm_lane_format;
    if (!strcmp(s->base, "printf") && s->result == 'x')
        return vm_lane_printf;
    return NULL;
}

static bool base_in(const Sig *s, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(s->base, *names))
            return true;
    return false;
}

/* The builtins that ask the host (hostlanes.c). */
static VmLaneFn host_sig(const Sig *s)
{
    static const char *const spaces[] = { "transform", "vtransform", "ntransform", NULL };
    static const char *const lookups[] = { "texture", "environment", "shadow", NULL };
    static const char *const rays[] = { "trace", "transmission", "visibility", "occlusion",
                                        "indirectdiffuse", NULL };
    static const char *const queries[] = { "attribute", "option", "rendererinfo", "rayinfo",
                                           "surface", "displacement", "lightsource",
                                           "atmosphere", "incident", "opposite", NULL };
    static const char *const rayinfo[] = { "raylevel", "isshadowray", "isindirectray", NULL };
    bool named = s->nargs >= 1 && s->letter[0] == 's';
    if (base_in(s, spaces) && named && s->outn == 3 && s->nargs >= 2)
        return vm_lane_transform;
    if (!strcmp(s->base, "depth") && !strcmp(s->letter, "p"))
        return vm_lane_depth;
    if (base_in(s, lookups) && named && (s->outn == 1 || s->outn == 3) && !s->tuple)
        return vm_lane_texture;
    if (!strcmp(s->base, "textureinfo") && s->tuple && s->nargs == 3 && s->output[2])
        return vm_lane_textureinfo;
    if (base_in(s, rays) && s->nargs >= 2 && s->letter[0] == 'p' && !s->tuple)
        return vm_lane_ray;
    if (base_in(s, queries) && named && s->tuple && s->nargs == 2 && s->output[1])
        return vm_lane_query;
    if (base_in(s, rayinfo) && s->nargs == 0)
        return vm_lane_rayinfo;
    if (!strcmp(s->base, "shadername") && s->result == 's' && s->nargs <= 1)
        return vm_lane_shadername;
    return NULL;
}

static VmLaneFn lane_for(const char *name, const Sig *s)
{
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (!strcmp(exact[i].name, name))
            return exact[i].fn;
    VmLaneFn fn = string_sig(s);
    if (fn || (fn = deriv_sig(s)) || (fn = host_sig(s)))
        return fn;
    if (noise_sig(s))
        return noise_lane;
    if (random_sig(s))
        return random_lane;
    if (spline_sig(s))
        return spline_lane;
    return math_sig(s) ? math_lane : NULL;
}

int vm_bind_builtins(VmBuiltin *out, const char *const *names, uint32_t n,
                     VmStrings *strings, const struct VmHost *host, char *err, int errlen)
{
    for (uint32_t i = 0; i < n; i++) {
        Sig s;
        memset(&s, 0, sizeof s);
        if (!parse_sig(names[i], &s)) {
            snprintf(err, (size_t)errlen, "malformed builtin name '%s'", names[i]);
            return -1;
        }
        VmBuiltin *b = &out[i];
        *b = (VmBuiltin){ .name = names[i], .outn = s.outn ? s.outn : 1, .nown = s.nown,
                          .retn = s.tuple ? letter_width(s.result) : -1,
                          .strings = strings, .host = host };
        memcpy(b->base, s.base, sizeof b->base);
        memcpy(b->letters, s.letter, sizeof b->letters);
        b->fn = lane_for(names[i], &s);
        if (b->fn == math_lane)
            b->math = rsl_builtin_find(b->base, s.nargs);
        if (!b->fn) {
            snprintf(err, (size_t)errlen, "builtin '%s' is not available in the VM runtime",
                     names[i]);
            return -1;
        }
    }
    return 0;
}
