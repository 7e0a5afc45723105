/*
** run_compat.c: compile-run-verify cases for constructs that public
** shaders use and PRMan accepts: functions holding array constants or
** light loops (inlined into the shader, the VM having no calls), L and
** Cl read by functions called from an illuminance body, comparisons used
** as float values, shader-type words used as names, C's float suffix,
** array lengths written as constant expressions,
** and a named-space transform that a condition guards inside a loop
** (never run ahead of its condition: an unknown space stops the run).
**
** The test lights are those of run_shaders.c (runtime/host.h): an
** ambient light of 0.1, a distant white light along +z (L = (0,0,-1)),
** and a point light of intensity (0.5, 0.25, 0) at (0,2,0) falling off
** with the squared distance. The grid point (u, v) has P = (u-.5, v-.5, 1)
** and N = (0,0,-1).
*/
#include <math.h>

#include "check_run.h"

/* The two non-ambient lights at (u, v): L (surface to light) and Cl. */
static void lights_at(float u, float v, float L[2][3], float Cl[2][3])
{
    const float P[3] = { u - 0.5f, v - 0.5f, 1 };
    L[0][0] = 0, L[0][1] = 0, L[0][2] = -1;
    Cl[0][0] = Cl[0][1] = Cl[0][2] = 1;
    L[1][0] = -P[0], L[1][1] = 2 - P[1], L[1][2] = -P[2];
    float d2 = L[1][0] * L[1][0] + L[1][1] * L[1][1] + L[1][2] * L[1][2];
    Cl[1][0] = 0.5f / d2, Cl[1][1] = 0.25f / d2, Cl[1][2] = 0;
}

/* sum over lights `which` (bit 0: the distant light 1, bit 1: the point
   light 2) with L.N >= 0 of Cl * normalize(L).N, N = (0,0,-1). */
static void diffuse_of(float u, float v, unsigned which, float *c)
{
    float L[2][3], Cl[2][3];
    lights_at(u, v, L, Cl);
    c[0] = c[1] = c[2] = 0;
    for (int i = 0; i < 2; i++) {
        if (!(which & (1u << i)))
            continue;
        float n = sqrtf(L[i][0] * L[i][0] + L[i][1] * L[i][1] + L[i][2] * L[i][2]);
        float ln = -L[i][2] / n;
        if (ln >= 0)
            for (int k = 0; k < 3; k++)
                c[k] += Cl[i][k] * ln;
    }
}

/* 1 + 2 + 3 + 4, then times u. */
static void e_array_sum(float u, float v, float *o)
{
    (void)v;
    o[0] = 10 * u;
}

static void diffuse_at(float u, float v, float *c) { diffuse_of(u, v, 3, c); }

static void e_diffuse(float u, float v, float *o)
{
    diffuse_at(u, v, o);
}

/* Light categories on the test host: light 1 "key,spec", light 2
   "fill" (runtime/host.h). */
static void e_key(float u, float v, float *o) { diffuse_of(u, v, 1, o); }
static void e_fill(float u, float v, float *o) { diffuse_of(u, v, 2, o); }
static void e_nolight(float u, float v, float *o) { diffuse_of(u, v, 0, o); }
/* The point light's Cl alone. */
static void e_fillcl(float u, float v, float *o)
{
    float L[2][3], Cl[2][3];
    lights_at(u, v, L, Cl);
    for (int k = 0; k < 3; k++)
        o[k] = Cl[1][k];
}

/* Two calls of the same light loop: twice the diffuse sum, plus the
   count of lit lights (2 everywhere: both are in front of N). */
static void e_twice(float u, float v, float *o)
{
    diffuse_at(u, v, o);
    for (int k = 0; k < 3; k++)
        o[k] = 2 * o[k];
    o[2] += 2;
}

/* The test host puts "shader" points at 2 p + (0, 0, 5): the origin is
   at z = 5. */
static void e_computed_default(float u, float v, float *o)
{
    (void)v;
    o[0] = 5 + u;
}

