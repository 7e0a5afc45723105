/*
** mathlib.c: RSL's pure math builtins in single precision (RI Spec
** 3.2, section 15.1). Shared by the constant folder and the VM runtime:
** keep it free of IR and compiler state.
**
** A builtin is a row in a table: its name, arity and an evaluator. Most
** are componentwise over float or triples (min, max, clamp, mix, step ...
** accept colors and points per component); a float argument given with
** triples is broadcast, as RSL promotes it.
*/
#include <math.h>
#include <string.h>

#include "runtime/mathlib.h"

typedef float (*Map1)(float);
typedef float (*Map2)(float, float);
typedef float (*Map3)(float, float, float);

static float f_radians(float d) { return d * (float)(M_PI / 180.0); }
static float f_degrees(float r) { return r * (float)(180.0 / M_PI); }
static float f_sign(float x) { return x < 0 ? -1.0f : x > 0 ? 1.0f : 0.0f; }
static float f_min(float a, float b) { return a < b ? a : b; }
static float f_max(float a, float b) { return a > b ? a : b; }
static float f_step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
static float f_logb(float x, float base) { return logf(x) / logf(base); }
/* RSL: a - n*b for an integer n with the result in [0, b). */
static float f_mod(float a, float b) { return a - b * floorf(a / b); }
/* clamp(x, lo, hi) = max(min(x, hi), lo): where lo > hi, lo wins. The
   RISpec leaves that case open; this is the order Gritz's shaders rely on
   (ARMan's smoke.sl steps by clamp(ss, 0.005, end - d) and only ends
   because the step stays 0.005 once d reaches end; OSL, his later
   language, defines clamp so), and it is the same wherever lo <= hi. A
   NaN gives lo, as min(max(x, lo), hi) gave it. */
static float f_clamp(float x, float lo, float hi)
{
    return !(x > lo) ? lo : x > hi ? f_max(hi, lo) : x;
}
static float f_mix(float x, float y, float t) { return x * (1.0f - t) + y * t; }

static float f_smoothstep(float lo, float hi, float x)
{
    if (x < lo)
        return 0.0f;
    if (x >= hi)
        return 1.0f;
    float t = (x - lo) / (hi - lo);
    return t * t * (3.0f - 2.0f * t);
}

float rsl_inversesqrt(float x)
{
    return 1.0f / sqrtf(x);
}

void rsl_normalize(const float a[3], float out[3])
{
    float len = sqrtf(rsl_dot(a, a));
    for (int i = 0; i < 3; i++)
        out[i] = a[i] / len;
}

float rsl_dot(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

void rsl_cross(const float a[3], const float b[3], float out[3])
{
    float r[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0] };
    memcpy(out, r, sizeof r);
}

void rsl_matmul(const float a[16], const float b[16], float out[16])
{
    float r[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a[i * 4 + k] * b[k * 4 + j];
            r[i * 4 + j] = s;
        }
    memcpy(out, r, sizeof r);
}

/* Gauss-Jordan with partial pivoting, in double for a stable result. */
static double gauss_jordan(const float m[16], float out[16])
{
    double a[4][8], det = 1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++)
            a[i][j] = j < 4 ? m[i * 4 + j] : (j - 4 == i);
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        if (a[p][c] == 0) {
            memset(out, 0, 16 * sizeof *out);
            return 0;
        }
        if (p != c) {
            det = -det;
            for (int j = 0; j < 8; j++) {
                double t = a[p][j];
                a[p][j] = a[c][j];
                a[c][j] = t;
            }
        }
        double piv = a[c][c];
        det *= piv;
        for (int j = 0; j < 8; j++)
            a[c][j] /= piv;
        for (int r = 0; r < 4; r++)
            if (r != c && a[r][c] != 0) {
                double f = a[r][c];
                for (int j = 0; j < 8; j++)
                    a[r][j] -= f * a[c][j];
            }
    }
    for (int i = 0; i < 16; i++)
        out[i] = (float)a[i / 4][4 + i % 4];
    return det;
}

bool rsl_matinv(const float m[16], float out[16])
{
    return gauss_jordan(m, out) != 0;
}

float rsl_determinant(const float m[16])
{
    float scratch[16];
    return (float)gauss_jordan(m, scratch);
}

/* ---- the table ---------------------------------------------------------------- */

typedef enum Shape { MAP1, MAP2, MAP3, MAPN, SPECIAL } Shape;

typedef struct Args {
    int n;
    const float *const *a;
    const int *len;
    float *out;
    int outn;
} Args;

