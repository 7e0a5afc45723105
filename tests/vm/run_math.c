/*
** run_math.c: compile-run-verify cases for the math builtins of RISpec
** 3.2 section 15.1: angles and trigonometry, pow/exp/log, mod, abs,
** sign, rounding, min/max/clamp/mix, step/smoothstep/filterstep, spline
** with each basis, the properties of random and the noise family, and
** uniform values beside varying ones in loops whose lanes diverge.
*/
#include <math.h>

#include "check_run.h"

static void set3(float *o, double a, double b, double c) { o[0] = (float)a, o[1] = (float)b, o[2] = (float)c; }
static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }
static double signd(double x) { return x < 0 ? -1 : x > 0 ? 1 : 0; }
/* RSL mod: a - b*floor(a/b), so the result takes the sign of b. */
static double modd(double a, double b) { return a - b * floor(a / b); }
/* RISpec smoothstep: 0 below min, 1 at or above max, Hermite between. */
static double smooth(double lo, double hi, double x)
{
    if (x < lo)
        return 0;
    if (x >= hi)
        return 1;
    double t = (x - lo) / (hi - lo);
    return t * t * (3 - 2 * t);
}
/* Property cases compute 1 when every check in the shader held. */
static void e_true(float u, float v, float *o) { (void)u, (void)v; o[0] = 1; }
static void e_true3(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 1, 1); }
static void e_zero3(float u, float v, float *o) { (void)u, (void)v; set3(o, 0, 0, 0); }
static void e_half3(float u, float v, float *o) { (void)u, (void)v; set3(o, 0.5, 0.5, 0.5); }

/* ---- angles, trigonometry, pow, exp, log ------------------------------------ */

static void e_radians(float u, float v, float *o) { (void)v; o[0] = (float)((u * 360.0 - 90) * M_PI / 180); }
static void e_degrees(float u, float v, float *o) { o[0] = (float)((u * M_PI - v) * 180 / M_PI); }
static void e_sin(float u, float v, float *o) { set3(o, sin(u * 4.0 - 2), sin(v * 7.0), 0); }
static void e_cos(float u, float v, float *o) { set3(o, cos(u * 4.0 - 2), cos(v * 7.0), 1); }
static void e_tan(float u, float v, float *o) { set3(o, tan(u * 2.0 - 1), tan(v * 0.5), 0); }
static void e_asin(float u, float v, float *o) { set3(o, asin(u * 2.0 - 1), asin(v), 0); }
static void e_acos(float u, float v, float *o) { set3(o, acos(u * 2.0 - 1), acos(v), M_PI / 2); }
static void e_atan1(float u, float v, float *o) { set3(o, atan(u * 20.0 - 10), atan(v), 0); }
/* atan(y, x) is the angle of (x, y) in (-pi, pi]: all four quadrants. */
static void e_atan2(float u, float v, float *o) { set3(o, atan2(v - 0.5, u - 0.5), M_PI / 2, M_PI); }
static void e_pow(float u, float v, float *o) { set3(o, pow(u + 0.5, 2.5), pow(2, v * 3.0 - 1), 1); }
static void e_pow2(float u, float v, float *o) { set3(o, sqrt(v * 4.0), 1 / ((u + 1.0) * (u + 1)), 100); }
static void e_exp(float u, float v, float *o) { set3(o, exp(u * 4.0 - 2), exp(-v * 10.0), 1); }
static void e_sqrt(float u, float v, float *o) { set3(o, sqrt(u * 9.0), sqrt(v + 2.0), 0); }
static void e_isqrt(float u, float v, float *o) { set3(o, 1 / sqrt(u * 3.0 + 0.25), 0.5, 1 / sqrt(v + 1.0)); }
static void e_log(float u, float v, float *o) { set3(o, log(u * 10.0 + 0.1), log(v + 1.0), 0); }
/* log(x, base) = ln x / ln base */
static void e_logb(float u, float v, float *o)
{
    set3(o, log10(u * 100.0 + 1), 3, log(v + 0.5) / log(0.5));
}

/* ---- mod, abs, sign, floor, ceil, round --------------------------------------- */

static void e_mod(float u, float v, float *o) { o[0] = (float)modd(u * 7.3 + v * 0.9 + 0.1, 1.7); }
/* a < 0 < b gives a result in [0, b); b < 0 gives one in (b, 0]. */
static void e_modneg(float u, float v, float *o)
{
    double x = u * 5.0 + v + 0.3;
    set3(o, modd(-x, 1.5), modd(x, -1.5), modd(-x, -1.5));
}
static void e_modconst(float u, float v, float *o) { (void)u, (void)v; set3(o, 0.75, -0.75, -0.25); }
static void e_abs(float u, float v, float *o) { set3(o, fabs(u - 0.6), v, 0); }
/* round(3u) - 1 is exactly 0 at u = 1/3: sign(0) = 0. */
static void e_sign(float u, float v, float *o) { (void)v; set3(o, signd(u - 0.5), signd(round(u * 3.0) - 1), 0); }
static void e_floor(float u, float v, float *o) { set3(o, floor(u * 5.0 - 2.5), floor(-v * 2.2), 3); }
static void e_ceil(float u, float v, float *o) { set3(o, ceil(u * 5.0 - 2.5), ceil(-v * 2.2), 3); }
static void e_round(float u, float v, float *o) { set3(o, round(u * 3.4 - 1.7), round(v * 2.6), 0); }

