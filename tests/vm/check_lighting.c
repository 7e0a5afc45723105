/*
** check_lighting.c: the lighting builtins over groups of lanes
** (runtime/lighting.h) and native code's calls of them (backends/llvm/
** wide.c), with lanes diverging: partial groups, lanes outside the mask
** holding NaN and infinity, and a light that reaches some lanes and not
** others. The host here ("half") has three lights:
**   0: ambient, Cl = (0.2, 0.3, 0.4), everywhere;
**   1: distant, L = (0, 0, -1), Cl = (1, 0.5, 0.25), reaching only the
**      points with P.x > 0;
**   2: distant from behind the surface, L = (0, 0, 1), Cl = (100, 100,
**      100): outside the hemisphere of N = (0, 0, -1), so it adds nothing.
** With N = (0, 0, -1) and V = (0, s, -s), s = sqrt(2)/2, light 1 gives by
** hand: diffuse N . L = 1; specular's half vector bisects L and V, 45
** degrees apart, so N . H = cos(pi/8) and at roughness 4 (exponent
** 8/4 = 2, lighting.c) the weight is cos^2(pi/8) = (2 + sqrt 2) / 4; phong's R = reflect(-V, N) = (0, -s,
** -s), R . L = s, at size 2: 1/2. The host is given with light_rows and
** without (lane by lane): the results must be the same, and with samples
** kept, each light is asked once for ambient, diffuse, specular and
** phong at the same points. Also illuminate's L and cone test over a
** group (rsl_illuminate).
*/
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "run_compile.h"
#include "backends/llvm/native.h"
#include "runtime/lighting.h"
#include "vm/grid.h"
#include "vm/session.h"
#include "../common/suite.h"

static const float cl0[3] = { 0.2f, 0.3f, 0.4f }, cl1[3] = { 1, 0.5f, 0.25f };

typedef struct Asks {
    int rows, lanes;                  /* light_rows calls; light calls */
} Asks;

static bool half_light(void *user, int i, int lane, const float P[3], VmLightSample *out)
{
    (void)lane;
    ((Asks *)user)->lanes++;
    memset(out, 0, sizeof *out);
    for (int k = 0; k < 3; k++) {
        out->Ol[k] = 1;
        out->Cl[k] = i == 0 ? cl0[k] : i == 1 ? cl1[k] : 100;
    }
    out->ambient = i == 0;
    out->L[2] = i == 1 ? -1 : 1;
    return i != 1 || P[0] > 0;
}

static uint32_t half_light_rows(void *user, int i, int base, int W, uint32_t mask, const float *P,
                                float *out, uint32_t *ambient)
{
    Asks *a = user;
    int lanes = a->lanes;
    uint32_t reach = 0;
    *ambient = 0;
    for (int j = 0; j < W; j++) {
        VmLightSample s;
        float p[3] = { P[j], P[W + j], P[2 * W + j] };
        if (!(mask >> j & 1) || !half_light(user, i, base + j, p, &s))
            continue;
        reach |= 1u << j;
        *ambient |= (uint32_t)s.ambient << j;
        for (int k = 0; k < 3; k++)
            out[k * W + j] = s.L[k], out[(3 + k) * W + j] = s.Cl[k], out[(6 + k) * W + j] = s.Ol[k];
    }
    a->lanes = lanes;
    a->rows++;
    return reach;
}

static VmHost half_host(Asks *asks, bool rows)
{
    return (VmHost){ .nlights = 3, .light = half_light, .light_rows = rows ? half_light_rows : NULL,
                     .user = asks };
}

enum { W = 16 };

/* Lanes 0..10 but 3 and 7 take part; P.x = j - 5, so that light 1
   reaches lanes 6.. of them. The rest hold NaN and infinity. */
static const uint32_t mask = 0x7ff & ~(1u << 3 | 1u << 7);

static void fill(float *args, int nrows, const float *lane_row)
{
    for (int j = 0; j < W; j++)
        for (int k = 0; k < nrows; k++)
            args[k * W + j] = mask >> j & 1 ? lane_row[k] : (k % 2 ? INFINITY : NAN);
    for (int j = 0; j < W; j++)
        if (mask >> j & 1)
            args[(nrows - 3) * W + j] = (float)(j - 5); /* P.x */
}

/* Lane j of out (3 rows) is want * [j reached by light 1] + base. */
static void expect(const float *out, float weight, const float *plus, const char *what)
{
    for (int j = 0; j < W; j++)
        for (int k = 0; k < 3; k++) {
            float want = mask >> j & 1 ? (j > 5 ? cl1[k] * weight : 0) + (plus ? plus[k] : 0) : 0;
            ck_assert_msg(fabsf(out[k * W + j] - want) <= 1e-6f, "%s: lane %d [%d]: got %g, want %g",
                          what, j, k, out[k * W + j], want);
        }
}