typedef bool (*Special)(const Args *x);

static bool is3(const Args *x, int i) { return x->len[i] == 3; }

static bool sp_length(const Args *x)
{
    if (!is3(x, 0) || x->outn != 1)
        return false;
    x->out[0] = sqrtf(rsl_dot(x->a[0], x->a[0]));
    return true;
}

static bool sp_distance(const Args *x)
{
    if (!is3(x, 0) || !is3(x, 1) || x->outn != 1)
        return false;
    float d[3];
    for (int i = 0; i < 3; i++)
        d[i] = x->a[0][i] - x->a[1][i];
    x->out[0] = sqrtf(rsl_dot(d, d));
    return true;
}

static bool sp_normalize(const Args *x)
{
    if (!is3(x, 0) || x->outn != 3)
        return false;
    rsl_normalize(x->a[0], x->out);
    return true;
}

/* Distance from q to the segment p1-p2. */
static bool sp_ptlined(const Args *x)
{
    if (!is3(x, 0) || !is3(x, 1) || !is3(x, 2) || x->outn != 1)
        return false;
    const float *p1 = x->a[0], *p2 = x->a[1], *q = x->a[2];
    float d[3], w[3];
    for (int i = 0; i < 3; i++) {
        d[i] = p2[i] - p1[i];
        w[i] = q[i] - p1[i];
    }
    float dd = rsl_dot(d, d), t = dd > 0 ? f_clamp(rsl_dot(w, d) / dd, 0, 1) : 0;
    for (int i = 0; i < 3; i++)
        w[i] -= t * d[i];
    x->out[0] = sqrtf(rsl_dot(w, w));
    return true;
}

/* faceforward(N, I, Nref) = N pointing away from I; only the explicit
   Nref form: the two-argument form reads Ng. */
static bool sp_faceforward(const Args *x)
{
    if (x->n != 3 || !is3(x, 0) || !is3(x, 1) || !is3(x, 2) || x->outn != 3)
        return false;
    float s = rsl_dot(x->a[1], x->a[2]) < 0 ? 1.0f : -1.0f;
    for (int i = 0; i < 3; i++)
        x->out[i] = s * x->a[0][i];
    return true;
}

static bool sp_reflect(const Args *x)
{
    if (!is3(x, 0) || !is3(x, 1) || x->outn != 3)
        return false;
    float k = 2 * rsl_dot(x->a[0], x->a[1]);
    for (int i = 0; i < 3; i++)
        x->out[i] = x->a[0][i] - k * x->a[1][i];
    return true;
}

/* refract(I, N, eta): zero vector on total internal reflection. */
static bool sp_refract(const Args *x)
{
    if (!is3(x, 0) || !is3(x, 1) || x->len[2] != 1 || x->outn != 3)
        return false;
    float eta = x->a[2][0], idn = rsl_dot(x->a[0], x->a[1]);
    float k = 1 - eta * eta * (1 - idn * idn);
    for (int i = 0; i < 3; i++)
        x->out[i] = k < 0 ? 0 : eta * x->a[0][i] - (eta * idn + sqrtf(k)) * x->a[1][i];
    return true;
}

static bool component(const Args *x, int c)
{
    if (!is3(x, 0) || x->outn != 1)
        return false;
    x->out[0] = x->a[0][c];
    return true;
}
static bool sp_xcomp(const Args *x) { return component(x, 0); }
static bool sp_ycomp(const Args *x) { return component(x, 1); }
static bool sp_zcomp(const Args *x) { return component(x, 2); }

/* comp(triple, i) and comp(matrix, row, col); indices clamped like aget. */
static bool sp_comp(const Args *x)
{
    int idx[2];
    for (int i = 1; i < x->n; i++) {
        float f = x->a[i][0];
        int hi = x->len[0] == 16 ? 3 : 2;
        idx[i - 1] = f < 0 ? 0 : f > hi ? hi : (int)f;
    }
    if (x->outn != 1)
        return false;
    if (x->len[0] == 3 && x->n == 2)
        x->out[0] = x->a[0][idx[0]];
    else if (x->len[0] == 16 && x->n == 3)
        x->out[0] = x->a[0][idx[0] * 4 + idx[1]];
    else
        return false;
    return true;
}

static bool sp_determinant(const Args *x)
{
    if (x->len[0] != 16 || x->outn != 1)
        return false;
    x->out[0] = rsl_determinant(x->a[0]);
    return true;
}

