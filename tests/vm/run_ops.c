/*
** run_ops.c: compile-run-verify cases for the RSL operators on every type
** combination: arithmetic on floats, colors, points, vectors, normals and
** matrices (with float promotion), dot '.' and cross '^', comparisons and
** logic, ?:, the assignment operators, typecasts and constructors
** (color "hsv" (...), matrix(1), 16 floats), component access, arrays
** indexed by varying floats, and uniform values mixed with varying ones.
**
** Matrices are row-major (comp(m, row, col) is element row * 4 + col) and
** multiply as A * B; A / B is A * inverse(B) (RISpec 3.2).
*/
#include <math.h>

#include "check_run.h"
#include "run_ref.h"

static void set3(float *o, float a, float b, float c) { o[0] = a, o[1] = b, o[2] = c; }
static float bit(int c, float w) { return c ? w : 0; }

/* ---- matrices: row-major 4 x 4 helpers ------------------------------------ */

static const float MA[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
/* diag(2, 4, 1, 1) with translation (1, 2, 3) in the last row */
static const float MB[16] = { 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1 };
#define MA_SRC "matrix(1,2,3,4, 5,6,7,8, 9,10,11,12, 13,14,15,16)"
#define MB_SRC "matrix(2,0,0,0, 0,4,0,0, 0,0,1,0, 1,2,3,1)"

static void mat_diag(float d, float *o)
{
    for (int k = 0; k < 16; k++)
        o[k] = k % 5 == 0 ? d : 0;
}

/* ---- expectations ---------------------------------------------------------- */

/* floats */
static void e_f_addsubmul(float u, float v, float *o) { set3(o, u + v, u - v, u * v); }
static void e_f_div(float u, float v, float *o) { o[0] = (u + 1) / (v + 2); }
static void e_f_neg(float u, float v, float *o) { set3(o, -u, v - u, v); }
static void e_f_prec(float u, float v, float *o) { o[0] = 1 + u * 2 - v / 4; }
static void e_f_assoc(float u, float v, float *o) { set3(o, u * 3 / 2, u / 8, (1 - u) - v); }
/* colors */
static void e_c_add(float u, float v, float *o) { set3(o, u + v, v + 0.5f, 1 + u); }
static void e_c_sub(float u, float v, float *o) { set3(o, u - v, v - 0.5f, 1 - u); }
static void e_c_mul(float u, float v, float *o) { set3(o, u * v, v * 0.5f, u); }
static void e_c_div(float u, float v, float *o) { set3(o, u / 2, v / 4, 1 / (v + 1)); }
static void e_c_neg(float u, float v, float *o) { set3(o, -u, -v, 1); }
static void e_c_fmul(float u, float v, float *o) { set3(o, u + 0.5f * v, 2 * u + 0.5f * v, 3 * u + 0.5f * v); }
static void e_c_fadd(float u, float v, float *o) { set3(o, 1 + u, 1 + v, 1); }
static void e_c_fsub(float u, float v, float *o) { set3(o, 1 - (u - 0.25f), 1 - (v - 0.25f), 1 - (1 - 0.25f)); }
static void e_c_fdiv(float u, float v, float *o) { set3(o, u / 4 + 1, v / 4 + 0.5f, 0.25f + 1 / (u + 1)); }
static void e_c_global(float u, float v, float *o) { (void)v; set3(o, u, u, u); }
/* points, vectors, normals */
static void e_p_addv(float u, float v, float *o) { set3(o, u - 0.5f + 1, v - 0.5f + 2, 4); }
static void e_p_subp(float u, float v, float *o) { set3(o, (u - 0.5f) - u, (v - 0.5f) - v, 1); }
static void e_p_mul(float u, float v, float *o) { set3(o, (u - 0.5f) * 2, (v - 0.5f) * 3, 4); }
static void e_p_div(float u, float v, float *o) { set3(o, (u - 0.5f) / 2, (v - 0.5f) / 4, 1 / (u + 1)); }
static void e_v_neg(float u, float v, float *o) { set3(o, -u, -v, -1); }
static void e_v_ops(float u, float v, float *o) { set3(o, (u - 1) * 2, (v - 2) * 2, -6); }
static void e_n_ops(float u, float v, float *o) { set3(o, u * 0.5f, v * 0.5f, -0.5f); }
static void e_n_neg(float u, float v, float *o) { (void)u, (void)v; set3(o, 0, 0, 1); }
static void e_t_fmix(float u, float v, float *o) { set3(o, 2 * (u - 0.5f) + 1, 2 * (v - 0.5f) + 1, 3); }
static void e_t_fdiv(float u, float v, float *o) { set3(o, (u - 0.5f) / 2, (v - 0.5f) / 2, 0.5f); }
static void e_t_fsub(float u, float v, float *o) { set3(o, 1 - u, 1 - v, 1); }
static void e_t_pn(float u, float v, float *o) { set3(o, u - 0.5f, v - 0.5f, 0); }
/* dot and cross */
static void e_dot_vv(float u, float v, float *o) { o[0] = 2 * u + 3 * v + 4; }
static void e_dot_pn(float u, float v, float *o) { o[0] = (u - 0.5f) + (v - 0.5f) + 1; }
static void e_dot_pp(float u, float v, float *o) { o[0] = (u - 0.5f) * (u - 0.5f) + (v - 0.5f) * (v - 0.5f) + 1; }
static void cross(const float *a, const float *b, float *o)
{
    set3(o, a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
static void e_cross_vv(float u, float v, float *o)
{
    const float a[3] = { u, v, 1 }, b[3] = { 1, 2, 3 };
    cross(a, b, o);
}
static void e_cross_pn(float u, float v, float *o)
{
    const float a[3] = { u - 0.5f, v - 0.5f, 1 }, b[3] = { 0, 0, -1 };
    cross(a, b, o);
}
static void e_zero3(float u, float v, float *o) { (void)u, (void)v; set3(o, 0, 0, 0); }
static void e_cross_xy(float u, float v, float *o) { (void)u, (void)v; set3(o, 0, 0, 1); }
static void e_dotcross(float u, float v, float *o) { o[0] = u * u + v * v + 1; }
/* matrices */
static void e_m_ident(float u, float v, float *o) { (void)u, (void)v; mat_diag(1, o); }
static void e_m_diagu(float u, float v, float *o) { (void)v; mat_diag(u, o); }
static void e_m_16(float u, float v, float *o)
{
    for (int k = 0; k < 16; k++)
        o[k] = (float)k;
    o[0] = u, o[15] = v;
}
static void e_m_mul(float u, float v, float *o) { (void)u, (void)v; ref_mat_mul(MA, MB, o); }
static void e_m_mulv(float u, float v, float *o)
{
    float d[16];
    mat_diag(1, d);
    d[0] = u, d[5] = v;
    ref_mat_mul(d, MA, o);
}
static void e_m_div(float u, float v, float *o)
{
    float inv[16];
    (void)u, (void)v;
    ref_mat_inv(MB, inv);
    ref_mat_mul(MA, inv, o);
}
static void e_m_divv(float u, float v, float *o) { (void)v; mat_diag(1 / (u + 1), o); }
static void e_m_self(float u, float v, float *o) { (void)u, (void)v; mat_diag(1, o); }
static void e_m_fmul(float u, float v, float *o)
{
    (void)v;
    for (int k = 0; k < 16; k++)
        o[k] = 2 * MA[k] * u;
}
static void e_m_fdiv(float u, float v, float *o)
{
    (void)u, (void)v;
    for (int k = 0; k < 16; k++)
        o[k] = MA[k] / 4;
}
static void e_m_comp(float u, float v, float *o) { set3(o, u, MA[2 * 4 + 1], MA[3 * 4 + 0] + v); }
static void e_m_setcomp(float u, float v, float *o)
{
    mat_diag(1, o);
    o[0 * 4 + 3] = u, o[2 * 4 + 1] = v;
}
/* comparisons and logic */
static void e_cmp_f(float u, float v, float *o)
{
    o[0] = bit(u < v, 1) + bit(u <= v, 2) + bit(u > v, 4) + bit(u >= v, 8) + bit(u == v, 16)
           + bit(u != v, 32);
}
static void e_cmp_const(float u, float v, float *o)
{
    o[0] = bit(u < 0.5f, 1) + bit(v <= 1.0f / 3, 2) + bit(0.5f > v, 4) + bit(u >= 1, 8);
}
static void e_cmp_c(float u, float v, float *o) { o[0] = bit(u == v, 1) + bit(u != v, 2); }
static void e_cmp_p(float u, float v, float *o)
{
    o[0] = bit(v - 0.5f == -0.5f, 1) + bit(u != 0, 2) + 4;
}
static void e_cmp_m(float u, float v, float *o) { (void)v; o[0] = bit(u == 1, 1) + bit(u != 1, 2); }
static void e_cmp_s(float u, float v, float *o) { (void)u, (void)v; o[0] = 1 + 2; }
static void e_one(float u, float v, float *o) { (void)u, (void)v; o[0] = 1; }
static void e_cmp_sparam(float u, float v, float *o) { (void)v; o[0] = u + 10; }
static void e_logic(float u, float v, float *o)
{
    o[0] = bit(u > 0.3f && v < 0.7f, 1) + bit(u < 0.3f || v > 0.7f, 2) + bit(!(u > v), 4);
}
static void e_logic_prec(float u, float v, float *o)
{
    o[0] = bit(u < 0.2f || (u > 0.5f && v > 0.5f), 1) + bit(!(u > 0.5f && v > 0.5f), 2);
}
static void e_tern_nested(float u, float v, float *o) { (void)v; o[0] = u < 0.3f ? 1 : u < 0.6f ? 2 : 3; }
static void e_tern_color(float u, float v, float *o)
{
    if (u > 0.5f)
        set3(o, 1, 0, 0);
    else
        set3(o, 0, v, 1);
}
static void e_tern_uv(float u, float v, float *o) { o[0] = u > v ? 2 : u; }
/* assignment operators */
static void e_asg_f(float u, float v, float *o) { o[0] = ((u + 1) * 3 - v) / 2; }
static void e_asg_c(float u, float v, float *o)
{
    set3(o, (u + 1) * 0.5f / 1, (v + 1) * 0.5f / 2, ((1 + 1) * 0.5f - u) / 4);
}
static void e_asg_v(float u, float v, float *o)
{
    set3(o, (1 * u + (u - 0.5f)) / 2, (2 * u + (v - 0.5f)) / 2, (3 * u + 1 - 1) / 2);
}
static void e_asg_arr(float u, float v, float *o) { set3(o, (1 - 1) / 2.0f, 2 + u, 3 * v); }
static void e_asg_chain(float u, float v, float *o) { set3(o, u + 1, u + 1, v); }
/* casts and constructors */
static void e_cast_color(float u, float v, float *o) { (void)v; set3(o, 1 * 0.5f + u, 0.5f + u, 0.5f + u); }
static void e_cast_triples(float u, float v, float *o) { set3(o, 1 + u, 2 + u, 3 + v); }
static void e_cast_normal(float u, float v, float *o) { set3(o, u, v, 0); }
static void e_hsv_const(float u, float v, float *o)
{
    float r[3], g[3];
    (void)u, (void)v;
    ref_hsv2rgb(0, 1, 1, r);
    ref_hsv2rgb(2.0f / 3, 0.5f, 0.8f, g);
    set3(o, r[0] + g[0], r[1] + g[1], r[2] + g[2]);
}
static void e_hsv_var(float u, float v, float *o) { ref_hsv2rgb(u * 0.9f, 0.5f + 0.5f * v, 1 - 0.25f * v, o); }
static void e_hsl_var(float u, float v, float *o) { ref_hsl2rgb(u * 0.9f, 0.8f, 0.2f + 0.6f * v, o); }
static void e_rgb(float u, float v, float *o) { set3(o, u, v, 1); }
static void e_cur(float u, float v, float *o) { (void)v; set3(o, 1, 2, 3 + u); }
static void e_fpromo(float u, float v, float *o) { (void)v; set3(o, u + 1, u + 1, u + 1); }
/* component access */
static void e_xyz(float u, float v, float *o) { set3(o, u - 0.5f, v - 0.5f, -1); }
static void e_setxyz(float u, float v, float *o) { set3(o, u * 2, 0, v); }
static void e_comp_c(float u, float v, float *o) { set3(o, u + 20, v, 0.5f); }
static void e_comp_vary(float u, float v, float *o) { (void)v; o[0] = 10 * (floorf(u * 2.99f) + 1); }
static void e_setcomp_vary(float u, float v, float *o)
{
    set3(o, 0, 0, 0);
    o[(int)floorf(v * 2.99f)] = u;
}
/* arrays */
static const float A4[4] = { 1, 2, 4, 8 };
static void e_arr_uni(float u, float v, float *o) { (void)u, (void)v; o[0] = A4[0] + A4[3] + A4[1] * 10 + A4[2] * 100; }
static void e_arr_vidx(float u, float v, float *o) { o[0] = A4[(int)floorf(u * 3.5f)] + v; }
static void e_arr_vwrite(float u, float v, float *o) { o[0] = u * A4[(int)floorf(v * 3.5f)]; }
static void e_arr_color(float u, float v, float *o)
{
    set3(o, 0, 0, 0);
    o[(int)floorf(u * 2.5f)] = 1;
    o[1] += v;
}
static void e_arr_loop(float u, float v, float *o) { (void)v; o[0] = (1 + 2 + 4 + 8) * u; }
static void e_arr_point(float u, float v, float *o)
{
    if (u > 0.5f)
        set3(o, 1, 2, 3);
    else
        set3(o, u - 0.5f, v - 0.5f, 1);
}
/* uniform with varying */
static void e_vstr(float u, float v, float *o) { (void)v; o[0] = u > 0.5f ? 1 : 0; }
static void e_uv_f(float u, float v, float *o) { (void)v; o[0] = 3 * u + 3; }
static void e_uv_c(float u, float v, float *o) { set3(o, u + v, 2 * u + v, 3 * u + v); }
static void e_uv_p(float u, float v, float *o) { set3(o, 1 + u, 1 + v, 1); }
static void e_uv_m(float u, float v, float *o)
{
    float d[16];
    (void)v;
    mat_diag(u, d);
    ref_mat_mul(MB, d, o);
}
static void e_uv_param(float u, float v, float *o) { o[0] = 0.5f * u + 5 * v; }
static void e_uv_cond(float u, float v, float *o) { (void)v; o[0] = u > 0.5f ? u : 2; }

#define OUT_F "surface t(output varying float r = 0) "
#define OUT_P "surface t(output varying point q = 0) "
#define OUT_V "surface t(output varying vector w = 0) "
#define OUT_N "surface t(output varying normal n = 0) "
#define OUT_M "surface t(output varying matrix m = 1) "

const RunCase run_ops[] = {
    /* floats */
    { "float + - *", "surface t() { Ci = color(u + v, u - v, u * v); }", "Ci", 3, e_f_addsubmul, 1e-6f },
    { "float /", OUT_F "{ r = (u + 1) / (v + 2); }", "r", 1, e_f_div, 1e-6f },
    { "float unary -", "surface t() { Ci = color(-u, -(u - v), -(-v)); }", "Ci", 3, e_f_neg, 1e-6f },
    { "float precedence", OUT_F "{ r = 1 + u * 2 - v / 4; }", "r", 1, e_f_prec, 1e-6f },
    { "float left associativity", "surface t() { Ci = color(u * 3 / 2, u / 2 / 4, 1 - u - v); }", "Ci", 3,
      e_f_assoc, 1e-6f },
    /* colors */
    { "color + color", "surface t() { Ci = color(u, v, 1) + color(v, 0.5, u); }", "Ci", 3, e_c_add, 1e-6f },
    { "color - color", "surface t() { Ci = color(u, v, 1) - color(v, 0.5, u); }", "Ci", 3, e_c_sub, 1e-6f },
    { "color * color", "surface t() { Ci = color(u, v, 1) * color(v, 0.5, u); }", "Ci", 3, e_c_mul, 1e-6f },
    { "color / color", "surface t() { Ci = color(u, v, 1) / color(2, 4, v + 1); }", "Ci", 3, e_c_div, 1e-6f },
    { "unary - color", "surface t() { Ci = -color(u, v, -1); }", "Ci", 3, e_c_neg, 1e-6f },
    { "float * color and color * float", "surface t() { Ci = u * color(1, 2, 3) + color(v, v, v) * 0.5; }",
      "Ci", 3, e_c_fmul, 1e-6f },
    { "float + color", "surface t() { Ci = 1 + color(u, v, 0); }", "Ci", 3, e_c_fadd, 1e-6f },
    { "float - color and color - float", "surface t() { color c = color(u, v, 1) - 0.25; Ci = 1 - c; }", "Ci", 3,
      e_c_fsub, 1e-6f },
    { "color / float and float / color", "surface t() { Ci = color(u, v, 1) / 4 + 1 / color(1, 2, u + 1); }",
      "Ci", 3, e_c_fdiv, 1e-6f },
    { "global color * varying float", "surface t() { Ci = Cs * u; }", "Ci", 3, e_c_global, 1e-6f },
    /* points, vectors, normals */
    { "point + vector", OUT_P "{ q = P + vector(1, 2, 3); }", "q", 3, e_p_addv, 1e-6f },
    { "point - point is a vector", OUT_V "{ w = P - point(u, v, 0); }", "w", 3, e_p_subp, 1e-6f },
    { "point * point per component", OUT_P "{ q = P * point(2, 3, 4); }", "q", 3, e_p_mul, 1e-6f },
    { "point / point per component", OUT_P "{ q = P / point(2, 4, u + 1); }", "q", 3, e_p_div, 1e-6f },
    { "unary - vector", OUT_V "{ w = -vector(u, v, 1); }", "w", 3, e_v_neg, 1e-6f },
    { "vector - vector, * float", OUT_V "{ w = (vector(u, v, 1) - vector(1, 2, 4)) * 2; }", "w", 3, e_v_ops,
      1e-6f },
    { "normal + normal, * float", OUT_N "{ n = (N + normal(u, v, 0)) * 0.5; }", "n", 3, e_n_ops, 1e-6f },
    { "unary - normal", OUT_N "{ n = -N; }", "n", 3, e_n_neg, 0 },
    { "float * point + float", OUT_P "{ q = 2 * P + 1; }", "q", 3, e_t_fmix, 1e-6f },
    { "point / float", OUT_P "{ q = P / 2; }", "q", 3, e_t_fdiv, 1e-6f },
    { "float - vector", OUT_V "{ w = 1 - vector(u, v, 0); }", "w", 3, e_t_fsub, 1e-6f },
    { "point + normal", OUT_P "{ q = P + N; }", "q", 3, e_t_pn, 1e-6f },
    /* dot and cross */
    { "vector . vector", OUT_F "{ r = vector(u, v, 1) . vector(2, 3, 4); }", "r", 1, e_dot_vv, 1e-5f },
    { "point . normal", OUT_F "{ r = P . normal(1, 1, 1); }", "r", 1, e_dot_pn, 1e-6f },
    { "P . P", OUT_F "{ r = P . P; }", "r", 1, e_dot_pp, 1e-6f },
    { "vector ^ vector", OUT_V "{ w = vector(u, v, 1) ^ vector(1, 2, 3); }", "w", 3, e_cross_vv, 1e-6f },
    { "point ^ normal", OUT_V "{ w = P ^ N; }", "w", 3, e_cross_pn, 1e-6f },
    { "^ anticommutes", OUT_V "{ vector a = vector(u, v, 1), b = vector(v, 2, u); w = (a ^ b) + (b ^ a); }", "w",
      3, e_zero3, 1e-6f },
    { "x ^ y is z", OUT_V "{ w = vector(1, 0, 0) ^ vector(0, 1, 0); }", "w", 3, e_cross_xy, 0 },
    { "a . (a ^ b) is 0, a . a", OUT_F "{ vector a = vector(u, v, 1); r = (a . (a ^ vector(3, u, v))) + (a . a); }",
      "r", 1, e_dotcross, 1e-5f },
    /* matrices */
    { "matrix(1) is the identity", OUT_M "{ m = matrix(1); }", "m", 16, e_m_ident, 0 },
    { "matrix(u)", OUT_M "{ m = matrix(u); }", "m", 16, e_m_diagu, 1e-6f },
    { "matrix of 16 floats", OUT_M "{ m = matrix(u, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, v); }", "m", 16,
      e_m_16, 1e-6f },
    { "matrix * matrix", OUT_M "{ m = " MA_SRC " * " MB_SRC "; }", "m", 16, e_m_mul, 1e-4f },
    { "varying matrix * matrix", OUT_M "{ m = matrix(u,0,0,0, 0,v,0,0, 0,0,1,0, 0,0,0,1) * " MA_SRC "; }", "m",
      16, e_m_mulv, 1e-5f },
    { "matrix / matrix", OUT_M "{ m = " MA_SRC " / " MB_SRC "; }", "m", 16, e_m_div, 1e-4f },
    { "varying matrix / matrix", OUT_M "{ m = matrix(1) / matrix(u + 1); }", "m", 16, e_m_divv, 1e-6f },
    { "matrix / itself", OUT_M "{ matrix b = " MB_SRC "; m = b / b; }", "m", 16, e_m_self, 1e-6f },
    { "float * matrix * float", OUT_M "{ m = 2 * " MA_SRC " * u; }", "m", 16, e_m_fmul, 1e-5f },
    { "matrix / float", OUT_M "{ m = " MA_SRC " / 4; }", "m", 16, e_m_fdiv, 1e-6f },
    { "comp(matrix, row, col)", "surface t() { matrix a = " MA_SRC ", b = matrix(u);"
      " Ci = color(comp(b, 1, 1), comp(a, 2, 1), comp(a, 3, 0) + v); }", "Ci", 3, e_m_comp, 1e-6f },
    /* comparisons and logic */
    { "float < <= > >= == !=", OUT_F "{ r = (u < v ? 1 : 0) + (u <= v ? 2 : 0) + (u > v ? 4 : 0)"
      " + (u >= v ? 8 : 0) + (u == v ? 16 : 0) + (u != v ? 32 : 0); }", "r", 1, e_cmp_f, 0 },
    { "comparisons with constants", OUT_F "{ r = (u < 0.5 ? 1 : 0) + (v <= 1 / 3 ? 2 : 0) + (0.5 > v ? 4 : 0)"
      " + (u >= 1 ? 8 : 0); }", "r", 1, e_cmp_const, 0 },
    { "color == !=", OUT_F "{ r = (color(u, v, 0) == color(v, u, 0) ? 1 : 0)"
      " + (color(u, v, 0) != color(v, u, 0) ? 2 : 0); }", "r", 1, e_cmp_c, 0 },
    { "point vector normal == !=", OUT_F "{ r = (P == point(u - 0.5, -0.5, 1) ? 1 : 0)"
      " + (vector(u, 0, 0) != vector(0, 0, 0) ? 2 : 0) + (N == normal(0, 0, -1) ? 4 : 0); }", "r", 1, e_cmp_p, 0 },
    { "matrix == !=", OUT_F "{ matrix a = matrix(u), b = matrix(1); r = (a == b ? 1 : 0) + (a != b ? 2 : 0); }",
      "r", 1, e_cmp_m, 0 },
    { "string == !=", OUT_F "{ string s = \"abc\"; r = (s == \"abc\" ? 1 : 0) + (s != \"abd\" ? 2 : 0)"
      " + (s == \"ab\" ? 4 : 0) + (s != \"abc\" ? 8 : 0); }", "r", 1, e_cmp_s, 0 },
    { "string from ?: on a uniform condition", OUT_F "{ uniform float k = 1; string s = k > 0 ? \"a\" : \"b\";"
      " r = s == \"a\" ? 1 : 0; }", "r", 1, e_one, 0 },
    { "string parameter ==", "surface t(string mode = \"fast\"; output varying float r = 0)"
      " { if (mode == \"fast\") r = u + 10; else r = -1; }", "r", 1, e_cmp_sparam, 1e-6f },
    { "&& || !", OUT_F "{ r = ((u > 0.3 && v < 0.7) ? 1 : 0) + ((u < 0.3 || v > 0.7) ? 2 : 0)"
      " + (!(u > v) ? 4 : 0); }", "r", 1, e_logic, 0 },
    { "&& binds tighter than ||", OUT_F "{ r = (u < 0.2 || u > 0.5 && v > 0.5 ? 1 : 0)"
      " + (!(u > 0.5 && v > 0.5) ? 2 : 0); }", "r", 1, e_logic_prec, 0 },
    { "nested ?:", OUT_F "{ r = u < 0.3 ? 1 : u < 0.6 ? 2 : 3; }", "r", 1, e_tern_nested, 0 },
    { "?: on colors", "surface t() { Ci = u > 0.5 ? color(1, 0, 0) : color(0, v, 1); }", "Ci", 3, e_tern_color,
      1e-6f },
    { "?: of uniform and varying", OUT_F "{ uniform float k = 2; r = u > v ? k : u; }", "r", 1, e_tern_uv, 1e-6f },
    /* assignment operators */
    { "float += *= -= /=", OUT_F "{ r = u; r += 1; r *= 3; r -= v; r /= 2; }", "r", 1, e_asg_f, 1e-6f },
    { "color += *= -= /=", "surface t() { color c = color(u, v, 1); c += color(1, 1, 1); c *= 0.5;"
      " c -= color(0, 0, u); c /= color(1, 2, 4); Ci = c; }", "Ci", 3, e_asg_c, 1e-6f },
    { "vector *= += -= /=", OUT_V "{ w = vector(1, 2, 3); w *= u; w += P; w -= vector(0, 0, 1); w /= 2; }", "w",
      3, e_asg_v, 1e-6f },
    { "array element op=", "surface t() { float a[3] = {1, 2, 3}; a[1] += u; a[2] *= v; a[0] -= 1; a[0] /= 2;"
      " Ci = color(a[0], a[1], a[2]); }", "Ci", 3, e_asg_arr, 1e-6f },
    { "a = b = expr", "surface t() { float a, b; a = b = u + 1; Ci = color(a, b, v); }", "Ci", 3, e_asg_chain,
      1e-6f },
    /* casts and constructors */
    { "color(1) and color(u)", "surface t() { Ci = color(1) * 0.5 + color(u); }", "Ci", 3, e_cast_color, 1e-6f },
    { "point(1,2,3) + vector(u)", OUT_P "{ q = point(1, 2, 3) + vector(u, u, v); }", "q", 3, e_cast_triples,
      1e-6f },
    { "normal(u, v, 0)", OUT_N "{ n = normal(u, v, 0); }", "n", 3, e_cast_normal, 0 },
    { "color \"hsv\" constants", "surface t() { Ci = color \"hsv\" (0, 1, 1) + color \"hsv\" (2/3, 0.5, 0.8); }",
      "Ci", 3, e_hsv_const, 1e-5f },
    { "color \"hsv\" varying", "surface t() { Ci = color \"hsv\" (u * 0.9, 0.5 + 0.5 * v, 1 - 0.25 * v); }", "Ci",
      3, e_hsv_var, 1e-5f },
    { "color \"hsl\" varying", "surface t() { Ci = color \"hsl\" (u * 0.9, 0.8, 0.2 + 0.6 * v); }", "Ci", 3,
      e_hsl_var, 1e-5f },
    { "color \"rgb\"", "surface t() { Ci = color \"rgb\" (u, v, 1); }", "Ci", 3, e_rgb, 0 },
    { "point \"current\"", OUT_P "{ q = point \"current\" (1, 2, 3 + u); }", "q", 3, e_cur, 1e-6f },
    { "float promoted to point", OUT_P "{ q = u; q += 1; }", "q", 3, e_fpromo, 1e-6f },
    /* component access */
    { "xcomp ycomp zcomp", "surface t() { Ci = color(xcomp(P), ycomp(P), zcomp(N)); }", "Ci", 3, e_xyz, 1e-6f },
    { "comp on a color", "surface t() { color c = color(20, v, 0.5);"
      " Ci = color(comp(c, 0) + u, comp(c, 1), comp(c, 2)); }", "Ci", 3, e_comp_c, 1e-6f },
    { "comp with a varying index", OUT_F "{ r = comp(color(10, 20, 30), floor(u * 2.99)); }", "r", 1,
      e_comp_vary, 0 },
    /* arrays */
    { "uniform array, constant indices", OUT_F "{ float a[4] = {1, 2, 4, 8};"
      " r = a[0] + a[3] + a[1.5] * 10 + a[2.9] * 100; }", "r", 1, e_arr_uni, 0 },
    { "uniform array, varying index", OUT_F "{ float a[4] = {1, 2, 4, 8}; r = a[u * 3.5] + v; }", "r", 1,
      e_arr_vidx, 1e-6f },
    { "write at a varying index", OUT_F "{ float a[4] = {0, 0, 0, 0}; a[v * 3.5] = u;"
      " r = a[0] + 2 * a[1] + 4 * a[2] + 8 * a[3]; }", "r", 1, e_arr_vwrite, 1e-6f },
    { "color array, varying index", "surface t() { color c[3] = {color(1, 0, 0), color(0, 1, 0), color(0, 0, 1)};"
      " Ci = c[u * 2.5] + color(0, v, 0); }", "Ci", 3, e_arr_color, 1e-6f },
    { "array read in a loop", OUT_F "{ float a[4] = {1, 2, 4, 8}, i; r = 0;"
      " for (i = 0; i < 4; i += 1) r += a[i] * u; }", "r", 1, e_arr_loop, 1e-5f },
    { "point array, varying index", OUT_P "{ point p[2]; p[0] = P; p[1] = point(1, 2, 3);"
      " q = p[u > 0.5 ? 1 : 0]; }", "q", 3, e_arr_point, 1e-6f },
    /* uniform with varying */
    { "uniform float with varying", OUT_F "{ uniform float k = 3; varying float x = u; r = k * x + k; }", "r", 1,
      e_uv_f, 1e-6f },
    { "uniform color with varying", "surface t() { uniform color c = color(1, 2, 3); Ci = c * u + v; }", "Ci",
      3, e_uv_c, 1e-6f },
    { "uniform point with varying", OUT_P "{ uniform point o = point(1, 1, 1); q = o + vector(u, v, 0); }", "q",
      3, e_uv_p, 1e-6f },
    { "uniform matrix * varying", OUT_M "{ uniform matrix b = " MB_SRC "; m = b * matrix(u); }", "m", 16,
      e_uv_m, 1e-6f },
    { "uniform parameter with varying", "surface t(float Kd = 0.5; uniform float Ks = 2;"
      " output varying float r = 0) { uniform float k = Ks * Ks + 1; r = Kd * u + k * v; }", "r", 1, e_uv_param,
      1e-6f },
    { "varying from uniform under a varying if", OUT_F "{ uniform float k = 2; r = k; if (u > 0.5) r = u; }",
      "r", 1, e_uv_cond, 1e-6f },
    { "setcomp(matrix, row, col, x)", OUT_M "{ m = matrix(1); setcomp(m, 0, 3, u); setcomp(m, 2, 1, v); }", "m",
      16, e_m_setcomp, 0 },
    { "setxcomp setycomp setzcomp", OUT_P "{ q = P; setxcomp(q, u * 2); setycomp(q, 0); setzcomp(q, v); }", "q",
      3, e_setxyz, 1e-6f },
    { "setcomp on a color", "surface t() { color c = color(20, v, 1); setcomp(c, 2, 0.5);"
      " Ci = color(comp(c, 0) + u, comp(c, 1), comp(c, 2)); }", "Ci", 3, e_comp_c, 1e-6f },
    { "setcomp with a varying index", "surface t() { color c = 0; setcomp(c, floor(v * 2.99), u); Ci = c; }",
      "Ci", 3, e_setcomp_vary, 1e-6f },
    { "varying string ==", OUT_F "{ string s = u > 0.5 ? \"a\" : \"b\"; r = s == \"a\" ? 1 : 0; }", "r", 1,
      e_vstr, 0 },
    { "string assigned under a varying if", OUT_F "{ string s = \"b\"; if (u > 0.5) s = \"a\";"
      " r = s == \"a\" ? 1 : 0; }", "r", 1, e_vstr, 0 },
};
const int run_ops_count = sizeof run_ops / sizeof *run_ops;