START_TEST(groups)
{
    const float s = (float)M_SQRT1_2;
    /* N, V, exponent, P (x set per lane). */
    const float lane_row[10] = { 0, 0, -1, 0, s, -s, 0, 0, 0, 1 };
    float args[10 * W], out[3 * W];
    Asks asks = { 0, 0 };
    VmHost host = half_host(&asks, _i);
    RslLights ls;
    ck_assert(rsl_lights_open(&ls, &host, true));
    fill(args, 3, lane_row + 7);
    rsl_shade_lights(&ls, RSL_SHADE_AMBIENT, 0, W, mask, args, out);
    expect(out, 0, cl0, "ambient");
    fill(args, 6, (const float[]){ 0, 0, -1, 0, 0, 1 });
    rsl_shade_lights(&ls, RSL_SHADE_DIFFUSE, 0, W, mask, args, out);
    expect(out, 1, NULL, "diffuse");
    float row[10];
    memcpy(row, lane_row, sizeof row);
    row[6] = 4;
    fill(args, 10, row);
    rsl_shade_lights(&ls, RSL_SHADE_SPECULAR, 0, W, mask, args, out);
    expect(out, (float)((2 + M_SQRT2) / 4), NULL, "specular");
    row[6] = 2;
    fill(args, 10, row);
    rsl_shade_lights(&ls, RSL_SHADE_PHONG, 0, W, mask, args, out);
    expect(out, 0.5f, NULL, "phong");
    /* Each light asked once for the four calls: for the group, or for
       each of its 9 lanes. */
    ck_assert_int_eq(asks.rows, _i ? 3 : 0);
    ck_assert_int_eq(asks.lanes, _i ? 0 : 3 * 9);
    /* A point moved: asked again; another group: asked again. */
    args[9 * W] = 0.25f;
    rsl_shade_lights(&ls, RSL_SHADE_PHONG, 0, W, mask, args, out);
    rsl_shade_lights(&ls, RSL_SHADE_PHONG, W, W, mask, args, out);
    ck_assert_int_eq(asks.rows, _i ? 9 : 0);
    ck_assert_int_eq(asks.lanes, _i ? 0 : 9 * 9);
    rsl_lights_close(&ls);
}
END_TEST

/* illuminance's sample of each light within the hemisphere of N. */
START_TEST(samples)
{
    Asks asks = { 0, 0 };
    VmHost host = half_host(&asks, _i);
    RslLights ls;
    ck_assert(rsl_lights_open(&ls, &host, false));
    float args[7 * W], out[10 * W];
    fill(args, 7, (const float[]){ 0, 0, 1, 0, 0, -1, (float)M_PI / 2 });
    /* fill put P.x in row 4: move it to row 0, P, and the axis N back. */
    for (int j = 0; j < W; j++)
        if (mask >> j & 1)
            args[j] = (float)(j - 5), args[4 * W + j] = 0;
    for (int i = 0; i < 3; i++) {
        rsl_light_sample(&ls, i, 1, 0, W, mask, args, out);
        for (int j = 0; j < W; j++) {
            bool lit = i == 1 && mask >> j & 1 && j > 5;
            ck_assert_float_eq(out[9 * W + j], lit);
            for (int k = 0; k < 3; k++) {
                ck_assert_float_eq(out[k * W + j], lit ? (k == 2 ? -1 : 0) : 0);
                ck_assert_float_eq(out[(3 + k) * W + j], lit ? cl1[k] : 0);
                ck_assert_float_eq(out[(6 + k) * W + j], lit ? 1 : 0);
            }
        }
    }
    rsl_lights_close(&ls);
}
END_TEST

/* illuminate(from, [axis, angle,] Ps) in a light shader over a group:
   from the origin to Ps = (j - 5, 0, 1), so L = Ps; within 60 degrees of
   the axis (1, 0, 0) where (j - 5) / |L| >= cos 60 = 1/2, that is j >= 6
   (j = 5: 90 degrees, j = 6: 45). Without a cone every lane of the mask
   takes part. Cl and Ol are the shader's to set: zero. */
START_TEST(illuminate_group)
{
    bool cone = _i;
    float args[10 * W], out[10 * W];
    if (cone)
        fill(args, 10, (const float[]){ 0, 0, 0, 1, 0, 0, (float)M_PI / 3, 0, 0, 1 });
    else
        fill(args, 6, (const float[]){ 0, 0, 0, 0, 0, 1 });
    rsl_illuminate(cone, W, mask, args, out);
    for (int j = 0; j < W; j++) {
        bool in = mask >> j & 1, on = in && (!cone || j >= 6);
        ck_assert_msg(out[9 * W + j] == on, "cone %d lane %d: takes part %g", cone, j,
                      out[9 * W + j]);
        for (int k = 0; in && k < 3; k++)
            ck_assert_float_eq(out[k * W + j], k == 0 ? (float)(j - 5) : k == 1 ? 0 : 1);
        for (int k = 3; k < 9; k++)
            ck_assert_float_eq(out[k * W + j], 0);
    }
}
END_TEST