/* transform(matrix, point): homogeneous; vtransform/ntransform by matrix
   treat the triple as a direction (normals by the inverse transpose). */
static bool xform(const Args *x, int how)
{
    if (x->n != 2 || x->len[0] != 16 || !is3(x, 1) || x->outn != 3)
        return false;
    float m[16], r[4] = { 0 };
    const float *p = x->a[1];
    memcpy(m, x->a[0], sizeof m);
    if (how == 2 && !rsl_matinv(x->a[0], m))
        return false;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 3; i++)
            r[j] += p[i] * (how == 2 ? m[j * 4 + i] : m[i * 4 + j]);
    if (how == 0)
        for (int j = 0; j < 4; j++)
            r[j] += m[12 + j];
    float w = how == 0 ? r[3] : 1.0f;
    for (int i = 0; i < 3; i++)
        x->out[i] = r[i] / w;
    return true;
}
static bool sp_transform(const Args *x) { return xform(x, 0); }
static bool sp_vtransform(const Args *x) { return xform(x, 1); }
static bool sp_ntransform(const Args *x) { return xform(x, 2); }

/* The rotation by angle radians about unit axis a (right-hand rule), for
   row vectors: p' = p M. */
static void rotation(float angle, const float axis[3], float m[16])
{
    float len = sqrtf(rsl_dot(axis, axis)), a[3];
    for (int i = 0; i < 3; i++)
        a[i] = len > 0 ? axis[i] / len : 0;
    float c = cosf(angle), s = sinf(angle), t = 1 - c;
    float r[16] = {
        c + t * a[0] * a[0], t * a[0] * a[1] + s * a[2], t * a[0] * a[2] - s * a[1], 0,
        t * a[0] * a[1] - s * a[2], c + t * a[1] * a[1], t * a[1] * a[2] + s * a[0], 0,
        t * a[0] * a[2] + s * a[1], t * a[1] * a[2] - s * a[0], c + t * a[2] * a[2], 0,
        0, 0, 0, 1,
    };
    memcpy(m, r, sizeof r);
}

/* translate(m, t), rotate(m, angle, axis), scale(m, s): like RiTranslate,
   RiRotate and RiScale on a current transformation m, the new transform
   applies first (X * m for row vectors). Angles are in radians. */
static bool concat_first(const Args *x, const float t[16])
{
    if (x->len[0] != 16 || x->outn != 16)
        return false;
    rsl_matmul(t, x->a[0], x->out);
    return true;
}

static bool sp_translate(const Args *x)
{
    if (!is3(x, 1))
        return false;
    float t[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x->a[1][0], x->a[1][1], x->a[1][2], 1 };
    return concat_first(x, t);
}

static bool sp_scale(const Args *x)
{
    if (!is3(x, 1))
        return false;
    float t[16] = { x->a[1][0], 0, 0, 0, 0, x->a[1][1], 0, 0, 0, 0, x->a[1][2], 0, 0, 0, 0, 1 };
    return concat_first(x, t);
}

/* rotate(m, angle, axis), or rotate(Q, angle, P0, P1): the point Q turned
   by angle about the line from P0 towards P1. */
static bool sp_rotate(const Args *x)
{
    float r[16];
    if (x->n == 3) {
        if (x->len[1] != 1 || !is3(x, 2))
            return false;
        rotation(x->a[1][0], x->a[2], r);
        return concat_first(x, r);
    }
    if (!is3(x, 0) || x->len[1] != 1 || !is3(x, 2) || !is3(x, 3) || x->outn != 3)
        return false;
    const float *q = x->a[0], *p0 = x->a[2], *p1 = x->a[3];
    float axis[3], d[3];
    for (int i = 0; i < 3; i++) {
        axis[i] = p1[i] - p0[i];
        d[i] = q[i] - p0[i];
    }
    rotation(x->a[1][0], axis, r);
    for (int j = 0; j < 3; j++)
        x->out[j] = p0[j] + d[0] * r[j] + d[1] * r[4 + j] + d[2] * r[8 + j];
    return true;
}

void rsl_fresnel(const float I[3], const float N[3], float eta, float *Kr, float *Kt)
{
    float li = sqrtf(rsl_dot(I, I)), ln = sqrtf(rsl_dot(N, N));
    float ci = li > 0 && ln > 0 ? fabsf(rsl_dot(I, N)) / (li * ln) : 1;
    float st2 = eta * eta * (1 - ci * ci);
    if (st2 >= 1) { /* total internal reflection */
        *Kr = 1, *Kt = 0;
        return;
    }
    float ct = sqrtf(1 - st2);
    float rs = (eta * ci - ct) / (eta * ci + ct), rp = (ci - eta * ct) / (ci + eta * ct);
    *Kr = 0.5f * (rs * rs + rp * rp);
    *Kt = 1 - *Kr;
}