/* names[i] with i = 1 where u > 0.5, else 0: "b" there, "a" elsewhere. */
static void e_string_array(float u, float v, float *o)
{
    (void)v;
    o[0] = u > 0.5f ? 2 : 1;
}

/* spline(u, k0 ... k34), Catmull-Rom (RISpec): 32 spans between k1
   and k33, knots k_i = (7 i) mod 11. */
static void e_long_spline(float u, float v, float *o)
{
    (void)v;
    float x = u * 32;
    int i = x >= 32 ? 31 : (int)x;
    float t = x - (float)i, p[4];
    for (int k = 0; k < 4; k++)
        p[k] = (float)((7 * (i + k)) % 11);
    o[0] = 0.5f * ((-t * t * t + 2 * t * t - t) * p[0] + (3 * t * t * t - 5 * t * t + 2) * p[1]
                   + (-3 * t * t * t + 4 * t * t + t) * p[2] + (t * t * t - t * t) * p[3]);
}

/* x = (u > 0.5); y = f(v > 0.5) + (u < 0.25) * 2; a {1, 5} indexed by
   (u > 0.5): comparisons as the floats 1 and 0. */
static void e_comparison_values(float u, float v, float *o)
{
    float x = u > 0.5f, y = (float)(v > 0.5f) + (float)(u < 0.25f) * 2;
    o[0] = x + y * 10 + (u > 0.5f ? 5 : 1) * 100;
}

/* light = (1, .3, .2): 1; surface = 1 + 1; imager[1] = 5; f(1) = 2. */
static void e_shader_words(float u, float v, float *o)
{
    (void)u, (void)v;
    o[0] = 1 + 2 * 10 + 5 * 100 + 2 * 1000;
}

/* diffuse() written out as a user function holding the light loop. */
#define DIF                                                                 \
    "color dif(normal Nn) { color C = 0;"                                   \
    " illuminance(P, Nn, PI/2) C += Cl * (normalize(L) . Nn); return C; }\n"

/* 0.5f + 2e1F * u. */
static void e_float_suffix(float u, float v, float *o)
{
    (void)v;
    o[0] = 0.5f + 20 * u;
}

/* a[3] of {1, 2, 3, 4}, plus u. */
static void e_const_length(float u, float v, float *o)
{
    (void)v;
    o[0] = 4 + u;
}

/* Three rounds of r += u; the guarded transform never runs. */
static void e_guarded_transform(float u, float v, float *o)
{
    (void)v;
    o[0] = 3 * u;
}

