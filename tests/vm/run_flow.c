/*
** run_flow.c: compile-run-verify cases for control flow: if/else chains,
** while and for loops (nested, with varying trip counts), break and
** continue (also break N / continue N), lanes taking different paths
** inside loops, early exits, user functions (returns, output parameters,
** calls of calls, array parameters), extern variables in functions nested
** in the shader, and shader parameters (defaults, outputs).
**
** The expectations mirror each RSL program in C with floats.
*/
#include <math.h>

#include "check_run.h"

static void set3(float *o, float a, float b, float c) { o[0] = a, o[1] = b, o[2] = c; }

/* An expectation: o gets the value at grid point (u, v). */
#define E(name) static void name(float u, float v, float *o)
#define UV (void)u, (void)v

/* ---- if / else ----------------------------------------------------------- */

E(e_chain) { o[0] = (u < 0.25f ? 1 : u < 0.5f ? 2 : u < 0.75f ? 3 : 4) + v; }
E(e_quad) { o[0] = u > 0.5f ? (v > 0.5f ? 1 : 2) : (v > 0.5f ? 3 : 4); }
E(e_nelse) { float k = u > v ? 2 : 1; set3(o, u * k, v * k, 0); }
E(e_uparam) { UV; o[0] = u; }
E(e_andor) { o[0] = ((u > 0.3f && v > 0.3f) || u == 0) ? 1 : 2; }
E(e_multi) { if (u + v > 1) set3(o, u, 1, 1); else set3(o, v, 0, 0); }
E(e_empty) { UV; o[0] = u > 0.5f ? 0 : 1; }
E(e_deep)
{
    float r = 0;
    if (u > 0) {
        r += 1;
        if (v > 0) {
            r += 2;
            if (u > 0.5f)
                r += (v > 0.5f) ? 4 + 8 : 4 + 16;
        }
    }
    o[0] = r;
}
E(e_pcmp) { o[0] = (u - 0.5f == -0.5f && v - 0.5f == -0.5f) ? 2 : 1; }
E(e_uinv) { o[0] = u > 0.5f ? u * 2 : v; }

/* ---- while ----------------------------------------------------------------- */

E(e_w_uni) { UV; float r = 0; for (float i = 0; i < 5; i += 1) r += i * u; o[0] = r; }
E(e_w_var) { UV; float x = 0; while (x < u * 10) x += 1; o[0] = x; }
E(e_w_and)
{
    UV;
    float i = 0, s = 0;
    while (i < 10 && s < u * 5)
        s += i, i += 1;
    set3(o, i, s, 0);
}
E(e_w_break) { UV; float i = 0; while (i < 100 && !(i * i > u * 20)) i += 1; o[0] = i; }
E(e_w_cont)
{
    UV;
    float i = 0, s = 0;
    while (i < 6) {
        i += 1;
        if (fmodf(i, 2) == 0 && u > 0.3f)
            continue;
        s += i;
    }
    o[0] = s;
}
E(e_w_halve) { UV; float x = 1 + u * 100, n = 0; while (x > 1) x = x / 2, n += 1; set3(o, n, x, 0); }
E(e_w_never) { UV; o[0] = 5 + v; }

/* ---- for ------------------------------------------------------------------- */

E(e_f_sum) { UV; o[0] = 10 * v; }
E(e_f_down) { UV; float r = u; for (float i = 3; i >= 0; i -= 1) r = r * 2 + i; o[0] = r; }
E(e_f_vbound) { UV; float r = 0; for (float i = 0; i < v * 5.5f; i += 1) r += 1; o[0] = r; }
E(e_f_vstart) { UV; float r = 0; for (float i = u * 4; i < 4; i += 1) r += i; o[0] = r; }
E(e_f_vstep) { UV; float r = 0; for (float i = 0; i < 3; i += u + 0.5f) r += 1; o[0] = r; }
E(e_f_nest) { UV; o[0] = 36 * u; }
E(e_f_nest100) { UV; o[0] = 100 * u; }
E(e_f_nestv)
{
    UV;
    float r = 0;
    for (float i = 0; i < 4; i += 1)
        for (float j = 0; j < i * u * 2; j += 1)
            r += 1;
    o[0] = r;
}
E(e_f_triple)
{
    UV;
    float r = 0;
    for (float i = 0; i < 3; i += 1)
        for (float j = 0; j < 3; j += 1)
            for (float k = 0; k < 3; k += 1)
                r += i + j + k < u * 6;
    o[0] = r;
}
E(e_f_color)
{
    float c[3] = { 0, 0, 0 };
    for (float i = 0; i < 3; i += 1)
        set3(c, c[0] * 0.5f + u, c[1] * 0.5f + v, c[2] * 0.5f + i);
    set3(o, c[0], c[1], c[2]);
}