/* Filter kernels over t in [-1, 1], as RiBoxFilter and friends shape them
   across their width; and the fraction of each kernel's weight below t. */
static float k_gaussian(float t) { return expf(-2 * t * t); }
static float k_catmull_rom(float t)
{
    float r = 2 * fabsf(t);
    return r < 1 ? (1.5f * r - 2.5f) * r * r + 1 : ((-0.5f * r + 2.5f) * r - 4) * r + 2;
}

/* Simpson's rule: kernels without a tidy antiderivative, integrated in
   double for a result stable to float precision. */
static double integrate(float (*k)(float), float a, float b)
{
    enum { STEPS = 64 };
    double h = ((double)b - a) / STEPS, sum = k(a) + k(b);
    for (int i = 1; i < STEPS; i++)
        sum += (i % 2 ? 4 : 2) * k((float)(a + i * h));
    return sum * h / 3;
}

RslFilter rsl_filter(const char *name)
{
    static const char names[][9] = { [RSL_FILTER_BOX] = "box", [RSL_FILTER_TRIANGLE] = "triangle",
                                     [RSL_FILTER_GAUSSIAN] = "gaussian" };
    for (int i = RSL_FILTER_BOX; i <= RSL_FILTER_GAUSSIAN; i++)
        if (!strcmp(names[i], name))
            return (RslFilter)i;
    return RSL_FILTER_CATMULL_ROM;
}

static float below(RslFilter filter, float t)
{
    if (t <= -1)
        return 0;
    if (t >= 1)
        return 1;
    if (filter == RSL_FILTER_BOX)
        return (t + 1) / 2;
    if (filter == RSL_FILTER_TRIANGLE)
        return t < 0 ? (1 + t) * (1 + t) / 2 : 1 - (1 - t) * (1 - t) / 2;
    float (*k)(float) = filter == RSL_FILTER_GAUSSIAN ? k_gaussian : k_catmull_rom;
    return (float)(integrate(k, -1, t) / integrate(k, -1, 1));
}

float rsl_filterstep(float edge, float lo, float hi, RslFilter filter)
{
    if (!(hi > lo))
        return f_step(edge, lo);
    float c = (lo + hi) / 2, half = (hi - lo) / 2;
    return 1 - below(filter, (edge - c) / half);
}

typedef struct MathFn {
    const char *name;
    Shape shape;
    int nargs;         /* for MAP*: exact count, except MAPN (>= 2) */
    union { Map1 m1; Map2 m2; Map3 m3; Special sp; } fn;
} MathFn;

