/*
** check_builtins.c: builtins bound by their signature names and called
** through the VM's CALLB, against values worked out by hand or from the
** C library's double precision.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vm/builtins.h"
#include "vm/verify.h"
#include "../common/suite.h"

#define V(slot) (VM_V | (slot))
#define OP(op, w, a, b, c) vm_ins(VM_OP_##op, w, a, b, c)

enum { N = 4 };

START_TEST(binds_known_names)
{
    static const char *names[] = { "sin(f)f", "mix(ccf)c", "noise(p)f", "noise(pf)c",
                                   "pnoise(ff)f", "pnoise(pfpf)f", "cellnoise(f)f",
                                   "ctransform(sc)c", "ctransform(ssc)c", "clamp(fff)f",
                                   "length(v)f", "max(ffff)f" };
    enum { NN = sizeof names / sizeof *names };
    VmBuiltin b[NN];
    char err[200];
    ck_assert_msg(vm_bind_builtins(b, names, NN, NULL, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(b[1].base, "mix");
    ck_assert_int_eq(b[1].outn, 3);
    ck_assert_int_eq(b[3].outn, 3);
}
END_TEST

START_TEST(rejects_unknown_and_malformed)
{
    const char *bad[][2] = {
        { "frobnicate(f)f", "builtin 'frobnicate(f)f' is not available in the VM runtime" },
        { "sin(f", "malformed builtin name 'sin(f'" },
        { "sin(q)f", "malformed builtin name 'sin(q)f'" },
        { "pnoise(fp)f", "builtin 'pnoise(fp)f' is not available" },
        { "spline(f[0])f", "malformed builtin name" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        VmBuiltin b[1];
        char err[200];
        const char *names[1] = { bad[k][0] };
        ck_assert_int_eq(vm_bind_builtins(b, names, 1, NULL, NULL, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[k][1]) != NULL, "%s", err);
    }
}
END_TEST

/* Runs one CALLB of builtin 0 with the given argument registers. */
typedef struct Run {
    float U[64], image[64], Vf[64 * N];
    VmBuiltin b[4];
} Run;

static void run(Run *r, const char *const *names, int nnames, const char *const *strings,
                int nstrings, const VmIns *code, uint32_t ncode)
{
    char err[200];
    VmStrings *table = vm_strings_new(strings, (uint32_t)nstrings);
    ck_assert_msg(vm_bind_builtins(r->b, names, (uint32_t)nnames, table, NULL, err,
                                   sizeof err) == 0, "%s", err);
    VmProgram p = { .code = code, .ncode = ncode, .nuniform = 64, .nvarying = 64,
                    .uniform_init = r->image, .strings = strings, .nstrings = (uint32_t)nstrings,
                    .builtins = r->b, .nbuiltins = (uint32_t)nnames };
    ck_assert_msg(vm_verify(&p, err, sizeof err) == 0, "%s", err);
    VmState s = { .n = N, .U = r->U, .V = r->Vf };
    vm_reset(&p, &s);
    ck_assert_msg(vm_run(&p, &s, err, sizeof err) == 0, "%s", err);
    vm_strings_free(table);
}

START_TEST(sin_per_lane)
{
    Run r = { 0 };
    const char *names[] = { "sin(f)f" };
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
    const char *names[] = { "mix(ccf)c" };
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
    const char *names[] = { "noise(p)f", "ctransform(sc)c", "ctransform(ssc)c" };
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

int main(void)
{
    Suite *s = suite_create("builtins");
    TCase *tc = tcase_create("builtins");
    tcase_add_test(tc, binds_known_names);
    tcase_add_test(tc, rejects_unknown_and_malformed);
    tcase_add_test(tc, sin_per_lane);
    tcase_add_test(tc, mix_colors);
    tcase_add_test(tc, noise_and_colors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