/* ---- break and continue ---------------------------------------------------- */

E(e_b_var) { UV; float r = 0; for (float i = 0; i < 10 && !(i >= u * 7); i += 1) r += i; o[0] = r; }
E(e_c_var) { UV; o[0] = u > 0.5f ? 0 + 2 + 4 : 15; }
E(e_b2_while)
{
    UV;
    float r = 0;
    for (float i = 0; i < 4; i += 1) {
        for (float j = 0; j < 4; j += 1) {
            if (i + j > u * 5 + 1)
                goto out;
            r += 1;
        }
        r += 10;
    }
out:
    o[0] = r;
}
E(e_c2)
{
    UV;
    float r = 0;
    for (float i = 0; i < 4; i += 1) {
        for (float j = 0; j < 4; j += 1) {
            if (j > i * u)
                goto next_i;
            r += 1;
        }
        r += 100;
    next_i:;
    }
    o[0] = r;
}
E(e_c2_while)
{
    UV;
    float r = 0;
    for (float i = 0; i < 4; i += 1) {
        for (float j = 0; j < 4; j += 1) {
            if (j >= u * 3)
                goto next_i;
            r += 1;
        }
        r += 100;
    next_i:;
    }
    o[0] = r;
}
E(e_b3)
{
    UV;
    float n = 0;
    for (float i = 0; i < 3; i += 1)
        for (float j = 0; j < 3; j += 1)
            for (float k = 0; k < 3; k += 1) {
                if (i * 9 + j * 3 + k >= u * 20)
                    goto out;
                n += 1;
            }
out:
    o[0] = n;
}
E(e_c3)
{
    UV;
    float n = 0;
    for (float i = 0; i < 3; i += 1) {
        for (float j = 0; j < 3; j += 1) {
            for (float k = 0; k < 3; k += 1) {
                if (k > u * 2)
                    goto next_i;
                n += 1;
            }
            n += 10;
        }
        n += 100;
    next_i:;
    }
    o[0] = n;
}
E(e_b_nested_if)
{
    float r = 0;
    for (float i = 0; i < 5 && !(u > 0.3f && !(v > 0.3f + i * 0.1f)); i += 1)
        r += 1;
    o[0] = r;
}
E(e_b_two)
{
    float r = 0;
    for (float i = 0; i < 10; i += 1) {
        if (i > u * 8)
            break;
        r += 1;
        if (i * v > 1)
            break;
        r += 10;
    }
    o[0] = r;
}
E(e_b_both)
{
    UV;
    float r = 0;
    for (float i = 0; i < 5; i += 1) {
        if (u > 0.5f) {
            r += 1;
            if (i >= 2)
                break;
        } else {
            r += 2;
            if (i >= 3)
                break;
        }
    }
    o[0] = r;
}
E(e_b_find) { UV; float i; for (i = 0; i < 10 && !(i * i > u * 30); i += 1) {} o[0] = i; }
E(e_c_while)
{
    UV;
    float i = 0, r = 0;
    while (i < 8)
        if ((i += 1) <= v * 8)
            r += i;
    o[0] = r;
}
E(e_b_uni) { UV; o[0] = 3 * u; }
E(e_b_some) { UV; o[0] = u > 0.9f ? 2 : 5; }

/* ---- lanes taking different paths in loops, varying trip counts ------------- */

E(e_d_ifelse) { UV; float r = 0; for (float i = 0; i < 4; i += 1) r += i < u * 4 ? 1 : 10; o[0] = r; }
E(e_d_color)
{
    set3(o, 0, 0, 3);
    for (float i = 0; i < 3; i += 1)
        if (fmodf(i + floorf(u * 3), 2) == 0)
            o[0] += 1;
        else
            o[1] += v;
}
E(e_d_break)
{
    float r = 0;
    for (float i = 0; i < 6; i += 1) {
        if (u > 0.5f) {
            if (i > v * 4)
                break;
            r += 1;
        } else {
            r += 2;
        }
    }
    o[0] = r;
}
E(e_d_skip) { UV; o[0] = u > 0.5f ? 4 : 8; }
E(e_t_uv) { float i = 0, r = 0; while (i < u * 4 + v * 4) i += 1, r += i; o[0] = r; }
E(e_t_lim)
{
    UV;
    float lim = 3, r = 0;
    for (float i = 0; i < lim; i += 1) {
        if (i == 1 && u > 0.5f)
            lim = 6;
        r += 1;
    }
    o[0] = r;
}
E(e_t_call) { UV; float i = 0; while (i * i < u * 10) i += 1; o[0] = i; }
static float sum_upto(float x) { float s = 0; for (float i = 0; i < 10 && !(i > x); i += 1) s += i; return s; }
E(e_t_fnloop) { UV; float r = 0; for (float k = 0; k < 3 && !(sum_upto(k * 2) > u * 6); k += 1) r += 1; o[0] = r; }