static const MathFn table[] = {
    { "radians", MAP1, 1, { .m1 = f_radians } },
    { "degrees", MAP1, 1, { .m1 = f_degrees } }, { "sin", MAP1, 1, { .m1 = sinf } },
    { "cos", MAP1, 1, { .m1 = cosf } }, { "tan", MAP1, 1, { .m1 = tanf } },
    { "asin", MAP1, 1, { .m1 = asinf } }, { "acos", MAP1, 1, { .m1 = acosf } },
    { "atan", MAP1, 1, { .m1 = atanf } }, { "atan", MAP2, 2, { .m2 = atan2f } },
    { "sqrt", MAP1, 1, { .m1 = sqrtf } },
    { "inversesqrt", MAP1, 1, { .m1 = rsl_inversesqrt } }, { "exp", MAP1, 1, { .m1 = expf } },
    { "log", MAP1, 1, { .m1 = logf } }, { "log", MAP2, 2, { .m2 = f_logb } },
    { "pow", MAP2, 2, { .m2 = powf } }, { "mod", MAP2, 2, { .m2 = f_mod } },
    { "abs", MAP1, 1, { .m1 = fabsf } }, { "sign", MAP1, 1, { .m1 = f_sign } },
    { "floor", MAP1, 1, { .m1 = floorf } }, { "ceil", MAP1, 1, { .m1 = ceilf } },
    { "round", MAP1, 1, { .m1 = roundf } }, { "step", MAP2, 2, { .m2 = f_step } },
    { "min", MAPN, 2, { .m2 = f_min } }, { "max", MAPN, 2, { .m2 = f_max } },
    { "clamp", MAP3, 3, { .m3 = f_clamp } }, { "mix", MAP3, 3, { .m3 = f_mix } },
    { "smoothstep", MAP3, 3, { .m3 = f_smoothstep } },
    { "length", SPECIAL, 1, { .sp = sp_length } },
    { "distance", SPECIAL, 2, { .sp = sp_distance } },
    { "normalize", SPECIAL, 1, { .sp = sp_normalize } },
    { "ptlined", SPECIAL, 3, { .sp = sp_ptlined } },
    { "faceforward", SPECIAL, 3, { .sp = sp_faceforward } },
    { "reflect", SPECIAL, 2, { .sp = sp_reflect } },
    { "refract", SPECIAL, 3, { .sp = sp_refract } },
    { "xcomp", SPECIAL, 1, { .sp = sp_xcomp } },
    { "ycomp", SPECIAL, 1, { .sp = sp_ycomp } },
    { "zcomp", SPECIAL, 1, { .sp = sp_zcomp } },
    { "comp", SPECIAL, 2, { .sp = sp_comp } },
    { "comp", SPECIAL, 3, { .sp = sp_comp } },
    { "determinant", SPECIAL, 1, { .sp = sp_determinant } },
    { "transform", SPECIAL, 2, { .sp = sp_transform } },
    { "vtransform", SPECIAL, 2, { .sp = sp_vtransform } },
    { "ntransform", SPECIAL, 2, { .sp = sp_ntransform } },
    { "translate", SPECIAL, 2, { .sp = sp_translate } },
    { "scale", SPECIAL, 2, { .sp = sp_scale } },
    { "rotate", SPECIAL, 3, { .sp = sp_rotate } },
    { "rotate", SPECIAL, 4, { .sp = sp_rotate } },
};

/* Component c of argument i, broadcasting floats. */
static float at(const Args *x, int i, int c)
{
    return x->a[i][x->len[i] == 1 ? 0 : c];
}

static bool componentwise(const MathFn *b, const Args *x)
{
    for (int i = 0; i < x->n; i++)
        if (x->len[i] != 1 && x->len[i] != x->outn)
            return false;
    if (x->outn != 1 && x->outn != 3)
        return false;
    for (int c = 0; c < x->outn; c++) {
        float r;
        switch (b->shape) {
        case MAP1: r = b->fn.m1(at(x, 0, c)); break;
        case MAP2: r = b->fn.m2(at(x, 0, c), at(x, 1, c)); break;
        case MAP3: r = b->fn.m3(at(x, 0, c), at(x, 1, c), at(x, 2, c)); break;
        default:
            r = at(x, 0, c);
            for (int i = 1; i < x->n; i++)
                r = b->fn.m2(r, at(x, i, c));
        }
        x->out[c] = r;
    }
    return true;
}

const RslMathFn *rsl_builtin_find(const char *name, int nargs)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        const MathFn *b = &table[i];
        if (strcmp(b->name, name) == 0
            && (b->shape == MAPN ? nargs >= b->nargs : nargs == b->nargs))
            return b;
    }
    return NULL;
}

int rsl_builtin_index(const RslMathFn *b)
{
    return (int)(b - table);
}

const RslMathFn *rsl_builtin_at(int index)
{
    return index >= 0 && index < (int)(sizeof table / sizeof *table) ? &table[index] : NULL;
}

bool rsl_builtin_apply(const RslMathFn *b, int nargs, const float *const *args,
                       const int *argn, float *out, int outn)
{
    Args x = { nargs, args, argn, out, outn };
    return b->shape == SPECIAL ? b->fn.sp(&x) : componentwise(b, &x);
}

void rsl_math_lane(const RslMathFn *fn, int nargs, const float *const *args, const int *argn,
                   float *out, int outn)
{
    if (!rsl_builtin_apply(fn, nargs, args, argn, out, outn))
        memset(out, 0, (size_t)outn * sizeof *out);
}

void rsl_math_lane_at(int index, int nargs, const float *const *args, const int *argn,
                      float *out, int outn)
{
    rsl_math_lane(&table[index], nargs, args, argn, out, outn);
}

bool rsl_builtin_eval(const char *name, int nargs, const float *const *args,
                      const int *argn, float *out, int outn)
{
    const RslMathFn *b = rsl_builtin_find(name, nargs);
    return b && rsl_builtin_apply(b, nargs, args, argn, out, outn);
}
