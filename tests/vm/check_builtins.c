/*
** check_builtins.c: builtins bound by their rows in runtime/builtins.def
** (with the types a call passes), checked against them, and called
** through the VM's CALLB, against values worked out by hand or from the
** C library's double precision.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtins.h"
#include "vm/builtins.h"
#include "vm/verify.h"
#include "../common/suite.h"

#define V(slot) (VM_V | (slot))
#define OP(op, w, a, b, c) vm_ins(VM_OP_##op, w, a, b, c)

enum { N = 4 };

/* A callee of row with the given result and argument type letters. */
static VmCallee callee(uint32_t row, char result, const char *types)
{
    VmCallee c = { .row = row, .result = result, .nargs = (uint8_t)strlen(types) };
    memcpy(c.type, types, c.nargs);
    return c;
}

START_TEST(binds_known_rows)
{
    const VmCallee c[] = {
        callee(BO_SIN_ff, 'f', "f"), callee(BO_MIX_cccf, 'c', "ccf"),
        callee(BO_NOISE_fp, 'f', "p"), callee(BO_NOISE_cpf, 'c', "pf"),
        callee(BO_PNOISE_fff, 'f', "ff"), callee(BO_PNOISE_fpfpf, 'f', "pfpf"),
        callee(BO_CELLNOISE_ff, 'f', "f"), callee(BO_CTRANSFORM_csc, 'c', "sc"),
        callee(BO_CTRANSFORM_cssc, 'c', "ssc"), callee(BO_CLAMP_ffff, 'f', "fff"),
        callee(BO_LENGTH_fv, 'f', "v"), callee(BO_MAX_fffr, 'f', "ffff"),
        /* diffuse(N) and its implicit P */
        callee(BO_DIFFUSE_cn, 'c', "np"),
        /* fresnel(I, N, eta, Kr, Kt): a tuple of the five arguments */
        callee(BO_FRESNEL_xvvffofo, 'x', "vvfff"),
    };
    enum { NN = sizeof c / sizeof *c };
    VmBuiltin b[NN];
    char err[200];
    ck_assert_msg(vm_bind_builtins(b, c, NN, NULL, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(b[1].base, "mix");
    ck_assert_int_eq(b[1].outn, 3);
    ck_assert_int_eq(b[3].outn, 3);
    ck_assert_int_eq(b[12].nown, 1);              /* P is not diffuse's own */
    ck_assert_int_eq(b[13].retn, 0);              /* void: the arguments start at 0 */
    ck_assert_int_eq(b[13].outn, 3 + 3 + 1 + 1 + 1);
    char name[64];
    vm_callee_name(&c[12], name, sizeof name);
    ck_assert_str_eq(name, "diffuse(n|p)c");
    vm_callee_name(&c[13], name, sizeof name);
    ck_assert_str_eq(name, "fresnel(vvff&f&)x");
}
END_TEST

START_TEST(rejects_unknown_and_misfit)
{
    struct { VmCallee c; const char *why; } bad[] = {
        { callee(BO_COUNT, 'f', "f"), "builtin 'row " },
        { callee(BO_SIN_ff, 'f', "q"), "builtin 'sin(q)f' does not fit its row" },
        { callee(BO_SIN_ff, 'f', "ff"), "builtin 'sin(ff)f' does not fit its row" },
        { callee(BO_PNOISE_fpp, 'f', "fp"), "builtin 'pnoise(fp)f' does not fit its row" },
        { callee(BO_MIX_cccf, 'f', "ccf"), "does not fit its row" },
        { callee(BO_DU_ff, 'f', "f"), "builtin 'Du(f)f' is not available in the VM" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        VmBuiltin b[1];
        char err[200];
        ck_assert_int_eq(vm_bind_builtins(b, &bad[k].c, 1, NULL, NULL, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[k].why) != NULL, "%s", err);
    }
    /* An array where the row wants one, and not elsewhere. */
    VmCallee sp = callee(BO_SPLINE_fffa, 'f', "ff");
    VmBuiltin b[1];
    char err[200];
    ck_assert_int_eq(vm_bind_builtins(b, &sp, 1, NULL, NULL, err, sizeof err), -1);
    sp.arraylen[1] = 4;
    ck_assert_msg(vm_bind_builtins(b, &sp, 1, NULL, NULL, err, sizeof err) == 0, "%s", err);
}
END_TEST

/* Runs one CALLB of builtin 0 with the given argument registers. */
typedef struct Run {
    float U[64], image[64], Vf[64 * N];
    VmBuiltin b[4];
} Run;

static void run(Run *r, const VmCallee *callees, int ncallees, const char *const *strings,
                int nstrings, const VmIns *code, uint32_t ncode)
{
    char err[200];
    VmStrings *table = vm_strings_new(strings, (uint32_t)nstrings);
    ck_assert_msg(vm_bind_builtins(r->b, callees, (uint32_t)ncallees, table, NULL, err,
                                   sizeof err) == 0, "%s", err);
    VmProgram p = { .code = code, .ncode = ncode, .nuniform = 64, .nvarying = 64,
                    .uniform_init = r->image, .strings = strings, .nstrings = (uint32_t)nstrings,
                    .builtins = r->b, .nbuiltins = (uint32_t)ncallees };
    ck_assert_msg(vm_verify(&p, err, sizeof err) == 0, "%s", err);
    VmState s = { .n = N, .U = r->U, .V = r->Vf };
    vm_reset(&p, &s);
    ck_assert_msg(vm_run(&p, &s, err, sizeof err) == 0, "%s", err);
    vm_strings_free(table);
}

START_TEST(sin_per_lane)
{
    Run r = { 0 };
    const VmCallee names[] = { callee(BO_SIN_ff, 'f', "f") };
    const VmIns code[] = { OP(CALLB, 1, V(1), 0, 1), OP(X, 0, V(0), 1, 0), OP(RET, 0, 0, 0, 0) };
    const float x[N] = { 0, 0.5f, -2, 3.14159265f };
    Run *rp = &r;
    memcpy(rp->Vf, x, sizeof x);
    run(rp, names, 1, NULL, 0, code, 3);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq_tol(r.Vf[N + i], (float)sin((double)x[i]), 1e-6f);
}
END_TEST

START_TEST(mix_colors)
{
    Run r = { 0 };
    const VmCallee names[] = { callee(BO_MIX_cccf, 'c', "ccf") };
    /* mix((0,1,2), (4,5,6), 0.25) = (1, 2, 3) */
    const float img[] = { 0, 1, 2, 4, 5, 6, 0.25f };
    memcpy(r.image, img, sizeof img);
    const VmIns code[] = { OP(CALLB, 3, 10, 0, 3), OP(X, 0, 0, 3, 0), OP(X, 0, 3, 3, 0),
                           OP(X, 0, 6, 1, 0), OP(RET, 0, 0, 0, 0) };
    run(&r, names, 1, NULL, 0, code, 5);
    ck_assert_float_eq(r.U[10], 1);
    ck_assert_float_eq(r.U[11], 2);
    ck_assert_float_eq(r.U[12], 3);
}
END_TEST

START_TEST(noise_and_colors)
{
    Run r = { 0 };
    const VmCallee names[] = { callee(BO_NOISE_fp, 'f', "p"), callee(BO_CTRANSFORM_csc, 'c', "sc"),
                               callee(BO_CTRANSFORM_cssc, 'c', "ssc") };
    const char *strings[] = { "hsv", "rgb" };
    float img[16] = { 2, -3, 5, 1, 0, 0 };    /* a lattice point; red */
    uint32_t hsv = 0, rgb = 1;
    memcpy(&img[6], &hsv, 4);
    memcpy(&img[7], &rgb, 4);
    img[8] = 0.5f, img[9] = 1, img[10] = 1;   /* hsv cyan */
    memcpy(r.image, img, sizeof img);
    const VmIns code[] = {
        OP(CALLB, 1, 20, 0, 1), OP(X, 0, 0, 3, 0),                      /* noise = 0.5 */
        OP(CALLB, 3, 21, 1, 2), OP(X, 0, 6, 1, 0), OP(X, 0, 3, 3, 0),   /* rgb red -> hsv */
        OP(CALLB, 3, 24, 2, 3), OP(X, 0, 6, 1, 0), OP(X, 0, 7, 1, 0), OP(X, 0, 8, 3, 0),
        OP(RET, 0, 0, 0, 0),
    };
    run(&r, names, 3, strings, 2, code, 10);
    ck_assert_float_eq(r.U[20], 0.5f);
    ck_assert_float_eq(r.U[21], 0);
    ck_assert_float_eq(r.U[22], 1);
    ck_assert_float_eq(r.U[23], 1);
    ck_assert_float_eq_tol(r.U[24], 0, 1e-6f);  /* hsv cyan -> rgb (0,1,1) */
    ck_assert_float_eq_tol(r.U[25], 1, 1e-6f);
    ck_assert_float_eq_tol(r.U[26], 1, 1e-6f);
}
END_TEST

/* A string's option values, and the option it names, are resolved as it
   enters the table: the program's strings at load, a made one when
   interned. */
START_TEST(string_options_resolved_once)
{
    const char *init[] = { "bezier", "gaussian", "hsv", "b-spline", "swidth", "ray:length",
                           "surface:Ci", "samplepattern", "Swidth" };
    VmStrings *t = vm_strings_new(init, 9);
    ck_assert_int_eq(vm_strings_options(t, 0)->basis, RSL_BASIS_BEZIER);
    ck_assert_int_eq(vm_strings_options(t, 0)->space, RSL_CS_UNKNOWN);
    ck_assert_int_eq(vm_strings_options(t, 1)->filter, RSL_FILTER_GAUSSIAN);
    ck_assert_int_eq(vm_strings_options(t, 2)->space, RSL_CS_HSV);
    ck_assert_int_eq(vm_strings_options(t, 2)->filter, RSL_FILTER_CATMULL_ROM);
    ck_assert_int_eq(vm_strings_options(t, 3)->basis, RSL_BASIS_BSPLINE);
    ck_assert_int_eq(vm_strings_options(t, 3)->option, RSL_OPT_OTHER);
    ck_assert_int_eq(vm_strings_options(t, 4)->option, RSL_OPT_SWIDTH);
    ck_assert_int_eq(vm_strings_options(t, 5)->option, RSL_OPT_RAY_LENGTH);
    ck_assert_int_eq(vm_strings_options(t, 6)->option, RSL_OPT_OUTPUT);
    ck_assert_int_eq(vm_strings_options(t, 7)->option, RSL_OPT_SAMPLEPATTERN);
    ck_assert_int_eq(vm_strings_options(t, 8)->option, RSL_OPT_OTHER);
    uint32_t made = vm_strings_intern(t, "linear");
    ck_assert_int_eq(vm_strings_options(t, made)->basis, RSL_BASIS_LINEAR);
    made = vm_strings_intern(t, "coneangle");
    ck_assert_int_eq(vm_strings_options(t, made)->option, RSL_OPT_CONEANGLE);
    ck_assert_int_eq(vm_strings_options(t, 999)->basis, RSL_BASIS_UNKNOWN);
    ck_assert_int_eq(vm_strings_options(t, 999)->option, RSL_OPT_OTHER);
    vm_strings_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("builtins");
    TCase *tc = tcase_create("builtins");
    tcase_add_test(tc, binds_known_rows);
    tcase_add_test(tc, rejects_unknown_and_misfit);
    tcase_add_test(tc, sin_per_lane);
    tcase_add_test(tc, mix_colors);
    tcase_add_test(tc, noise_and_colors);
    tcase_add_test(tc, string_options_resolved_once);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
