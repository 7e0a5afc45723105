/*
** builtins.c: binding a program's builtins by their rows in
** runtime/builtins.def. Each row's entry column names one lane function
** (ENTRY_* below) that adapts the VM's calling form to the one
** implementation of the builtin's semantics: mathlib.c for pure math,
** spline.c, noise.c, color.c, strlanes.c for strings, hostlanes.c for
** what the host answers and lights.c for lighting.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vm/builtins.h"
#include "runtime/builtins.h"
#include "runtime/color.h"
#include "vm/lanes.h"
#include "vm/lights.h"
#include "runtime/mathlib.h"
#include "runtime/noise.h"
#include "runtime/spline.h"
#include "runtime/strings.h"

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

/* ---- pure math: mathlib's evaluator, by name ---------------------------------- */

static void math_lane(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    rsl_math_lane(b->math, call->nargs, call->args, call->argn, out, b->outn);
}

/* ---- noise and random ------------------------------------------------------------- */

static void noise_lane(float *out, const VmCall *call)
{
    rsl_noise_args(out, call->self->outn, call->args, call->argn, call->nargs, RSL_NOISE);
}

static void pnoise_lane(float *out, const VmCall *call)
{
    rsl_noise_args(out, call->self->outn, call->args, call->argn, call->nargs, RSL_PNOISE);
}

static void cellnoise_lane(float *out, const VmCall *call)
{
    rsl_noise_args(out, call->self->outn, call->args, call->argn, call->nargs, RSL_CELLNOISE);
}

/* Each component draws the lane's next number. */
static void random_lane(float *out, const VmCall *call)
{
    VmState *s = call->state;
    for (int c = 0; c < call->self->outn; c++)
        out[c] = rsl_random(s->random_seed[call->lane], s->random_drawn[call->lane]++);
}

/* ---- splines ------------------------------------------------------------------------ */

/* spline([basis,] t, cv...) or spline([basis,] t, cv[]). An unknown basis
   gives zero (the compiler checks constant basis names). */