/* ---- min, max, clamp, mix ------------------------------------------------------------ */

static void e_min2(float u, float v, float *o) { set3(o, fmin(u, v), fmin(u, 0.5), -1); }
static void e_minn(float u, float v, float *o) { o[0] = (float)fmin(fmin(u, v), fmin(0.5, 1.0 - u)); }
static void e_max2(float u, float v, float *o) { set3(o, fmax(u, v), fmax(u, 0.5), 2); }
static void e_maxn(float u, float v, float *o) { o[0] = (float)fmax(fmax(u - 0.5, v * 0.5), fmax(0.2, -u)); }
static void e_minc(float u, float v, float *o) { set3(o, fmin(u, v), fmin(v, u), 0.25); }
static void e_maxc(float u, float v, float *o) { set3(o, fmax(fmax(u, v), 0.5), 0.1, fmax(0.3, v)); }
/* componentwise over P = (u-.5, v-.5, 1) */
static void e_minp(float u, float v, float *o) { set3(o, fmin(fmin(u - 0.5, 0), v - 0.5), fmin(v - 0.5, 0), 0.5); }
static void e_maxv(float u, float v, float *o) { set3(o, fmax(u, v), fmax(-u, -v), 1); }
static void e_clamp(float u, float v, float *o) { set3(o, clampd(u * 3.0 - 1, 0, 1), clampd(v, 0.2, 0.6), 0); }
static void e_clampc(float u, float v, float *o) { set3(o, clampd(u * 2.0 - 0.5, 0, 1), clampd(v, 0.25, 0.5), 1); }
static void e_clampp(float u, float v, float *o)
{
    set3(o, clampd(u - 0.5, -0.25, 0.25), clampd(v - 0.5, -1, 0.2), 0.5);
}
/* lo above hi: max(min(x, hi), lo) is lo whatever x is */
static void e_clamp_lo_wins(float u, float v, float *o) { (void)u, (void)v; set3(o, 0.75, 0.005, 0.5); }
/* mix(a, b, t) = (1-t)a + tb, not clamped in t */
static void e_mix(float u, float v, float *o) { set3(o, -2 * (1.0 - u) + 3 * u, 0.75 * v + 0.25 * u, 1.5); }
static void e_mixc(float u, float v, float *o) { set3(o, (1.0 - v) + v * u, v * v, v); }
static void e_mixcc(float u, float v, float *o) { set3(o, u, 1 + v, 2.5); }
static void e_mixp(float u, float v, float *o) { set3(o, (1.0 - u) * (u - 0.5) + u, (1.0 - u) * (v - 0.5) + u, 1); }

/* ---- step, smoothstep, filterstep --------------------------------------------------- */

/* step(min, x) is 0 for x < min and 1 from min on: 1 where v == u. */
static void e_step(float u, float v, float *o) { set3(o, u >= 0.5f, v >= u, 1); }
static void e_smooth(float u, float v, float *o) { o[0] = (float)smooth(0.2, 0.8, u * 0.6 + v * 0.4); }
static void e_smoothedge(float u, float v, float *o) { (void)u; set3(o, 0, 1, v < 0.4f ? 0 : 1); }
/* A box-filtered step: the fraction of [x - w/2, x + w/2] at or above
   edge. filterstep(edge, s) filters over the shading element, width
   w = |Du(s)| du + |Dv(s)| dv (1/3 for s = u on this grid), times the
   "width" option; filterstep(edge, s1, s2) over [s1, s2]. */
static double boxstep(double edge, double x, double w) { return clampd((x + w / 2 - edge) / w, 0, 1); }
static void e_fbox(float u, float v, float *o) { (void)v; o[0] = (float)boxstep(0.45, u, 1 / 3.0); }
static void e_fboxv(float u, float v, float *o) { (void)u; o[0] = (float)boxstep(0.5, v * 0.9 + 0.1, 0.3); }
static void e_fboxw(float u, float v, float *o) { (void)v; o[0] = (float)boxstep(0.45, u, 2 / 3.0); }
static void e_fbox3(float u, float v, float *o) { (void)v; o[0] = (float)clampd((u + 0.2 - 0.5) / 0.4, 0, 1); }
/* any filter: a step far outside the filter's support */
static void e_ffar(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 0, 1); }

/* ---- spline ------------------------------------------------------------------------- */

/* RenderMan basis matrices (RiBasis, RISpec 3.2 section 5.2) and their
   steps: a segment is [t^3 t^2 t 1] M [p0 p1 p2 p3]^T over the window of
   four knots starting at seg * step. "linear" interpolates between the
   middle two knots of each window, so like catmull-rom it passes through
   f2 ... f(n-1). The value in [0,1] is spread evenly over the segments. */