const RunCase run_compat[] = {
    { "function with an array constant",
      "float f() { float a[4] = {1,2,3,4}; float s = 0, i;"
      " for (i = 0; i < 4; i += 1) s += a[i]; return s; }\n"
      R_FLOAT "r = f() * u; }",
      "r", 1, e_array_sum, 1e-6f },
    { "illuminance in a function",
      DIF
      "surface t() { Ci = dif(normalize(N)); }",
      "Ci", 3, e_diffuse, 1e-5f },
    { "the same light-loop function called twice",
      DIF
      "float lit(normal Nn) { float n = 0; illuminance(P, Nn, PI/2) n += 1; return n; }\n"
      "surface t() { normal Nf = normalize(N); Ci = dif(Nf) + dif(Nf) + color(0, 0, lit(Nf)); }",
      "Ci", 3, e_twice, 1e-5f },
#define CATEGORY(c) "surface t() { normal Nf = normalize(N); Ci = 0;" \
                        " illuminance(\"" c "\", P, Nf, PI/2) Ci += Cl * (normalize(L) . Nf); }"
    { "illuminance over a light category", CATEGORY("spec"), "Ci", 3, e_key, 1e-5f },
    { "illuminance over a category's complement", CATEGORY("-spec"), "Ci", 3, e_fill, 1e-5f },
    { "illuminance over either of two categories", CATEGORY("fill|key"), "Ci", 3, e_diffuse, 1e-5f },
    { "illuminance over categories joined by a comma", CATEGORY(" fill , spec"), "Ci", 3, e_diffuse, 1e-5f },
    { "illuminance over one category and not another", CATEGORY("key&-fill"), "Ci", 3, e_key, 1e-5f },
    { "illuminance over two categories no light has both of", CATEGORY("key&fill"), "Ci", 3, e_nolight,
      1e-5f },
    { "illuminance over an empty category: every light", CATEGORY(""), "Ci", 3, e_diffuse, 1e-5f },
    { "illuminance over a category no light is in", CATEGORY("rim"), "Ci", 3, e_nolight, 1e-5f },
    { "illuminance over a category without a cone", "surface t() { Ci = 0;"
      " illuminance(\"fill\", P) Ci += Cl; }", "Ci", 3, e_fillcl, 1e-5f },
    { "illuminance over a category from a string variable", "surface t(string c = \"-fill\") {"
      " normal Nf = normalize(N); Ci = 0; illuminance(c, P, Nf, PI/2) Ci += Cl * (normalize(L) . Nf); }",
      "Ci", 3, e_key, 1e-5f },
    { "a computed uniform default beside a varying parameter",
      "surface t(point from = point \"shader\" (0, 0, 0); varying float k = 1;"
      " output varying float r = 0) { r = zcomp(from) + k * u; }",
      "r", 1, e_computed_default, 1e-5f },
    { "indexing a string-array parameter",
      "surface t(string names[2] = {\"a\", \"b\"}; output varying float r = 0)"
      " { float i = u > 0.5 ? 1 : 0; string s = names[i]; r = s == \"b\" ? 2 : 1; }",
      "r", 1, e_string_array, 1e-6f },
    { "a spline of 35 knots (more than a builtin call's arguments)",
      R_FLOAT "r = spline(u, 0, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0, 7, 3, 10, 6, 2, 9,"
      " 5, 1, 8, 4, 0, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0, 7); }",
      "r", 1, e_long_spline, 1e-4f },
    { "comparisons used as float values",
      "float f(float a) { return a; }\n"
      R_FLOAT "float x = (u > 0.5); float y = f(v > 0.5) + (u < 0.25) * 2;"
      " float a[2] = {1, 5}; r = x + y * 10 + a[u > 0.5] * 100; }",
      "r", 1, e_comparison_values, 1e-6f },
    { "shader-type words used as names",
      "float f(float volume) { return volume * 2; }\n"
      R_FLOAT "color light = color(1, .3, .2), dark = 0; float imager[2] = {3, 4};"
      " float surface = 1; surface += 1; imager[1] = 5;"
      " r = comp(light, 0) + surface * 10 + imager[1] * 100 + f(1) * 1000; }",
      "r", 1, e_shader_words, 1e-6f },
    { "L and Cl read by a function called in the light loop",
      "color term(normal Nn) { return Cl * (normalize(L) . Nn); }\n"
      "surface t() { normal Nf = normalize(N); Ci = 0;"
      " illuminance(P, Nf, PI/2) Ci += term(Nf); }",
      "Ci", 3, e_diffuse, 1e-5f },
    { "C's float suffix", R_FLOAT "r = 0.5f + 2e1F * u; }", "r", 1, e_float_suffix, 1e-6f },
    { "an array length written as a constant expression",
      R_FLOAT "float a[(1 + 1) * 2] = {1, 2, 3, 4}; r = a[3] + u; }", "r", 1, e_const_length,
      1e-6f },
    { "a named-space transform guarded inside a loop",
      "surface t(string cs = \"\"; output varying float r = 0) { float i;"
      " for (i = 0; i < 3; i += 1) { if (cs != \"\") r += zcomp(transform(cs, P)); r += u; } }",
      "r", 1, e_guarded_transform, 1e-6f },
};
const int run_compat_count = sizeof run_compat / sizeof *run_compat;