static void spline_lane(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    bool named = b->letters[0] == 's';
    RslSplineBasis basis = named ? vm_lane_options(call, 0)->basis : RSL_BASIS_CATMULL_ROM;
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
    float *t = tuple_arg(out, call, 0);
    const float *f = call->args[call->nargs - 1];
    switch (call->self->id) {
    case BI_SETMCOMP:
        t[clamp_index(call->args[1][0], 3) * 4 + clamp_index(call->args[2][0], 3)] = f[0];
        break;
    case BI_SETCOMP:
        t[clamp_index(call->args[1][0], 2)] = f[0];
        break;
    default: /* setxcomp, setycomp, setzcomp: consecutive in builtins.def */
        t[call->self->id - BI_SETXCOMP] = f[0];
    }
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

/* A direction along which den changes by less than this fraction of its
   change along the other does not count for Deriv: a renderer's
   derivatives are differences between neighbouring hits, and there a
   den that does not change along v (s on a patch) has a Dv of rounding,
   up to about 1e-5 of its Du, which made Deriv(P, s) infinite. */
#define DERIV_NEGLIGIBLE 1e-3f

/* Lowering appends the derivatives these need (the rows' implicit column):
   Deriv(num, den, Du num, Dv num, Du den, Dv den) is the change of num
   per change of den, summed over the directions in which den changes
   (RISpec's Du(num)/Du(den) + Dv(num)/Dv(den)). */
static void deriv_lane(float *out, const VmCall *call)
{
    const float *const *a = call->args;
    float du_den = a[4][0], dv_den = a[5][0];
    bool along_u = fabsf(du_den) > DERIV_NEGLIGIBLE * fabsf(dv_den);
    bool along_v = fabsf(dv_den) > DERIV_NEGLIGIBLE * fabsf(du_den);
    for (int k = 0; k < call->self->outn; k++)
        out[k] = (along_u ? a[2][k] / du_den : 0) + (along_v ? a[3][k] / dv_den : 0);
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

/* calculatenormal(P, Du P, Dv P) = Du(P) ^ Dv(P), turned around where
   the surface's orientation is (VmDeriv.flip): the normal of the moved
   surface on the side its Ng is (RISpec 3.2 section 15.2). Native code
   calls this too (backends/llvm/calls.c). */
static void calculatenormal_lane(float *out, const VmCall *call)
{
    rsl_cross(call->args[1], call->args[2], out);
    const VmDeriv *d = call->state ? call->state->deriv : NULL;
    for (int k = 0; d && d->flip && k < 3; k++)
        out[k] = -out[k];
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
        RslOptName name = vm_lane_options(call, i)->option;
        if (name == RSL_OPT_WIDTH || name == RSL_OPT_SWIDTH)
            width = a[i + 1][0];
        else if (name == RSL_OPT_FILTER && letters[i + 1] == 's')
            filter = vm_lane_options(call, i + 1)->filter;
    }
    if (!interval) {
        float w = fabsf(a[end][0] * a[end + 2][0]) + fabsf(a[end + 1][0] * a[end + 3][0]);
        lo -= w / 2, hi += w / 2;
    }
    float c = (lo + hi) / 2, half = (hi - lo) / 2 * width;
    out[0] = rsl_filterstep(a[0][0], c - half, c + half, filter);
}

/* ---- color spaces ------------------------------------------------------------------ */

/* ctransform(to, c) from rgb, or ctransform(from, to, c). An unknown
   space leaves the color as it was. */
static void ctransform_lane(float *out, const VmCall *call)
{
    int n = call->nargs;
    RslColorSpace from = n == 3 ? vm_lane_options(call, 0)->space : RSL_CS_RGB;
    RslColorSpace to = vm_lane_options(call, n - 2)->space;
    const float *c = call->args[n - 1];
    if (!rsl_color_convert(from, to, c, out))
        memcpy(out, c, 3 * sizeof *c);
}

/* ---- binding by row ------------------------------------------------------------------- */

/* builtins.def's entry column: the lane function each entry binds. */
#define ENTRY_math              math_lane
#define ENTRY_noise             noise_lane
#define ENTRY_pnoise            pnoise_lane
#define ENTRY_cellnoise         cellnoise_lane
#define ENTRY_random            random_lane
#define ENTRY_spline            spline_lane
#define ENTRY_setcomp           setcomp_lane
#define ENTRY_fresnel           fresnel_lane
#define ENTRY_deriv             deriv_lane
#define ENTRY_area              area_lane
#define ENTRY_calculatenormal   calculatenormal_lane
#define ENTRY_filterstep        filterstep_lane
#define ENTRY_ctransform        ctransform_lane
#define ENTRY_match             vm_lane_match
#define ENTRY_concat            vm_lane_concat
#define ENTRY_format            vm_lane_format
#define ENTRY_printf            vm_lane_printf
#define ENTRY_transform         vm_lane_transform
#define ENTRY_depth             vm_lane_depth
#define ENTRY_texture           vm_lane_texture
#define ENTRY_textureinfo       vm_lane_textureinfo
#define ENTRY_ray               vm_lane_ray
#define ENTRY_gather            vm_lane_gather
#define ENTRY_query             vm_lane_query
#define ENTRY_rayinfo           vm_lane_rayinfo
#define ENTRY_shadername        vm_lane_shadername
#define ENTRY_caustic           vm_lane_caustic
#define ENTRY_light             vm_light_builtin
#define ENTRY_specularbrdf      vm_light_specularbrdf
#define ENTRY_light_count       vm_light_count
#define ENTRY_light_sample      vm_light_sample
#define ENTRY_light_illuminate  vm_light_illuminate
#define ENTRY_light_solar       vm_light_solar
#define ENTRY_instr             NULL    /* Du, Dv: the DERIV instruction */
#define ENTRY_none              NULL

static const VmLaneFn row_lanes[BO_COUNT] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) [BO_##fn##_##row] = ENTRY_##entry,
#include "runtime/builtins.def"
};

/* The row's signature code decoded. */
static BuiltinCode row_code(uint32_t row)
{
    BuiltinCode code;
    const char *s = builtin_rows[row].sig;
    builtin_code_next(&s, &code);
    return code;
}

/* True if the call's types fit its row, so that no adapter sees arguments
   it does not expect (an object could be damaged or forged). */
static bool fits(const VmCallee *c, const BuiltinCode *code)
{
    int own = c->nargs - builtin_implicit_count(builtin_rows[c->row].implicit), np = code->nparams;
    if (own < np || (own > np && !code->tail) || c->result != code->result)
        return false;
    for (int i = 0; i < own; i++) {
        int k = i < np ? i : code->tail == '.' ? np - 1 : -1;
        if (k >= 0 && code->param[k].letter != '?'
            && (c->type[i] != code->param[k].letter || (c->arraylen[i] > 0) != code->param[k].array))
            return false;
    }
    for (int i = 0; i < c->nargs; i++)
        if (letter_width(c->type[i]) < 1 || c->arraylen[i] * letter_width(c->type[i]) > VM_MAX_VALUE)
            return false;
    return true;
}