typedef struct Basis {
    double m[4][4];
    int step;
} Basis;
static const Basis catmull_rom = { { { -0.5, 1.5, -1.5, 0.5 }, { 1, -2.5, 2, -0.5 }, { -0.5, 0, 0.5, 0 },
                                     { 0, 1, 0, 0 } }, 1 };
static const Basis bezier = { { { -1, 3, -3, 1 }, { 3, -6, 3, 0 }, { -3, 3, 0, 0 }, { 1, 0, 0, 0 } }, 3 };
static const Basis bspline = { { { -1 / 6.0, 0.5, -0.5, 1 / 6.0 }, { 0.5, -1, 0.5, 0 }, { -0.5, 0, 0.5, 0 },
                                 { 1 / 6.0, 2 / 3.0, 1 / 6.0, 0 } }, 1 };
/* knots: value, tangent, value, tangent, ... */
static const Basis hermite = { { { 2, 1, -2, 1 }, { -3, -2, 3, -1 }, { 0, 1, 0, 0 }, { 1, 0, 0, 0 } }, 2 };
static const Basis linear = { { { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, -1, 1, 0 }, { 0, 1, 0, 0 } }, 1 };

/* knots k[i * stride], n of them */
static double spl(const Basis *b, double x, const double *k, int n, int stride)
{
    int nseg = (n - 4) / b->step + 1;
    double s = x * nseg;
    int seg = s >= nseg ? nseg - 1 : s < 0 ? 0 : (int)floor(s);
    double t = s - seg, T[4] = { t * t * t, t * t, t, 1 }, r = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            r += T[i] * b->m[i][j] * k[(seg * b->step + j) * stride];
    return r;
}
#define SPL(b, x, ...) spl(&(b), (x), (const double[]){ __VA_ARGS__ }, \
                           (int)(sizeof((const double[]){ __VA_ARGS__ }) / sizeof(double)), 1)
/* A color spline: knots given as n rows of 3. */
static void splc(const Basis *b, double x, const double *k, int n, float *o)
{
    set3(o, spl(b, x, k, n, 3), spl(b, x, k + 1, n, 3), spl(b, x, k + 2, n, 3));
}

static void e_cr4(float u, float v, float *o)
{
    set3(o, SPL(catmull_rom, u, 2, -1, 3, 0.5), SPL(catmull_rom, v, u, 1, 2.0 * u, 3), 0);
}
static void e_cr7(float u, float v, float *o)
{
    o[0] = (float)SPL(catmull_rom, u * 0.8 + v * 0.2, 0, 1, 4, 2, -1, 3, 5);
}
static void e_crnamed(float u, float v, float *o)
{
    set3(o, SPL(catmull_rom, u, 0, 1, 4, 2, -1),
         SPL(catmull_rom, v, 3, 1, 0, 1, 3), 0);
}
/* catmull-rom passes through f2 at 0, f(n-1) at 1 and the inner knots */
static void e_crends(float u, float v, float *o) { (void)u, (void)v; set3(o, 1, 3, 2); }
static void e_bezier(float u, float v, float *o) { (void)v; o[0] = (float)SPL(bezier, u, 0, 2, -1, 1, 3, 0, 2); }
static void e_bspline(float u, float v, float *o) { (void)v; o[0] = (float)SPL(bspline, u, 0, 3, 1, 2, -2, 4); }
static void e_hermite(float u, float v, float *o) { (void)v; o[0] = (float)SPL(hermite, u, 0, 1, 2, -1, 1, 0); }
static void e_linear(float u, float v, float *o) { (void)v; o[0] = (float)SPL(linear, u, 9, 1, 3, 2, 9); }
static void e_splc(float u, float v, float *o)
{
    const double k[] = { 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, v };
    splc(&catmull_rom, u, k, 4, o);
}
static void e_splcbez(float u, float v, float *o)
{
    (void)u;
    const double k[] = { 0, 0, 0, 1, 0.5, 0, 0, 1, 0.5, 1, 1, 1 };
    splc(&bezier, v, k, 4, o);
}
static void e_splp(float u, float v, float *o)
{
    const double k[] = { 0, 0, 0, 1, 2, 0, 2, -1, 1, 3, 1, 0, u, v, 1 };
    splc(&bspline, u, k, 5, o);
}
static void e_splarr(float u, float v, float *o) { (void)v; o[0] = (float)SPL(catmull_rom, u, 1, 0, 2, 5, 3, 4); }
static void e_splarrlin(float u, float v, float *o) { (void)u; o[0] = (float)SPL(linear, v, 1, 0, 2, 5, 3, 4); }
static void e_splarrc(float u, float v, float *o)
{
    (void)u;
    const double k[] = { 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1 };
    splc(&hermite, v, k, 4, o);
}

/* ---- uniform and varying values together ---------------------------------------------- */

/* Each lane takes its own path through the loop: the parity of
   i + floor(4u) + floor(4v) picks the branch at every iteration. */