/* solar([axis, angle,] Ps) in a light shader over a group: with the axis
   (0.5, -2, 4), L is the axis in every lane of the mask, whatever Ps and
   the angle; without one, L is zero (light from every direction). Every
   lane of the mask takes part, none outside it, and Cl and Ol are the
   shader's to set: zero. */
START_TEST(solar_group)
{
    bool axis = _i;
    float args[7 * W], out[10 * W];
    if (axis)
        fill(args, 7, (const float[]){ 0.5f, -2, 4, 0.25f, 0, 0, 1 });
    else
        fill(args, 3, (const float[]){ 0, 0, 1 });
    rsl_solar(axis, W, mask, args, out);
    const float L[3] = { 0.5f, -2, 4 };
    for (int j = 0; j < W; j++) {
        bool in = mask >> j & 1;
        ck_assert_msg(out[9 * W + j] == in, "axis %d lane %d: takes part %g", axis, j, out[9 * W + j]);
        for (int k = 0; k < 9; k++)
            ck_assert_float_eq(out[k * W + j], in && axis && k < 3 ? L[k] : 0);
    }
}
END_TEST

/* Native code on a 7 x 3 grid (a partial group at every W), every fourth
   point not requested with NaN inputs, the lighting under a varying if
   (v > 0.4: the last two rows) and an illuminance loop summing Cl's red.
   Light 1 reaches u > 0.5 (P.x = u - 0.5). */
enum { GW = 7, GH = 3, N = GW * GH };

static const char shader[] =
    "surface t(output varying color r = 0; output varying float lit = 0) {"
    " if (v > 0.4) {"
    "  r = ambient() + diffuse(N) + specular(N, normalize(vector(0, 1, -1)), 4);"
    "  illuminance(P, N, PI / 2) { lit += comp(Cl, 0); } } }";

START_TEST(native)
{
    bool rows = _i & 1;
    int level = _i & 2;
    for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_SCALAR; isa++) {
        if (isa != NATIVE_ISA_SCALAR && isa > (int)native_isa_best())
            continue;
        RslcCtx ctx = { 0 };
        IrModule *m = NULL;
        VmObject *o = run_compile(&ctx, shader, level, &m);
        ck_assert(o != NULL);
        NativeOptions opt = { .level = level, .isa = (NativeIsa)isa };
        NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
        ck_assert_msg(ns != NULL, "no native code for %s", native_isa_name((NativeIsa)isa));
        Asks asks = { 0, 0 };
        VmHost host = half_host(&asks, rows);
        VmSession ss;
        NativeSession nss;
        VmState s;
        VmDeriv d;
        char err[256];
        uint8_t active[N];
        ck_assert_int_eq(vm_session_open(&ss, o, &host, N, err, sizeof err), 0);
        ck_assert_int_eq(native_session_open(&nss, ns, &ss, &host, err, sizeof err), 0);
        vm_session_batch(&ss, &s, N);
        vm_grid_fill(o, &s, &d, vm_grid_tile(0, GW, GH));
        const VmVar *r = vm_find_var(o, "r"), *lit = vm_find_var(o, "lit");
        for (int l = 0; l < N; l++) {
            active[l] = l % 4 != 3;
            for (uint32_t slot = 0; !active[l] && slot < o->prog.nvarying; slot++)
                s.V[slot * N + (uint32_t)l] = NAN;
            if (!active[l]) {
                vm_var_store(&s, r, (const float[]){ 1234.5f, 1234.5f, 1234.5f }, 3, l);
                vm_var_store(&s, lit, (const float[]){ 1234.5f }, 1, l);
            }
        }
        s.active = active;
        ck_assert_msg(native_session_run(&nss, &s, err, sizeof err) == 0, "%s", err);
        for (int l = 0; l < N; l++) {
            float u = (float)(l % GW) / (GW - 1), v = (float)(l / GW) / (GH - 1);
            bool on = v > 0.4f, reached = on && u > 0.5f;
            for (int k = 0; k < 3; k++) {
                float want = !active[l] ? 1234.5f
                             : (on ? cl0[k] : 0) + (reached ? cl1[k] * (float)(1 + (2 + M_SQRT2) / 4) : 0);
                float got = vm_var_load(&s, r, k, l);
                ck_assert_msg(fabsf(got - want) <= 1e-5f, "%s -O%d rows %d lane %d r[%d]: got %g, want %g",
                              native_isa_name((NativeIsa)isa), level, rows, l, k, got, want);
            }
            float want = !active[l] ? 1234.5f : reached ? cl1[0] : 0;
            ck_assert_float_eq(vm_var_load(&s, lit, 0, l), want);
        }
        native_session_close(&nss);
        vm_session_close(&ss);
        native_free(ns);
        vm_object_free(o);
        ir_module_free(m);
        rslc_ctx_free(&ctx);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lighting");
    TCase *tc = tcase_create("groups");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, groups, 0, 2);
    tcase_add_loop_test(tc, samples, 0, 2);
    tcase_add_loop_test(tc, illuminate_group, 0, 2);
    tcase_add_loop_test(tc, solar_group, 0, 2);
    tcase_add_loop_test(tc, native, 0, 4);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
