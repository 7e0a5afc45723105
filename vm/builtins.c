/*
** builtins.c: the VM runtime's builtin table. Each bound name gets a lane
** function that adapts the VM's calling form to the one implementation of
** the builtin's semantics: mathlib.c for pure math, noise.c, color.c.
*/
#include <stdio.h>
#include <string.h>

#include "vm/builtins.h"
#include "vm/color.h"
#include "vm/lights.h"
#include "vm/mathlib.h"
#include "vm/noise.h"

enum { MAX_SIG = 32 };

/* A parsed name: argument widths and the result's. */
typedef struct Sig {
    char base[32];
    int nargs;
    char letter[MAX_SIG];
    int width[MAX_SIG];
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

static bool parse_sig(const char *name, Sig *s)
{
    const char *open = strchr(name, '('), *close = strrchr(name, ')');
    if (!open || !close || close < open || (size_t)(open - name) >= sizeof s->base
        || open == name)
        return false;
    memcpy(s->base, name, (size_t)(open - name));
    s->base[open - name] = '\0';
    s->nargs = 0;
    for (const char *p = open + 1; p < close;) {
        int w = letter_width(*p);
        if (w <= 0 || s->nargs == MAX_SIG)
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
        s->width[s->nargs++] = w;
    }
    s->result = close[1];
    s->outn = letter_width(s->result);
    return s->outn >= 0 && close[2] == '\0';
}

/* ---- pure math: mathlib's evaluator, by name ---------------------------------- */

static void math_lane(float *out, const float *const *args, const int *argn, int nargs,
                      const VmBuiltin *self)
{
    if (!rsl_builtin_eval(self->base, nargs, args, argn, out, self->outn))
        memset(out, 0, (size_t)self->outn * sizeof *out);
}

/* ---- noise ------------------------------------------------------------------------ */

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

static void noise_lane(float *out, const float *const *args, const int *argn, int nargs,
                       const VmBuiltin *self)
{
    bool periodic = strcmp(self->base, "pnoise") == 0;
    bool cell = strcmp(self->base, "cellnoise") == 0;
    int npos = periodic ? nargs / 2 : nargs;
    float p[4], per[4];
    int dim = 0;
    for (int i = 0; i < npos; i++)
        for (int k = 0; k < argn[i] && dim < 4; k++) {
            p[dim] = args[i][k];
            if (periodic)
                per[dim] = args[npos + i][k];
            dim++;
        }
    for (int c = 0; c < self->outn; c++)
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

/* ---- color spaces ------------------------------------------------------------------ */

static const char *string_arg(const VmBuiltin *self, float f)
{
    uint32_t idx;
    memcpy(&idx, &f, sizeof idx);
    return idx < self->nstrings ? self->strings[idx] : "";
}

/* ctransform(to, c) from rgb, or ctransform(from, to, c). An unknown
   space leaves the color as it was. */
static void ctransform_lane(float *out, const float *const *args, const int *argn, int nargs,
                            const VmBuiltin *self)
{
    (void)argn;
    const char *from = nargs == 3 ? string_arg(self, args[0][0]) : "rgb";
    const char *to = string_arg(self, args[nargs - 2][0]);
    const float *c = args[nargs - 1];
    if (!rsl_color_convert(from, to, c, out))
        memcpy(out, c, 3 * sizeof *c);
}

static bool ctransform_sig(const Sig *s)
{
    return strcmp(s->base, "ctransform") == 0 && s->result == 'c'
        && ((s->nargs == 2 && !strcmp(s->letter, "sc"))
            || (s->nargs == 3 && s->letter[0] == 's' && s->letter[1] == 's' && s->letter[2] == 'c'));
}

/* The lighting builtins, with P appended by the code generator, and the
   two internal names illuminance compiles to. */
static VmLaneFn lighting_sig(const Sig *s)
{
    static const struct {
        const char *name;
        VmLaneFn fn;
    } table[] = {
        { "ambient(p)c", vm_light_builtin }, { "diffuse(np)c", vm_light_builtin },
        { "specular(nvfp)c", vm_light_builtin }, { "phong(nvfp)c", vm_light_builtin },
        { "__nlights()f", vm_light_count }, { "__light(fp)m", vm_light_sample },
        { "__light(fpvf)m", vm_light_sample },
        { "__illuminate(pp)m", vm_light_illuminate },
        { "__illuminate(pvfp)m", vm_light_illuminate },
        { "__solar(p)m", vm_light_solar }, { "__solar(vfp)m", vm_light_solar },
    };
    char name[MAX_SIG + 40];
    int n = snprintf(name, sizeof name, "%s(", s->base);
    for (int i = 0; i < s->nargs && n < (int)sizeof name - 4; i++)
        name[n++] = s->letter[i];
    snprintf(name + n, sizeof name - (size_t)n, ")%c", s->result);
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(table[i].name, name))
            return table[i].fn;
    return NULL;
}

int vm_bind_builtins(VmBuiltin *out, const char *const *names, uint32_t n,
                     const char *const *strings, uint32_t nstrings, const struct VmHost *host,
                     char *err, int errlen)
{
    for (uint32_t i = 0; i < n; i++) {
        Sig s;
        memset(&s, 0, sizeof s);
        if (!parse_sig(names[i], &s)) {
            snprintf(err, (size_t)errlen, "malformed builtin name '%s'", names[i]);
            return -1;
        }
        VmBuiltin *b = &out[i];
        *b = (VmBuiltin){ .name = names[i], .outn = s.outn ? s.outn : 1, .strings = strings,
                          .nstrings = nstrings, .host = host };
        memcpy(b->base, s.base, sizeof b->base);
        b->fn = lighting_sig(&s);
        if (!b->fn && noise_sig(&s)) {
            b->fn = noise_lane;
        } else if (!b->fn && ctransform_sig(&s)) {
            b->fn = ctransform_lane;
        } else if (!b->fn) {
            /* Pure math mathlib knows, for these argument shapes. */
            float zero[MAX_SIG][16] = { { 0 } }, res[16];
            const float *args[MAX_SIG];
            bool fits = s.outn > 0;
            for (int k = 0; k < s.nargs; k++) {
                args[k] = zero[k];
                fits &= s.width[k] <= 16 && s.letter[k] != 's';
            }
            if (fits && rsl_builtin_eval(s.base, s.nargs, args, s.width, res, s.outn))
                b->fn = math_lane;
        }
        if (!b->fn) {
            snprintf(err, (size_t)errlen, "builtin '%s' is not available in the VM runtime",
                     names[i]);
            return -1;
        }
    }
    return 0;
}
