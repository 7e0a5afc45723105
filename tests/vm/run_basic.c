/*
** run_basic.c: compile-run-verify cases for assignments, arithmetic on
** floats and colors, and varying control flow.
*/
#include <math.h>

#include "check_run.h"

static void e_const(float u, float v, float *o) { (void)u, (void)v; o[0] = 0.25f, o[1] = 0.5f, o[2] = 1; }
static void e_uv(float u, float v, float *o) { o[0] = u, o[1] = v, o[2] = u * v; }
static void e_mix(float u, float v, float *o) { (void)v; for (int k = 0; k < 3; k++) o[k] = (1 - u) * 0.2f + u * 0.8f; }
static void e_if(float u, float v, float *o) { o[0] = u < 0.5f ? 1 : 2; o[1] = v > 0.4f ? v : -v; o[2] = 0; }
/* sum of k for k < 4u (a varying trip count) */
static void e_loop(float u, float v, float *o)
{
    (void)v;
    float s = 0;
    for (float k = 0; k < 4 * u; k += 1)
        s += k;
    o[0] = s, o[1] = 4 * u, o[2] = 0;
}
/* break 2 out of a nested loop when i*j >= 2u*4 */
static void e_break2(float u, float v, float *o)
{
    (void)v;
    float n = 0;
    for (float i = 1; i < 5; i += 1) {
        for (float j = 1; j < 5; j += 1) {
            if (i * j >= 8 * u)
                goto out;
            n += 1;
        }
    }
out:
    o[0] = n, o[1] = 0, o[2] = 0;
}
static void e_ternary(float u, float v, float *o) { o[0] = u > v ? u : v; o[1] = (u > 0.3f && v < 0.7f) ? 1 : 0; o[2] = (u < 0.1f || v > 0.9f) ? 1 : 0; }

const RunCase run_basic[] = {
    { "constant color", "surface t() { Ci = color(0.25, 0.5, 1); }", "Ci", 3, e_const, 0 },
    { "globals u v", "surface t() { Ci = color(u, v, u * v); }", "Ci", 3, e_uv, 1e-6f },
    { "mix of floats into a color", "surface t() { Ci = mix(0.2, 0.8, u); }", "Ci", 3, e_mix, 1e-6f },
    { "varying if/else", "surface t() { float a, b; if (u < 0.5) a = 1; else a = 2;"
      " if (v > 0.4) b = v; else b = -v; Ci = color(a, b, 0); }", "Ci", 3, e_if, 0 },
    { "varying trip count", "surface t() { float s = 0, k; for (k = 0; k < 4 * u; k += 1) s += k;"
      " Ci = color(s, 4 * u, 0); }", "Ci", 3, e_loop, 1e-6f },
    { "break 2", "surface t() { float n = 0, i, j; for (i = 1; i < 5; i += 1) for (j = 1; j < 5; j += 1)"
      " { if (i * j >= 8 * u) break 2; n += 1; } Ci = color(n, 0, 0); }", "Ci", 3, e_break2, 0 },
    { "ternary and short circuit", "surface t() { Ci = color(u > v ? u : v, (u > 0.3 && v < 0.7) ? 1 : 0,"
      " (u < 0.1 || v > 0.9) ? 1 : 0); }", "Ci", 3, e_ternary, 0 },
};
const int run_basic_count = sizeof run_basic / sizeof *run_basic;