int vm_callee_name(const VmCallee *c, char *buf, int len)
{
    if (c->row >= BO_COUNT)
        return snprintf(buf, (size_t)len, "row %u", c->row);
    BuiltinCode code = row_code(c->row);
    int own = c->nargs - builtin_implicit_count(builtin_rows[c->row].implicit);
    int n = snprintf(buf, (size_t)len, "%s(", builtin_fn_names[builtin_rows[c->row].fn]);
    for (int i = 0; i < c->nargs && n < len; i++) {
        n += snprintf(buf + n, (size_t)(len - n), "%s%c", i == own ? "|" : "", c->type[i]);
        if (c->arraylen[i] && n < len)
            n += snprintf(buf + n, (size_t)(len - n), "[%u]", c->arraylen[i]);
        if (i < code.nparams && code.param[i].output && n < len)
            n += snprintf(buf + n, (size_t)(len - n), "&");
    }
    if (n < len)
        n += snprintf(buf + n, (size_t)(len - n), ")%c", c->result);
    return n;
}

/* Binds one call site: its row's adapter, and the widths the VM's call
   needs. A call with an output argument returns a tuple (vm.h). */
static const char *bind(VmBuiltin *b, const VmCallee *c)
{
    if (c->row >= BO_COUNT || c->nargs > VM_MAX_ARGS)
        return "is not in this runtime's builtin table";
    BuiltinCode code = row_code(c->row);
    if (!fits(c, &code))
        return "does not fit its row of the builtin table";
    bool tuple = false;
    for (int i = 0; i < code.nparams; i++)
        tuple |= code.param[i].output;
    int outn = letter_width(code.result);
    b->retn = tuple ? outn : -1;
    for (int i = 0; i < c->nargs && tuple; i++)
        outn += letter_width(c->type[i]) * (c->arraylen[i] ? c->arraylen[i] : 1);
    if (outn > VM_MAX_VALUE)
        return "returns more than the VM's value width";
    b->outn = outn ? outn : 1;
    b->row = c->row;
    b->id = builtin_rows[c->row].fn;
    b->base = builtin_fn_names[b->id];
    b->nown = c->nargs - builtin_implicit_count(builtin_rows[c->row].implicit);
    memcpy(b->letters, c->type, c->nargs);
    b->letters[c->nargs] = '\0';
    b->fn = row_lanes[c->row];
    /* Pure math is one adapter over mathlib's table of entries. */
    if (b->fn == math_lane && !(b->math = rsl_builtin_find(b->base, c->nargs)))
        b->fn = NULL;
    return b->fn ? NULL : "is not available in the VM runtime";
}

int vm_check_calls(const VmProgram *p, const VmCallee *callees, char *err, int errlen)
{
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        VmIns ins = p->code[pc];
        if (vm_op(ins) != VM_OP_CALLB)
            continue;
        const VmCallee *c = &callees[vm_b(ins)];
        unsigned n = vm_c(ins);
        if (n != c->nargs) {
            snprintf(err, (size_t)errlen, "invalid bytecode at instruction %u (CALLB): %u "
                     "arguments to builtin %u of %u", pc, n, vm_b(ins), c->nargs);
            return -1;
        }
        for (unsigned k = 0; k < n; k++) {
            int want = letter_width(c->type[k]) * (c->arraylen[k] ? c->arraylen[k] : 1);
            if ((int)vm_b(p->code[pc + 1 + k]) != want) {
                snprintf(err, (size_t)errlen, "invalid bytecode at instruction %u (CALLB): "
                         "argument %u has width %u, its type %d", pc, k,
                         vm_b(p->code[pc + 1 + k]), want);
                return -1;
            }
        }
        pc += n;
    }
    return 0;
}

int vm_bind_builtins(VmBuiltin *out, const VmCallee *callees, uint32_t n, VmStrings *strings,
                     const struct VmHost *host, char *err, int errlen)
{
    for (uint32_t i = 0; i < n; i++) {
        out[i] = (VmBuiltin){ .strings = strings, .host = host };
        const char *why = bind(&out[i], &callees[i]);
        if (why) {
            char name[256];
            vm_callee_name(&callees[i], name, sizeof name);
            snprintf(err, (size_t)errlen, "builtin '%s' %s", name, why);
            return -1;
        }
    }
    return 0;
}