static void e_divloop(float u, float v, float *o)
{
    double r = 0;
    for (int i = 0; i < 4; i++) {
        if ((i + (int)floor(u * 3.99) + (int)floor(v * 3.99)) % 2 == 0)
            r += sqrt(i + u);
        else
            r -= pow(v + 0.5, i);
    }
    o[0] = (float)r;
}
/* A varying trip count: lanes leave at different iterations, some
   through the break under the else. */
static void e_divbreak(float u, float v, float *o)
{
    double r = 0;
    int i = 0;
    for (; i < 8; i++) {
        double s = sin(i + u * 3.0);
        if (s > 0) {
            r += s;
        } else {
            r += smooth(-1, 0, s);
            if (s < -0.9 + v * 0.5)
                break;
        }
    }
    o[0] = (float)(r + i * 10);
}
/* The basis name varies by lane. */
static void e_splbasis(float u, float v, float *o)
{
    const Basis *b = u < 0.3f ? &linear : u < 0.6f ? &bspline : u < 0.9f ? &bezier : &catmull_rom;
    o[0] = (float)SPL(*b, v, 0, 2, -1, 1, 3, 0, 2);
}
/* a = atan(1, -1) = 3 pi / 4, b = mod(-7, 3) = 2, both uniform */
static void e_uniformmath(float u, float v, float *o) { (void)v; o[0] = (float)(3 * M_PI / 4 * u + 2 + 4); }
/* A uniform accumulator beside a varying one under a varying if. */
static void e_uacc(float u, float v, float *o)
{
    double k = 0, r = 0;
    for (int i = 1; i <= 3; i++) {
        k += log(i + 1.0);
        if (u > v)
            r += k * u;
        else
            r = fmax(r, k - v);
    }
    set3(o, k, r, 0);
}
static void e_atanedge(float u, float v, float *o) { (void)v; set3(o, -M_PI / 2, 0, atan2(-u - 0.1, -1)); }
/* x^y of a negative x is defined for an integer y */
static void e_powneg(float u, float v, float *o) { (void)v; set3(o, -8, (u + 1.0) * (u + 1), -2); }
/* pow of colors goes per component (PRMan, aqsl); a float exponent
   stands for a gray color. */
static void e_powcolor(float u, float v, float *o)
{
    double e = 1 / (v + 1.0);
    set3(o, pow(u + 0.5, e) + 2, pow(2, e) + 1 / 9.0, pow(0.25, e) + pow(16, v));
}
static void e_mixv(float u, float v, float *o) { set3(o, (1.0 - v) * u, v * v, (1.0 - v) - v); }

/* ---- the table ------------------------------------------------------------------------ */