/* ---- early exits ------------------------------------------------------------- */

E(e_x_flag) { UV; float i = 0; while (i < 5 && !(i >= u * 4)) i += 1; o[0] = i < 5 ? i : -1; }
static float firstabove(float x)
{
    for (float i = 0; i < 10; i += 1)
        if (i * 0.25f > x)
            return i;
    return -1;
}
E(e_x_ret) { o[0] = firstabove(u * 2) + 100 * firstabove(v * 3); }
E(e_x_fallback) { UV; float i = 0; while (i < 4 && !(i > u * 4)) i += 1; o[0] = i == 4 ? -1 : i; }

/* ---- user functions ----------------------------------------------------------- */

E(e_u_sq) { o[0] = u * u + v * v; }
E(e_u_twice) { o[0] = 2 * u + v; }
E(e_u_color) { set3(o, u * v, (1 - u) * v, 0.5f * v); }
E(e_u_vec) { set3(o, -(v - 0.5f), u - 0.5f, 0); }
E(e_u_split) { UV; float x = u * 3.5f; set3(o, floorf(x), x - floorf(x), 0); }
E(e_u_paint) { UV; o[0] = u + 1 + u * u; }
static float step2(float x) { return x < 0.5f ? 1 : 2; }
E(e_u_two) { o[0] = step2(u) + step2(v) * 10; }
static float bucket(float x) { return x < 0.3f ? 1 : x < 0.6f ? 2 : 3; }
E(e_u_three) { o[0] = bucket(u) * 10 + bucket(v); }
E(e_u_calls) { float x = u - 0.5f, y = v - 0.5f; o[0] = (x * x + y * y) + 1 * 1; }
E(e_u_outdown) { UV; o[0] = (u + 1) * 2 + 1; }
E(e_u_arr) { o[0] = u + v + 1; }
E(e_u_carr) { set3(o, 0, 0, 0); o[(int)floorf(u * 2.5f)] = 1 + v; }
E(e_u_outarr) { UV; o[0] = u + 2 * u * 10 + 3 * u * 100; }
E(e_u_elemout) { UV; float a[3] = { 0, 1, 0 }; a[(int)floorf(u * 2.5f)] += 1; o[0] = a[0] + 10 * a[1] + 100 * a[2]; }
E(e_u_uni) { UV; o[0] = 3 * u; }
E(e_u_divergent) { o[0] = (u > 0.5f ? 1 : 0) + v; }
E(e_u_partial) { UV; o[0] = u > 0.5f ? 1 : 5; }
E(e_u_tern) { UV; o[0] = u > 0.5f ? u * 2 : u + 10; }
E(e_u_shadow) { UV; o[0] = 3 * u + 5; }
E(e_u_early) { UV; o[0] = u > 0.5f ? 1 : 2; }
E(e_u_nestret)
{
    UV;
    float x = u * 15, r = -1;
    for (float i = 0; i < 4 && r < 0; i += 1)
        for (float j = 0; j < 4 && r < 0; j += 1)
            if (i * 4 + j >= x)
                r = i * 10 + j;
    o[0] = r;
}
E(e_u_inloop) { UV; float r = 0; for (float i = 0; i < 4; i += 1) r += (i * u) * (i * u); o[0] = r; }
E(e_u_accloop) { UV; o[0] = 6 * v; }

/* ---- extern ------------------------------------------------------------------- */

E(e_x_read) { UV; o[0] = 1 + u * 2; }
E(e_x_write) { UV; float n = 0; for (float i = 0; i < u * 4; i += 1) n += 1; o[0] = n; }
E(e_x_global) { o[0] = u - 0.5f + v; }
E(e_x_ci) { set3(o, u, v, 1); }
E(e_x_deep) { o[0] = u * v + 1; }
E(e_x_cond) { o[0] = (u > 0.5f) + (v > 0.5f); }
E(e_x_outp) { UV; o[0] = u * 2; }
E(e_x_loop) { UV; float t = 0; for (float i = 0; i < u * 4; i += 1) t += i; o[0] = t; }

/* ---- shader parameters ------------------------------------------------------- */

E(e_s_keep) { UV; o[0] = u > 0.5f ? u : 7; }
E(e_s_def) { UV; o[0] = 2 * u + 3; }
E(e_s_cp) { UV; set3(o, 0.5f * u, 0.25f * u, u + 3); }
E(e_s_outc) { set3(o, u, v, u * v); }
E(e_s_outu) { UV; o[0] = 5 * 2; }
E(e_s_vdef) { UV; o[0] = 0.25f + u; }
E(e_s_cexpr) { UV; o[0] = 6.25f * u; }
E(e_s_arr) { o[0] = 1 + 2 * u + 3 * v; }
E(e_s_second) { UV; o[0] = 1 + v; }
E(e_s_rmw) { UV; o[0] = 3 * u; }
E(e_s_loop) { float r = 1; for (float i = 0; i < 3; i += 1) r = r * u + v; o[0] = r; }

#define T "surface t(output varying float r = 0) "
#define TV "surface t(output varying vector w = 0) "

const RunCase run_flow[] = {
    /* if / else */
    { "if / else if / else chain", T "{ if (u < 0.25) r = 1; else if (u < 0.5) r = 2; else if (u < 0.75) r = 3;"
      " else r = 4; r += v; }", "r", 1, e_chain, 1e-6f },
    { "nested if, four quadrants", T "{ if (u > 0.5) { if (v > 0.5) r = 1; else r = 2; }"
      " else { if (v > 0.5) r = 3; else r = 4; } }", "r", 1, e_quad, 0 },
    { "if without else", "surface t() { Ci = color(u, v, 0); if (u > v) Ci = Ci * 2; }", "Ci", 3, e_nelse, 1e-6f },
    { "if on uniform parameters", "surface t(float k = 1, j = -1; output varying float r = 0)"
      " { if (k > 0) r = u; else r = v; if (j > 0) r += 100; }", "r", 1, e_uparam, 1e-6f },
    { "if on && and ||", T "{ if (u > 0.3 && v > 0.3 || u == 0) r = 1; else r = 2; }", "r", 1, e_andor, 0 },
    { "if/else assigning several variables", "surface t() { float a = 0, b = 0; color c = 0;"
      " if (u + v > 1) { a = u; b = 1; c = color(1, 0, 0); } else { a = v; c = color(0, 1, 0); }"
      " Ci = color(a, b, comp(c, 0)); }", "Ci", 3, e_multi, 1e-6f },
    { "empty then branch", T "{ if (u > 0.5) {} else r = 1; }", "r", 1, e_empty, 0 },
    { "four nested ifs", T "{ if (u > 0) { r += 1; if (v > 0) { r += 2; if (u > 0.5) { r += 4;"
      " if (v > 0.5) r += 8; else r += 16; } } } }", "r", 1, e_deep, 0 },
    { "if on a point comparison", T "{ if (P != point(-0.5, -0.5, 1)) r = 1; else r = 2; }", "r", 1, e_pcmp, 0 },
    { "uniform if inside a varying if", "surface t(float k = 2; output varying float r = 0)"
      " { if (u > 0.5) { if (k > 1) r = u * k; else r = -1; } else r = v; }", "r", 1, e_uinv, 1e-6f },
    /* while */
    { "while, uniform count", T "{ float i = 0; while (i < 5) { r += i * u; i += 1; } }", "r", 1, e_w_uni, 1e-5f },
    { "while, varying count", T "{ float x = 0; while (x < u * 10) x += 1; r = x; }", "r", 1, e_w_var, 0 },
    { "while on &&", "surface t() { float i = 0, s = 0; while (i < 10 && s < u * 5) { s += i; i += 1; }"
      " Ci = color(i, s, 0); }", "Ci", 3, e_w_and, 0 },
    { "while with break", T "{ float i = 0; while (i < 100) { if (i * i > u * 20) break; i += 1; } r = i; }", "r", 1,
      e_w_break, 0 },
    { "while with continue", T "{ float i = 0, s = 0; while (i < 6) { i += 1;"
      " if (mod(i, 2) == 0 && u > 0.3) continue; s += i; } r = s; }", "r", 1, e_w_cont, 0 },
    { "while halving", "surface t() { float x = 1 + u * 100, n = 0; while (x > 1) { x = x / 2; n += 1; }"
      " Ci = color(n, x, 0); }", "Ci", 3, e_w_halve, 1e-6f },
    { "while never entered", T "{ r = 5 + v; while (u > 2) r = 0; }", "r", 1, e_w_never, 1e-6f },
    /* for */
    { "for sum", T "{ float i; for (i = 1; i <= 4; i += 1) r += i * v; }", "r", 1, e_f_sum, 1e-5f },
    { "for counting down", T "{ float i; r = u; for (i = 3; i >= 0; i -= 1) r = r * 2 + i; }", "r", 1, e_f_down,
      1e-5f },
    { "for, varying bound", T "{ float i; for (i = 0; i < v * 5.5; i += 1) r += 1; }", "r", 1, e_f_vbound, 0 },
    { "for, varying start", T "{ float i; for (i = u * 4; i < 4; i += 1) r += i; }", "r", 1, e_f_vstart, 1e-5f },
    { "for, varying step", T "{ float i; for (i = 0; i < 3; i += u + 0.5) r += 1; }", "r", 1, e_f_vstep, 0 },
    { "nested for, accumulating a product", T "{ float i, j; for (i = 0; i < 4; i += 1) for (j = 0; j < 4; j += 1)"
      " r += (i + 1) * (j + 1) * u; }", "r", 1, e_f_nest100, 1e-4f },
    { "nested for, varying inner bound", T "{ float i, j; for (i = 0; i < 4; i += 1)"
      " for (j = 0; j < i * u * 2; j += 1) r += 1; }", "r", 1, e_f_nestv, 0 },
    { "triple for with a varying if", T "{ float i, j, k; for (i = 0; i < 3; i += 1) for (j = 0; j < 3; j += 1)"
      " for (k = 0; k < 3; k += 1) if (i + j + k < u * 6) r += 1; }", "r", 1, e_f_triple, 0 },
    { "for accumulating a color", "surface t() { color c = 0; float i;"
      " for (i = 0; i < 3; i += 1) c = c * 0.5 + color(u, v, i); Ci = c; }", "Ci", 3, e_f_color, 1e-6f },
    /* break and continue */
    { "break on a varying condition", T "{ float i; for (i = 0; i < 10; i += 1) { if (i >= u * 7) break; r += i; } }",
      "r", 1, e_b_var, 0 },
    { "continue on a varying condition", T "{ float i; for (i = 0; i < 6; i += 1) {"
      " if (u > 0.5 && mod(i, 2) == 1) continue; r += i; } }", "r", 1, e_c_var, 0 },
    { "break 2 from a while in a for", T "{ float i, j; for (i = 0; i < 4; i += 1) { j = 0; while (j < 4) {"
      " if (i + j > u * 5 + 1) break 2; r += 1; j += 1; } r += 10; } }", "r", 1, e_b2_while, 0 },
    { "continue 2", T "{ float i, j; for (i = 0; i < 4; i += 1) { for (j = 0; j < 4; j += 1) {"
      " if (j > i * u) continue 2; r += 1; } r += 100; } }", "r", 1, e_c2, 0 },
    { "continue 2 from a for in a while", T "{ float i = 0, j; while (i < 4) { i += 1;"
      " for (j = 0; j < 4; j += 1) { if (j >= u * 3) continue 2; r += 1; } r += 100; } }", "r", 1, e_c2_while,
      0 },
    { "break 1", T "{ float i; for (i = 0; i < 10; i += 1) { if (i >= u * 7) break 1; r += i; } }", "r", 1, e_b_var,
      0 },
    { "break 3", T "{ float i, j, k; for (i = 0; i < 3; i += 1) for (j = 0; j < 3; j += 1)"
      " for (k = 0; k < 3; k += 1) { if (i * 9 + j * 3 + k >= u * 20) break 3; r += 1; } }", "r", 1, e_b3, 0 },
    { "continue 3", T "{ float i, j, k; for (i = 0; i < 3; i += 1) { for (j = 0; j < 3; j += 1) {"
      " for (k = 0; k < 3; k += 1) { if (k > u * 2) continue 3; r += 1; } r += 10; } r += 100; } }", "r", 1,
      e_c3, 0 },
    { "break in nested ifs", T "{ float i; for (i = 0; i < 5; i += 1) { if (u > 0.3) {"
      " if (v > 0.3 + i * 0.1) {} else break; } r += 1; } }", "r", 1, e_b_nested_if, 0 },
    { "two breaks", T "{ float i; for (i = 0; i < 10; i += 1) { if (i > u * 8) break; r += 1;"
      " if (i * v > 1) break; r += 10; } }", "r", 1, e_b_two, 0 },
    { "break in both branches", T "{ float i; for (i = 0; i < 5; i += 1) { if (u > 0.5) { r += 1;"
      " if (i >= 2) break; } else { r += 2; if (i >= 3) break; } } }", "r", 1, e_b_both, 0 },
    { "break leaves the index", T "{ float i; for (i = 0; i < 10; i += 1) if (i * i > u * 30) break; r = i; }", "r",
      1, e_b_find, 0 },
    { "continue in while", T "{ float i = 0; while (i < 8) { i += 1; if (i > v * 8) continue; r += i; } }", "r", 1,
      e_c_while, 0 },
    { "break on a uniform parameter", "surface t(float lim = 3; output varying float r = 0) { float i;"
      " for (i = 0; i < 10; i += 1) { if (i >= lim) break; r += u; } }", "r", 1, e_b_uni, 1e-6f },
    { "break taken by one lane", T "{ float i; for (i = 0; i < 5; i += 1) { if (u > 0.9 && i == 2) break; r += 1; } }",
      "r", 1, e_b_some, 0 },
    /* lanes taking different paths inside loops */
    { "divergent if/else in a loop", T "{ float i; for (i = 0; i < 4; i += 1) { if (i < u * 4) r += 1;"
      " else r += 10; } }", "r", 1, e_d_ifelse, 0 },
    { "divergent color updates in a loop", "surface t() { color c = 0; float i; for (i = 0; i < 3; i += 1) {"
      " if (mod(i + floor(u * 3), 2) == 0) c += color(1, 0, 0); else c += color(0, v, 0);"
      " c += color(0, 0, 1); } Ci = c; }", "Ci", 3, e_d_color, 1e-6f },
    { "break in one branch of a divergent if", T "{ float i; for (i = 0; i < 6; i += 1) { if (u > 0.5) {"
      " if (i > v * 4) break; r += 1; } else { r += 2; } } }", "r", 1, e_d_break, 0 },
    { "counter bumped in one branch", T "{ float i; for (i = 0; i < 8; i += 1) { if (u > 0.5) i += 1; r += 1; } }",
      "r", 1, e_d_skip, 0 },
    { "trip count from u and v", T "{ float i = 0; while (i < u * 4 + v * 4) { i += 1; r += i; } }", "r", 1, e_t_uv,
      0 },
    { "bound raised inside the loop", T "{ float i, lim = 3; for (i = 0; i < lim; i += 1) {"
      " if (i == 1 && u > 0.5) lim = 6; r += 1; } }", "r", 1, e_t_lim, 0 },
    { "loop condition calls a function", T "{ float sq(float x) { return x * x; } float i = 0;"
      " while (sq(i) < u * 10) i += 1; r = i; }", "r", 1, e_t_call, 0 },
    { "function with a loop called in a loop", "float sumupto(float x) { float i, s = 0;"
      " for (i = 0; i < 10; i += 1) { if (i > x) break; s += i; } return s; }"
      " surface t(output varying float r = 0) { float k; for (k = 0; k < 3; k += 1) {"
      " if (sumupto(k * 2) > u * 6) break; r += 1; } }", "r", 1, e_t_fnloop, 0 },
    /* early exits */
    { "first match by break", T "{ float i, idx = -1; for (i = 0; i < 5; i += 1) if (i >= u * 4) { idx = i; break; }"
      " r = idx; }", "r", 1, e_x_flag, 0 },
    { "return from a loop", "float firstabove(float x) { float i; for (i = 0; i < 10; i += 1)"
      " if (i * 0.25 > x) return i; return -1; }"
      " surface t(output varying float r = 0) { r = firstabove(u * 2) + 100 * firstabove(v * 3); }", "r", 1,
      e_x_ret, 0 },
    { "search with a not-found value", T "{ float i; for (i = 0; i < 4; i += 1) if (i > u * 4) break;"
      " if (i == 4) r = -1; else r = i; }", "r", 1, e_x_fallback, 0 },
    /* user functions */
    { "top-level function", "float sq(float x) { return x * x; }"
      " surface t(output varying float r = 0) { r = sq(u) + sq(v); }", "r", 1, e_u_sq, 1e-6f },
    { "function in the shader body", T "{ float twice(float x) { return 2 * x; } r = twice(u) + v; }", "r", 1,
      e_u_twice, 1e-6f },
    { "function returning a color", "color tint(float a) { return color(a, 1 - a, 0.5); }"
      " surface t() { Ci = tint(u) * v; }", "Ci", 3, e_u_color, 1e-6f },
    { "function returning a vector", "vector perp(vector a) { return vector(-ycomp(a), xcomp(a), 0); }"
      " surface t(output varying vector w = 0) { w = perp(vector(P)); }", "w", 3, e_u_vec, 1e-6f },
    { "output float parameters", "void split(float x; output float lo; output float hi) { lo = floor(x);"
      " hi = x - lo; } surface t() { float a, b; split(u * 3.5, a, b); Ci = color(a, b, 0); }", "Ci", 3, e_u_split,
      1e-6f },
    { "output color parameter and a value", "float paint(float x; output color c) { c = color(x, x * x, 1);"
      " return x + 1; } surface t(output varying float r = 0) { color c; r = paint(u, c) + comp(c, 1); }", "r", 1,
      e_u_paint, 1e-6f },
    { "two returns", "float step2(float x) { if (x < 0.5) return 1; return 2; }"
      " surface t(output varying float r = 0) { r = step2(u) + step2(v) * 10; }", "r", 1, e_u_two, 0 },
    { "three returns in an if chain", "float bucket(float x) { if (x < 0.3) return 1; else if (x < 0.6) return 2;"
      " else return 3; } surface t(output varying float r = 0) { r = bucket(u) * 10 + bucket(v); }", "r", 1,
      e_u_three, 0 },
    { "functions calling functions", "float sq(float x) { return x * x; }"
      " float hyp2(float a, b) { return sq(a) + sq(b); }"
      " float norm2(point p) { return hyp2(xcomp(p), ycomp(p)) + sq(zcomp(p)); }"
      " surface t(output varying float r = 0) { r = norm2(P); }", "r", 1, e_u_calls, 1e-6f },
    { "output parameter passed down", "void inner(float x; output float y) { y = x * 2; }"
      " void outer(float x; output float y) { inner(x + 1, y); y += 1; }"
      " surface t(output varying float r = 0) { outer(u, r); }", "r", 1, e_u_outdown, 1e-6f },
    { "float array parameter", "float sum3(float a[3]) { return a[0] + a[1] + a[2]; }"
      " surface t(output varying float r = 0) { float arr[3] = {u, v, 1}; r = sum3(arr); }", "r", 1, e_u_arr,
      1e-6f },
    { "color array parameter, varying index", "color pick(color c[3]; float i) { return c[i]; }"
      " surface t() { color cs[3] = {color(1, 0, 0), color(0, 1, 0), color(0, 0, 1)};"
      " Ci = pick(cs, u * 2.5) * (1 + v); }", "Ci", 3, e_u_carr, 1e-6f },
    { "output array parameter", "void fill(output float a[3]; float x) { a[0] = x; a[1] = 2 * x; a[2] = 3 * x; }"
      " surface t(output varying float r = 0) { float b[3]; fill(b, u); r = b[0] + b[1] * 10 + b[2] * 100; }",
      "r", 1, e_u_outarr, 1e-4f },
    { "array elements as output arguments", "void inc(output float x) { x += 1; }"
      " surface t(output varying float r = 0) { float a[3] = {0, 0, 0}; inc(a[1]); inc(a[u * 2.5]);"
      " r = a[0] + 10 * a[1] + 100 * a[2]; }", "r", 1, e_u_elemout, 0 },
    { "uniform function parameter", "float scalek(uniform float k; float x) { return k * x; }"
      " surface t(output varying float r = 0) { r = scalek(3, u); }", "r", 1, e_u_uni, 1e-6f },
    { "call under a divergent if", "void bump(output float y) { y += 1; }"
      " surface t(output varying float r = 0) { r = v; if (u > 0.5) bump(r); }", "r", 1, e_u_divergent, 1e-6f },
    { "output parameter written on some paths", "void g(float x; output float y) { if (x > 0.5) y = 1; }"
      " surface t(output varying float r = 0) { r = 5; g(u, r); }", "r", 1, e_u_partial, 0 },
    { "calls in both arms of ?:", "float f(float x) { return x * 2; } float g(float x) { return x + 10; }"
      " surface t(output varying float r = 0) { r = u > 0.5 ? f(u) : g(u); }", "r", 1, e_u_tern, 1e-5f },
    { "function locals shadow the caller's", "float g(float x) { float k = x * 3; return k; }"
      " surface t(output varying float r = 0) { float k = 5; r = g(u) + k; }", "r", 1, e_u_shadow, 1e-6f },
    { "void function with an early return", "void g(float x; output float y) { y = 1; if (x > 0.5) return; y = 2; }"
      " surface t(output varying float r = 0) { g(u, r); }", "r", 1, e_u_early, 0 },
    { "return from nested loops", "float f(float x) { float i, j; for (i = 0; i < 4; i += 1)"
      " for (j = 0; j < 4; j += 1) if (i * 4 + j >= x) return i * 10 + j; return -1; }"
      " surface t(output varying float r = 0) { r = f(u * 15); }", "r", 1, e_u_nestret, 0 },
    { "function called in a loop", "float sq(float x) { return x * x; }"
      " surface t(output varying float r = 0) { float i; for (i = 0; i < 4; i += 1) r += sq(i * u); }", "r", 1,
      e_u_inloop, 1e-5f },
    { "output parameter accumulated in a loop", "void acc(float x; output float s) { s += x; }"
      " surface t(output varying float r = 0) { float i; for (i = 0; i < 4; i += 1) acc(i * v, r); }", "r", 1,
      e_u_accloop, 1e-5f },
    /* extern */
    { "nested function reads an extern", T "{ float k = u * 2; float addk(float x) { extern float k;"
      " return x + k; } r = addk(1); }", "r", 1, e_x_read, 1e-6f },
    { "nested function writes an extern", T "{ float cnt = 0, i; void bump() { extern float cnt; cnt += 1; }"
      " for (i = 0; i < u * 4; i += 1) bump(); r = cnt; }", "r", 1, e_x_write, 0 },
    { "extern global in a top-level function", "float px() { extern point P; return xcomp(P); }"
      " surface t(output varying float r = 0) { r = px() + v; }", "r", 1, e_x_global, 1e-6f },
    { "function writes extern Ci", "void paint() { extern color Ci; extern float u, v; Ci = color(u, v, 1); }"
      " surface t() { paint(); }", "Ci", 3, e_x_ci, 1e-6f },
    { "extern in a doubly nested function", T "{ float k = v; float outer(float x) {"
      " float inner(float y) { extern float k; return y * k; } return inner(x) + 1; } r = outer(u); }", "r", 1,
      e_x_deep, 1e-6f },
    { "extern written under a varying if", T "{ float hits = 0; void mark(float x) { extern float hits;"
      " if (x > 0.5) hits += 1; } mark(u); mark(v); r = hits; }", "r", 1, e_x_cond, 0 },
    { "extern output parameter", T "{ void setr(float x) { extern float r; r = x * 2; } setr(u); }", "r", 1,
      e_x_outp, 1e-6f },
    { "extern updated in a loop in a function", T "{ float total = 0; void addall(float n) { extern float total;"
      " float i; for (i = 0; i < n; i += 1) total += i; } addall(u * 4); r = total; }", "r", 1, e_x_loop, 0 },
    /* shader parameters */
    { "parameter defaults", "surface t(float a = 2, b = 3; output varying float r = 0) { r = a * u + b; }", "r",
      1, e_s_def, 1e-6f },
    { "color and point parameter defaults", "surface t(color c0 = color(0.5, 0.25, 1); point p0 = point(1, 2, 3))"
      " { Ci = c0 * u + color(0, 0, zcomp(p0)); }", "Ci", 3, e_s_cp, 1e-6f },
    { "output color parameter", "surface t(output varying color cc = 0) { cc = color(u, v, u * v); }", "cc", 3,
      e_s_outc, 1e-6f },
    { "output uniform parameter", "surface t(float a = 5; output uniform float k = 0) { k = a * 2; }", "k", 1,
      e_s_outu, 0 },
    { "output written on some lanes", "surface t(output varying float r = 0) { r = 7; if (u > 0.5) r = u; }",
      "r", 1, e_s_keep, 1e-6f },
    { "constant expression default", "surface t(float a = 1 / 4 + 2 * 3; output varying float r = 0)"
      " { r = a * u; }", "r", 1, e_s_cexpr, 1e-6f },
    { "array parameter default", "surface t(float a[3] = {1, 2, 3}; output varying float r = 0)"
      " { r = a[0] + a[1] * u + a[2] * v; }", "r", 1, e_s_arr, 1e-6f },
    { "two output parameters", "surface t(output varying float r = 0; output varying float r2 = 0)"
      " { r = u; r2 = 1; r2 = r2 + v; }", "r2", 1, e_s_second, 1e-6f },
    { "output parameter updated in a loop", "surface t(output varying float r = 0) { float i; r = 1;"
      " for (i = 0; i < 3; i += 1) r = r * u + v; }", "r", 1, e_s_loop, 1e-5f },
    { "nested for", T "{ float i, j; for (i = 0; i < 4; i += 1) for (j = 0; j < 4; j += 1) r += i * j * u; }", "r",
      1, e_f_nest, 1e-5f },
    { "output default kept where not written", "surface t(output varying float r = 7) { if (u > 0.5) r = u; }",
      "r", 1, e_s_keep, 1e-6f },
    { "varying input parameter", "surface t(varying float b = 0.25; output varying float r = 0) { r = b + u; }",
      "r", 1, e_s_vdef, 1e-6f },
    { "second output parameter", "surface t(output varying float r = 0; output varying float r2 = 1)"
      " { r = u; r2 = r2 + v; }", "r2", 1, e_s_second, 1e-6f },
    { "output parameter read before written", "surface t(output varying float r = 3) { r = r * u; }", "r", 1,
      e_s_rmw, 1e-6f },
    { "output default updated in a loop", "surface t(output varying float r = 1) { float i;"
      " for (i = 0; i < 3; i += 1) r = r * u + v; }", "r", 1, e_s_loop, 1e-5f },
};
const int run_flow_count = sizeof run_flow / sizeof *run_flow;