const RunCase run_math[] = {
    { "radians", R_FLOAT "r = radians(u * 360 - 90); }", "r", 1, e_radians, 1e-5f },
    { "degrees", R_FLOAT "r = degrees(u * PI - v); }", "r", 1, e_degrees, 1e-4f },
    { "sin", "surface t() { Ci = color(sin(u * 4 - 2), sin(v * 7), sin(0)); }", "Ci", 3, e_sin, 1e-6f },
    { "cos", "surface t() { Ci = color(cos(u * 4 - 2), cos(v * 7), cos(0)); }", "Ci", 3, e_cos, 1e-6f },
    { "tan", "surface t() { Ci = color(tan(u * 2 - 1), tan(v * 0.5), tan(0)); }", "Ci", 3, e_tan, 1e-6f },
    { "asin over [-1,1]", "surface t() { Ci = color(asin(u * 2 - 1), asin(v), asin(0)); }", "Ci", 3, e_asin, 1e-6f },
    { "acos over [-1,1]", "surface t() { Ci = color(acos(u * 2 - 1), acos(v), acos(0)); }", "Ci", 3, e_acos, 1e-6f },
    { "atan of one argument", "surface t() { Ci = color(atan(u * 20 - 10), atan(v), atan(0)); }", "Ci", 3, e_atan1,
      1e-6f },
    { "atan(y, x) in all quadrants", "surface t() { Ci = color(atan(v - 0.5, u - 0.5), atan(1, 0), atan(0, -1)); }",
      "Ci", 3, e_atan2, 1e-6f },
    { "pow", "surface t() { Ci = color(pow(u + 0.5, 2.5), pow(2, v * 3 - 1), pow(u + 0.25, 0)); }", "Ci", 3, e_pow,
      1e-5f },
    { "pow with fractional and negative exponents", "surface t() { Ci = color(pow(v * 4, 0.5), pow(u + 1, -2),"
      " pow(10, 2)); }", "Ci", 3, e_pow2, 1e-5f },
    { "exp", "surface t() { Ci = color(exp(u * 4 - 2), exp(-v * 10), exp(0)); }", "Ci", 3, e_exp, 1e-5f },
    { "sqrt", "surface t() { Ci = color(sqrt(u * 9), sqrt(v + 2), sqrt(0)); }", "Ci", 3, e_sqrt, 1e-6f },
    { "inversesqrt", "surface t() { Ci = color(inversesqrt(u * 3 + 0.25), inversesqrt(4), inversesqrt(v + 1)); }",
      "Ci", 3, e_isqrt, 1e-6f },
    { "log", "surface t() { Ci = color(log(u * 10 + 0.1), log(v + 1), log(1)); }", "Ci", 3, e_log, 1e-6f },
    { "log with a base", "surface t() { Ci = color(log(u * 100 + 1, 10), log(8, 2), log(v + 0.5, 0.5)); }",
      "Ci", 3, e_logb, 1e-5f },
    { "mod of positive operands", R_FLOAT "r = mod(u * 7.3 + v * 0.9 + 0.1, 1.7); }", "r", 1, e_mod, 1e-5f },
    { "mod with negative operands", "surface t() { float x = u * 5 + v + 0.3;"
      " Ci = color(mod(-x, 1.5), mod(x, -1.5), mod(-x, -1.5)); }", "Ci", 3, e_modneg, 1e-5f },
    { "mod of negative constants", "surface t() { Ci = color(mod(-1.25, 1), mod(1.25, -1), mod(-1.25, -1)); }",
      "Ci", 3, e_modconst, 1e-6f },
    { "abs", "surface t() { Ci = color(abs(u - 0.6), abs(-v), abs(0)); }", "Ci", 3, e_abs, 1e-6f },
    { "sign of negative, zero and positive", "surface t() { Ci = color(sign(u - 0.5), sign(round(u * 3) - 1),"
      " sign(0)); }", "Ci", 3, e_sign, 0 },
    { "floor", "surface t() { Ci = color(floor(u * 5 - 2.5), floor(-v * 2.2), floor(3)); }", "Ci", 3, e_floor, 0 },
    { "ceil", "surface t() { Ci = color(ceil(u * 5 - 2.5), ceil(-v * 2.2), ceil(3)); }", "Ci", 3, e_ceil, 0 },
    { "round", "surface t() { Ci = color(round(u * 3.4 - 1.7), round(v * 2.6), round(-0.3)); }", "Ci", 3, e_round,
      0 },
    { "min of two floats", "surface t() { Ci = color(min(u, v), min(u, 0.5), min(-1, 2)); }", "Ci", 3, e_min2, 0 },
    { "min of four floats", R_FLOAT "r = min(u, v, 0.5, 1 - u); }", "r", 1, e_minn, 1e-7f },
    { "max of two floats", "surface t() { Ci = color(max(u, v), max(u, 0.5), max(-1, 2)); }", "Ci", 3, e_max2, 0 },
    { "max of four floats", R_FLOAT "r = max(u - 0.5, v * 0.5, 0.2, -u); }", "r", 1, e_maxn, 1e-7f },
    { "min of colors per component", "surface t() { Ci = min(color(u, v, 0.5), color(v, u, 0.25)); }", "Ci", 3,
      e_minc, 0 },
    { "max of three colors per component", "surface t() { Ci = max(color(u, 0, 0.3), color(v, 0.1, 0.2), color(0.5,"
      " -1, v)); }", "Ci", 3, e_maxc, 1e-7f },
    { "min of three points per component", R_POINT "r = min(P, point(0, 0, 0.5), point(v - 0.5, 0.25, 2)); }", "r", 3,
      e_minp, 1e-7f },
    { "max of vectors per component", R_VECTOR "r = max(vector(u, -u, 1), vector(v, -v, 0)); }", "r", 3, e_maxv, 0 },
    { "clamp below, inside and above", "surface t() { Ci = color(clamp(u * 3 - 1, 0, 1), clamp(v, 0.2, 0.6),"
      " clamp(-1, 0, 1)); }", "Ci", 3, e_clamp, 1e-6f },
    { "clamp of a color", "surface t() { Ci = clamp(color(u * 2 - 0.5, v, 1.5), color(0, 0.25, 0), color(1, 0.5, 1));"
      " }", "Ci", 3, e_clampc, 1e-6f },
    { "clamp of a point", R_POINT "r = clamp(P, point(-0.25, -1, 0), point(0.25, 0.2, 0.5)); }", "r", 3, e_clampp,
      1e-7f },
    { "clamp with min above max gives min", "surface t() { Ci = color(clamp(u, 0.75, 0.25), clamp(0.1, 0.005, 0),"
      " clamp(-1, 0.5, 0)); }", "Ci", 3, e_clamp_lo_wins, 1e-7f },
    { "mix of floats, weight beyond 1", "surface t() { Ci = color(mix(-2, 3, u), mix(v, u, 0.25), mix(0, 1, 1.5)); }",
      "Ci", 3, e_mix, 1e-6f },
    { "mix of colors by a float", "surface t() { Ci = mix(color(1, 0, 0), color(u, v, 1), v); }", "Ci", 3, e_mixc,
      1e-6f },
    { "mix of colors by a color", "surface t() { Ci = mix(color(0, 1, 2), color(1, 2, 3), color(u, v, 0.5)); }",
      "Ci", 3, e_mixcc, 1e-6f },
    { "mix of points by a float", R_POINT "r = mix(P, point(1, 1, 1), u); }", "r", 3, e_mixp, 1e-6f },
    { "step below, at and above the edge", "surface t() { Ci = color(step(0.5, u), step(u, v), step(0, 0)); }",
      "Ci", 3, e_step, 0 },
    { "smoothstep between the edges", R_FLOAT "r = smoothstep(0.2, 0.8, u * 0.6 + v * 0.4); }", "r", 1, e_smooth,
      1e-6f },
    { "smoothstep at and beyond the edges", "surface t() { Ci = color(smoothstep(u, u + 0.5, u), smoothstep(u - 0.5,"
      " u, u),"
      " smoothstep(0.4, 0.6, v)); }", "Ci", 3, e_smoothedge, 0 },
    /* noise: RISpec promises values in [0,1]; Perlin's is 1/2 on the lattice */
    { "noise(float) stays in [0,1]", R_FLOAT "float i, n; r = 1; for (i = 0; i < 32; i += 1) { n = noise(u * 7.1 + v"
      " * 3.3 + i * 1.37);"
      " if (n < 0 || n > 1) r = 0; } }", "r", 1, e_true, 0 },
    { "noise of 2 to 4 dimensions stays in [0,1]", R_FLOAT "float i, a, b, c; r = 1; for (i = 0; i < 16; i += 1) {"
      " a = noise(u * 5.3 + i, v * 4.1 - i * 0.7); b = noise(P * 3.7 + vector(i * 1.1, 0, 0));"
      " c = noise(P * 2.9, i * 0.61); if (a < 0 || a > 1 || b < 0 || b > 1 || c < 0 || c > 1) r = 0; } }", "r", 1,
      e_true, 0 },
    { "color noise stays in [0,1] per component", R_FLOAT "float i; color c; r = 1; for (i = 0; i < 16; i += 1) {"
      " c = noise(P * 4.3 + vector(0, i * 0.77, 0)); if (min(comp(c, 0), comp(c, 1), comp(c, 2)) < 0"
      " || max(comp(c, 0), comp(c, 1), comp(c, 2)) > 1) r = 0; } }", "r", 1, e_true, 0 },
    { "noise is not constant", R_FLOAT "float i, n, lo = 1, hi = 0; for (i = 0; i < 32; i += 1) { n = noise(u + i *"
      " 0.43 + 0.2);"
      " lo = min(lo, n); hi = max(hi, n); } r = hi - lo > 0.05 ? 1 : 0; }", "r", 1, e_true, 0 },
    { "noise(float) is 1/2 at integers", "surface t() { Ci = color(noise(round(u * 3)), noise(round(v * 3) - 7),"
      " noise(13)); }", "Ci", 3, e_half3, 0 },
    { "noise(float, float) is 1/2 on the lattice", "surface t() { Ci = noise(round(u * 3), round(v * 3) + 2); }",
      "Ci", 3, e_half3, 0 },
    { "noise(point) is 1/2 on the lattice", "surface t() { Ci = noise(point(round(u * 3), -round(v * 3), 4)); }",
      "Ci", 3, e_half3, 0 },
    { "noise(point, float) is 1/2 on the lattice", "surface t() { Ci = noise(point(-1, round(u * 3), round(v * 3)),"
      " 3); }", "Ci", 3, e_half3, 0 },
    /* pnoise(x + period, period) == pnoise(x, period) */
    { "pnoise(float) is periodic", "surface t() { float x = u * 3.7 + v * 1.3 + 0.1;"
      " Ci = color(pnoise(x + 4, 4) - pnoise(x, 4), pnoise(x - 3, 3) - pnoise(x, 3), pnoise(round(u * 3), 4) - 0.5);"
      " }", "Ci", 3, e_zero3, 1e-5f },
    { "pnoise(float, float) is periodic", "surface t() { float x = u * 2.3 + 0.15, y = v * 4.7 - 0.3;"
      " Ci = pnoise(x + 2, y + 5, 2, 5) - pnoise(x, y, 2, 5); }", "Ci", 3, e_zero3, 1e-5f },
    { "pnoise(point) is periodic", "surface t() { point q = P * 3.3;"
      " Ci = pnoise(q + vector(2, 3, 4), point(2, 3, 4)) - pnoise(q, point(2, 3, 4)); }", "Ci", 3, e_zero3, 1e-5f },
    { "pnoise(point, float) is periodic", "surface t() { point q = P * 2.1; float w = u * v * 3 + 0.4;"
      " Ci = pnoise(q - vector(0, 3, 0), w + 2, point(1, 3, 5), 2) - pnoise(q, w, point(1, 3, 5), 2); }",
      "Ci", 3, e_zero3, 1e-5f },
    { "pnoise stays in [0,1]", R_FLOAT "float i, n; r = 1; for (i = 0; i < 32; i += 1) { n = pnoise(u * 5.9 + i *"
      " 0.83, 6);"
      " if (n < 0 || n > 1) r = 0; } }", "r", 1, e_true, 0 },
    /* cellnoise is constant over each integer cell */
    { "cellnoise(float) is constant within a cell", "surface t() { float k = round(u * 3) + 4 * round(v * 3) - 7;"
      " Ci = color(cellnoise(k + 0.1) - cellnoise(k + 0.9), cellnoise(k) - cellnoise(k + 0.5), 0); }", "Ci", 3,
      e_zero3, 0 },
    { "cellnoise(point) is constant within a cell", "surface t() { float a = round(u * 3), b = round(v * 3);"
      " Ci = cellnoise(point(a + 0.2, b + 0.7, -1.5)) - cellnoise(point(a + 0.8, b + 0.1, -1.01)); }", "Ci", 3,
      e_zero3, 0 },
    { "cellnoise of 2 and 4 dimensions is constant within a cell", "surface t() { float a = round(u * 3), b = round(v"
      " * 3);"
      " Ci = color(cellnoise(a + 0.3, b + 0.6) - cellnoise(a + 0.7, b + 0.2), cellnoise(point(a, b, 2), 5.5)"
      " - cellnoise(point(a + 0.9, b + 0.4, 2.5), 5.1), 0); }", "Ci", 3, e_zero3, 0 },
    { "cellnoise stays in [0,1] and varies between cells", R_FLOAT "float i, n, lo = 1, hi = 0; r = 1; for (i = 0; i"
      " < 32; i += 1) {"
      " n = cellnoise(u * 3 + i * 4 + 0.5); if (n < 0 || n >= 1) r = 0; lo = min(lo, n); hi = max(hi, n); }"
      " if (hi - lo < 0.1) r = 0; }", "r", 1, e_true, 0 },
    { "filterstep with a box filter", R_FLOAT "r = filterstep(0.45, u, \"filter\", \"box\"); }", "r", 1, e_fbox,
      1e-5f },
    { "filterstep of a varying v", R_FLOAT "r = filterstep(0.5, v * 0.9 + 0.1, \"filter\", \"box\"); }", "r", 1,
      e_fboxv, 1e-5f },
    { "filterstep with a width", R_FLOAT "r = filterstep(0.45, u, \"filter\", \"box\", \"width\", 2); }", "r", 1,
      e_fboxw, 1e-5f },
    { "filterstep over [s1, s2]", R_FLOAT "r = filterstep(0.5, u - 0.2, u + 0.2, \"filter\", \"box\"); }", "r", 1,
      e_fbox3, 1e-5f },
    { "filterstep far from the edge", "surface t() { Ci = color(filterstep(0.5, u + 3), filterstep(0.5, u - 3),"
      " filterstep(0.5, u + 2, u + 2.5)); }", "Ci", 3, e_ffar, 1e-6f },
    { "spline: catmull-rom by default", "surface t() { Ci = color(spline(u, 2, -1, 3, 0.5), spline(v, u, 1, 2 * u,"
      " 3), 0); }", "Ci", 3, e_cr4, 1e-5f },
    { "spline: catmull-rom over four segments", R_FLOAT "r = spline(u * 0.8 + v * 0.2, 0, 1, 4, 2, -1, 3, 5); }", "r",
      1, e_cr7, 1e-5f },
    { "spline: \"catmull-rom\" named", "surface t() { Ci = color(spline(\"catmull-rom\", u, 0, 1, 4, 2, -1),"
      " spline(\"catmull-rom\", v, 3, 1, 0, 1, 3), 0); }", "Ci", 3, e_crnamed, 1e-5f },
    { "spline: ends and joints", "surface t() { Ci = color(spline(0, 5, 1, 2, 3, 7), spline(1, 5, 1, 2, 3, 7),"
      " spline(0.5, 5, 1, 2, 3, 7)); }", "Ci", 3, e_crends, 1e-5f },
    { "spline: bezier", R_FLOAT "r = spline(\"bezier\", u, 0, 2, -1, 1, 3, 0, 2); }", "r", 1, e_bezier, 1e-5f },
    { "spline: bspline", R_FLOAT "r = spline(\"bspline\", u, 0, 3, 1, 2, -2, 4); }", "r", 1, e_bspline, 1e-5f },
    { "spline: hermite", R_FLOAT "r = spline(\"hermite\", u, 0, 1, 2, -1, 1, 0); }", "r", 1, e_hermite, 1e-5f },
    { "spline: linear", R_FLOAT "r = spline(\"linear\", u, 9, 1, 3, 2, 9); }", "r", 1, e_linear, 1e-5f },
    { "spline of colors", "surface t() { Ci = spline(u, color(1, 0, 0), color(0, 1, 0), color(0, 0, 1), color(1, 1,"
      " v)); }", "Ci", 3, e_splc, 1e-5f },
    { "spline of colors, bezier", "surface t() { Ci = spline(\"bezier\", v, color(0, 0, 0), color(1, 0.5, 0),"
      " color(0, 1, 0.5),"
      " color(1, 1, 1)); }", "Ci", 3, e_splcbez, 1e-5f },
    { "spline of points, bspline", R_POINT "r = spline(\"bspline\", u, point(0, 0, 0), point(1, 2, 0), point(2, -1,"
      " 1),"
      " point(3, 1, 0), point(u, v, 1)); }", "r", 3, e_splp, 1e-5f },
    { "spline of a float array", R_FLOAT "float k[6] = { 1, 0, 2, 5, 3, 4 }; r = spline(u, k); }", "r", 1, e_splarr,
      1e-5f },
    { "spline of a float array, bezier", R_FLOAT "float k[7] = { 0, 2, -1, 1, 3, 0, 2 };"
      " r = spline(\"bezier\", u, k); }", "r", 1, e_bezier, 1e-5f },
    { "spline of a point array, bspline", R_POINT "point k[5] = { point(0, 0, 0), point(1, 2, 0), point(2, -1, 1),"
      " point(3, 1, 0), point(u, v, 1) }; r = spline(\"bspline\", u, k); }", "r", 3, e_splp, 1e-5f },
    { "spline of a float array, linear", R_FLOAT "float k[6] = { 1, 0, 2, 5, 3, 4 }; r = spline(\"linear\", v, k); }",
      "r", 1, e_splarrlin, 1e-5f },
    { "spline of a color array, hermite", "surface t() { color k[4] = { color(0, 0, 1), color(1, 0, 0), color(1, 1,"
      " 0),"
      " color(0, 0, 1) }; Ci = spline(\"hermite\", v, k); }", "Ci", 3, e_splarrc, 1e-5f },
    { "random() is in [0,1)", R_FLOAT "float i, x; r = 1; for (i = 0; i < 32; i += 1) { x = random(); if (x < 0 || x"
      " >= 1) r = 0; } }", "r", 1, e_true, 0 },
    { "random color is in [0,1)", "surface t() { float i, k; color c; Ci = 1; for (i = 0; i < 16; i += 1) { c ="
      " random();"
      " for (k = 0; k < 3; k += 1) if (comp(c, k) < 0 || comp(c, k) >= 1) Ci = 0; } }", "Ci", 3, e_true3, 0 },
    { "random point is in [0,1)", R_FLOAT "float i; point p; r = 1; for (i = 0; i < 16; i += 1) { p = random();"
      " if (min(xcomp(p), ycomp(p), zcomp(p)) < 0 || max(xcomp(p), ycomp(p), zcomp(p)) >= 1) r = 0; } }", "r", 1,
      e_true, 0 },
    { "random draws spread with mean near 1/2", R_FLOAT "float i, x, s = 0, lo = 1, hi = 0; for (i = 0; i < 64; i +="
      " 1) {"
      " x = random(); s += x; lo = min(lo, x); hi = max(hi, x); } r = (s / 64 > 0.3 && s / 64 < 0.7 && hi - lo > 0.3)"
      " ? 1 : 0; }", "r", 1, e_true, 0 },
    { "atan(y, x) on the axes and in the third quadrant", "surface t() { Ci = color(atan(-1, 0), atan(0, 1),"
      " atan(-u - 0.1, -1)); }", "Ci", 3, e_atanedge, 1e-6f },
    { "pow of a negative base to integer powers", "surface t() { Ci = color(pow(-2, 3), pow(-u - 1, 2), pow(-0.5,"
      " -1)); }", "Ci", 3, e_powneg, 1e-5f },
    { "pow of colors, per component", "surface t() { Ci = pow(color(u + 0.5, 2, 0.25), 1 / (v + 1))"
      " + pow(color(4, 9, 16), color(0.5, -1, v)); }", "Ci", 3, e_powcolor, 1e-5f },
    { "mix of vectors by a float", R_VECTOR "r = mix(vector(u, 0, 1), vector(0, v, -1), v); }", "r", 3, e_mixv,
      1e-6f },
    { "divergent if inside a loop", R_FLOAT "float i; r = 0; for (i = 0; i < 4; i += 1) {"
      " if (mod(i + floor(u * 3.99) + floor(v * 3.99), 2) == 0) r += sqrt(i + u); else r -= pow(v + 0.5, i); } }",
      "r", 1, e_divloop, 1e-5f },
    { "divergent break under an else in a loop", R_FLOAT "float i = 0, s; r = 0; while (i < 8) { s = sin(i + u * 3);"
      " if (s > 0) r += s; else { r += smoothstep(-1, 0, s); if (s < -0.9 + v * 0.5) break; } i += 1; }"
      " r += i * 10; }", "r", 1, e_divbreak, 1e-5f },
    { "spline with a varying basis name", R_FLOAT "string b = u < 0.3 ? \"linear\" : u < 0.6 ? \"bspline\""
      " : u < 0.9 ? \"bezier\" : \"catmull-rom\"; r = spline(b, v, 0, 2, -1, 1, 3, 0, 2); }", "r", 1, e_splbasis,
      1e-5f },
    { "uniform builtin results with varying", R_FLOAT "uniform float a = atan(1, -1), b = mod(-7, 3);"
      " varying float x = a * u + b; r = x + pow(2, b); }", "r", 1, e_uniformmath, 1e-5f },
    { "uniform and varying accumulators under a varying if", "surface t() { uniform float k = 0, i; float r = 0;"
      " for (i = 1; i <= 3; i += 1) { k += log(i + 1); if (u > v) r += k * u; else r = max(r, k - v); }"
      " Ci = color(k, r, 0); }", "Ci", 3, e_uacc, 1e-5f },
};
const int run_math_count = sizeof run_math / sizeof *run_math;
