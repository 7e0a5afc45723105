/*
** check_run_native.c: the compile-run-verify suite (check_run.h) on
** native code (backends/llvm/native.h). Each case compiles at -O0 and
** -O2; its native code, built for every ISA the CPU runs (W = 4, 8, 16)
** and for one lane (W = 1, the lowering PTX has: backends/llvm/ptx.c),
** must match the expected values on the 4 x 4 grid as the VM must, and
** the VM to 2 ulp. Then a 5 x 3 grid (a partial batch at every width)
** with every third lane not requested and its inputs NaN must give the
** VM's values in the requested lanes (for a shader that takes
** derivatives, those whose grid neighbours are requested too: the VM
** reads the others' registers, which nothing wrote).
**
** Derivatives get their own cases on a 7 x 5 grid, whose neighbours lie
** in other groups of W lanes and whose last group is partial at every W;
** and a derivative native code leaves to the VM must say why.
**
** A case using what native code lacks is skipped, never passed: the
** counts and the reasons are printed, and only failures fail the suite.
*/
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "run_compile.h"
#include "backends/llvm/native.h"
#include "rslc/diag.h"
#include "runtime/builtins.h"
#include "runtime/host.h"
#include "vm/grid.h"
#include "vm/session.h"
#include "../common/suite.h"

static const struct {
    const RunCase *cases;
    const int *count;
} tables[] = {
    { run_basic, &run_basic_count }, { run_shaders, &run_shaders_count },
    { run_ops, &run_ops_count },     { run_flow, &run_flow_count },
    { run_math, &run_math_count },   { run_geom, &run_geom_count },
    { run_host, &run_host_count },   { run_compat, &run_compat_count },
};

enum { MAXLANES = 35, MAXREASONS = 16 };

typedef struct Tally {
    int pass, skip, fail;
    char reason[MAXREASONS][220];
    int nreason[MAXREASONS];
    int nreasons;
    double jit_ms[NATIVE_ISA_SCALAR + 1];   /* by ISA */
    int njit[NATIVE_ISA_SCALAR + 1];
} Tally;

/* Runs o (natively when ns is set) over a w x h grid; with holes, every
   third lane is not requested and its varying inputs are NaN. out gets
   the variable's components per lane. 0, or -1 with a message. */
static int run(VmObject *o, NativeShader *ns, const RunCase *c, int w, int h, bool holes,
               float *out, char *err, int errlen)
{
    VmSession ss;
    VmState s;
    VmDeriv d;
    int n = w * h, rc = -1;
    uint8_t active[MAXLANES];
    if (vm_session_open(&ss, o, vm_test_host(), n, err, errlen))
        return -1;
    vm_session_batch(&ss, &s, n);
    vm_grid_fill(o, &s, &d, vm_grid_tile(0, w, h));
    if (holes) {
        for (int l = 0; l < n; l++) {
            active[l] = l % 3 != 1;
            for (uint32_t slot = 0; !active[l] && slot < o->prog.nvarying; slot++)
                s.V[slot * (uint32_t)n + (uint32_t)l] = NAN;
        }
        s.active = active;
    }
    NativeSession nss;
    if (!ns) {
        rc = vm_run(&ss.prog, &s, err, errlen);
    } else if (native_session_open(&nss, ns, &ss, vm_test_host(), err, errlen) == 0) {
        rc = native_session_run(&nss, &s, err, errlen);
        native_session_close(&nss);
    }
    const VmVar *v = vm_find_var(o, c->var);
    if (rc == 0 && !v) {
        snprintf(err, (size_t)errlen, "no variable %s", c->var);
        rc = -1;
    }
    for (int l = 0; rc == 0 && l < n; l++)
        for (int k = 0; k < c->ncomp; k++)
            out[l * 16 + k] = vm_var_load(&s, v, (unsigned)k, l);
    vm_session_close(&ss);
    return rc;
}

/* Whether the shader calls Du or Dv (the IR's derivatives). */
static bool takes_derivatives(const IrFunc *fn)
{
    for (const IrBlock *b = fn->entry; b; b = b->next)
        for (const IrIns *i = b->first; i; i = i->next)
            if (i->op == IR_intrin && (builtin_rows[i->imm].fn == BI_DU
                                       || builtin_rows[i->imm].fn == BI_DV))
                return true;
    return false;
}

/* Whether lane l of a w x h grid has a grid neighbour (vm/grid.c's:
   the next point along u and along v, or the previous at the far edge)
   that the holes leave out. */
static bool next_to_hole(int l, int w, int h)
{
    int x = l % w, y = l / w;
    int a = x + 1 < w ? l + 1 : x > 0 ? l - 1 : l, b = y + 1 < h ? l + w : y > 0 ? l - w : l;
    return a % 3 == 1 || b % 3 == 1;
}

/* The native run of one case at one level and ISA on a w x h grid
   against the expected values at each point's (u, v) and the VM. NULL,
   or what went wrong (in msg). */
static const char *check_grid(const RunCase *c, VmObject *o, NativeShader *ns, int level,
                              NativeIsa isa, int w, int h, char *msg, int msglen)
{
    char err[400];
    float vm[MAXLANES * 16], nat[MAXLANES * 16];
    const char *isaname = native_isa_name(isa);
    if (run(o, NULL, c, w, h, false, vm, err, sizeof err)
        || run(o, ns, c, w, h, false, nat, err, sizeof err)) {
        snprintf(msg, (size_t)msglen, "%s (-O%d %s): %s", c->name, level, isaname, err);
        return msg;
    }
    for (int l = 0; l < w * h; l++) {
        float u = (float)(l % w) / (float)(w - 1), v = (float)(l / w) / (float)(h - 1), want[16];
        c->expect(u, v, want);
        for (int k = 0; k < c->ncomp; k++) {
            float g = nat[l * 16 + k];
            if (!(fabsf(g - want[k]) <= c->tol || (isnan(want[k]) && isnan(g))))
                snprintf(msg, (size_t)msglen, "%s (-O%d %s) at u=%g v=%g [%d]: got %.9g, want "
                         "%.9g", c->name, level, isaname, u, v, k, g, want[k]);
            else if (!run_close_ulp(g, vm[l * 16 + k]))
                snprintf(msg, (size_t)msglen, "%s (-O%d %s) at u=%g v=%g [%d]: native %.9g, VM "
                         "%.9g", c->name, level, isaname, u, v, k, g, vm[l * 16 + k]);
            else
                continue;
            return msg;
        }
    }
    return NULL;
}

/* check_grid on the 4 x 4 grid, then the 5 x 3 one with holes against
   the VM. NULL, or what went wrong (static buffer). */
static const char *check_isa(const RunCase *c, VmObject *o, NativeShader *ns, int level,
                             NativeIsa isa, bool derivs)
{
    static char msg[600];
    char err[400];
    float vm[MAXLANES * 16], nat[MAXLANES * 16];
    const char *isaname = native_isa_name(isa);
    if (check_grid(c, o, ns, level, isa, 4, 4, msg, sizeof msg))
        return msg;
    if (run(o, NULL, c, 5, 3, true, vm, err, sizeof err)
        || run(o, ns, c, 5, 3, true, nat, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s (-O%d %s, 5 x 3 with holes): %s", c->name, level, isaname,
                 err);
        return msg;
    }
    for (int l = 0; l < 15; l++)
        for (int k = 0; l % 3 != 1 && !(derivs && next_to_hole(l, 5, 3)) && k < c->ncomp; k++)
            if (!run_close_ulp(nat[l * 16 + k], vm[l * 16 + k])) {
                snprintf(msg, sizeof msg, "%s (-O%d %s, 5 x 3 with holes) lane %d [%d]: native "
                         "%.9g, VM %.9g", c->name, level, isaname, l, k, nat[l * 16 + k],
                         vm[l * 16 + k]);
                return msg;
            }
    return NULL;
}

static void add_reason(Tally *t, const char *why)
{
    int i = 0;
    while (i < t->nreasons && strcmp(t->reason[i], why))
        i++;
    if (i == t->nreasons && t->nreasons < MAXREASONS)
        snprintf(t->reason[t->nreasons++], sizeof t->reason[0], "%s", why);
    if (i < MAXREASONS)
        t->nreason[i]++;
}

/* 0 passed, 1 skipped, -1 failed (reported). */
static int check_case(const RunCase *c, Tally *t, FILE *quiet)
{
    for (int level = 0; level <= 2; level += 2) {
        RslcCtx ctx = { 0 };
        diag_set_output(&ctx, quiet);
        IrModule *m = NULL;
        VmObject *o = run_compile(&ctx, c->src, level, &m);
        const char *bad = o ? NULL : "does not compile for the VM";
        char lacks[160] = "";
        for (int isa = NATIVE_ISA_SSE42; !bad && !lacks[0] && isa <= NATIVE_ISA_SCALAR; isa++) {
            if (isa != NATIVE_ISA_SCALAR && isa > (int)native_isa_best())
                continue;
            NativeOptions opt = { .level = level, .isa = (NativeIsa)isa, .lacks = lacks,
                                  .lackslen = sizeof lacks };
            NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
            if (!ns) {
                bad = lacks[0] ? NULL : "native compilation failed";
                continue;
            }
            t->jit_ms[isa] += native_compile_ms(ns);
            t->njit[isa]++;
            bad = check_isa(c, o, ns, level, (NativeIsa)isa, takes_derivatives(run_shader(m)));
            native_free(ns);
        }
        vm_object_free(o);
        ir_module_free(m);
        rslc_ctx_free(&ctx);
        if (bad) {
            printf("FAIL %s: %s\n", c->name, bad);
            return -1;
        }
        if (lacks[0]) {
            char why[200];
            snprintf(why, sizeof why, "native lacks %s", lacks);
            add_reason(t, why);
            return 1;
        }
    }
    return 0;
}

START_TEST(native_cases)
{
    Tally t = { 0 };
    FILE *quiet = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(quiet);
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        for (int k = 0; k < *tables[i].count; k++) {
            int r = check_case(&tables[i].cases[k], &t, quiet);
            r == 0 ? t.pass++ : r > 0 ? t.skip++ : t.fail++;
        }
    fclose(quiet);
    printf("native compile-run-verify: %d passed, %d skipped, %d failed (of %d; each at -O0 "
           "and -O2, W = 1 and 4, 8, 16 as the CPU allows)\n", t.pass, t.skip, t.fail,
           t.pass + t.skip + t.fail);
    for (int i = 0; i < t.nreasons; i++)
        printf("  skipped: %s: %d\n", t.reason[i], t.nreason[i]);
    for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_SCALAR; isa++)
        if (t.njit[isa])
            printf("  JIT time per shader, %s: %.1f ms mean\n", native_isa_name((NativeIsa)isa),
                   t.jit_ms[isa] / t.njit[isa]);
    ck_assert_int_eq(t.fail, 0);
}
END_TEST

/* ---- derivatives on a 7 x 5 grid ------------------------------------------------ */

/* The grid's steps in u and v. A derivative is the finite difference to
   the next point along u (v), or from the previous one at the far edge
   (u = 1, v = 1): vm/grid.c's neighbours. */
#define DU7 (1.0 / 6)
#define DV5 (1.0 / 4)

static double step_u(float u)
{
    return u < 1 ? DU7 : -DU7;
}

static double step_v(float v)
{
    return v < 1 ? DV5 : -DV5;
}

/* Du(3 u^2) = 3 ((u + h)^2 - u^2) / h = 3 (2 u + h); Dv(sin v) =
   (sin(v + h) - sin v) / h, h the signed step. */
static void e_span(float u, float v, float *o)
{
    double hu = step_u(u), hv = step_v(v);
    o[0] = (float)(3 * (2 * u + hu) + (sin(v + hv) - sin(v)) / hv);
}

/* Dv(4 u v) = 4 u, under a uniform branch that is taken. */
static void e_ubranch(float u, float v, float *o)
{
    (void)v;
    o[0] = 4 * u;
}

/* Du(2 u + v) three times in a uniform loop: 3 * 2. */
static void e_uloop(float u, float v, float *o)
{
    (void)u, (void)v;
    o[0] = 6;
}

/* calculatenormal(P) of P = (u, v, u^2): Du(P) ^ Dv(P) with Du(P) = (1, 0,
   2 u + h) and Dv(P) = (0, 1, 0): (-(2 u + h), 0, 1). */
static void e_span_normal(float u, float v, float *o)
{
    (void)v;
    o[0] = (float)-(2 * u + step_u(u)), o[1] = 0, o[2] = 1;
}

static const RunCase deriv_cases[] = {
    { "slice across groups", R_FLOAT "float a = 3 * u * u; r = Du(a) + Dv(sin(v)); }", "r", 1,
      e_span, 1e-4f },
    { "derivative in a uniform branch",
      "surface t(output varying float r = 0; uniform float k = 1) { if (k > 0) r = Dv(4 * u * v); "
      "else r = -1; }", "r", 1, e_ubranch, 1e-4f },
    { "derivative in a uniform loop",
      R_FLOAT "uniform float i; for (i = 0; i < 3; i += 1) r += Du(2 * u + v); }", "r", 1, e_uloop,
      1e-4f },
    { "calculatenormal across groups", R_NORMAL "r = calculatenormal(point(u, v, u * u)); }", "r",
      3, e_span_normal, 1e-4f },
};

START_TEST(derivatives_across_groups)
{
    const RunCase *c = &deriv_cases[_i];
    char msg[600];
    for (int level = 0; level <= 2; level += 2) {
        RslcCtx ctx = { 0 };
        IrModule *m = NULL;
        VmObject *o = run_compile(&ctx, c->src, level, &m);
        ck_assert_ptr_nonnull(o);
        for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_SCALAR; isa++) {
            if (isa != NATIVE_ISA_SCALAR && isa > (int)native_isa_best()) {
                printf("%s: %s skipped (the CPU lacks it)\n", c->name,
                       native_isa_name((NativeIsa)isa));
                continue;
            }
            NativeOptions opt = { .level = level, .isa = (NativeIsa)isa };
            NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
            ck_assert_msg(ns, "%s: no native code at -O%d", c->name, level);
            const char *bad = check_grid(c, o, ns, level, (NativeIsa)isa, 7, 5, msg, sizeof msg);
            native_free(ns);
            ck_assert_msg(!bad, "%s", bad);
        }
        vm_object_free(o);
        ir_module_free(m);
        rslc_ctx_free(&ctx);
    }
}
END_TEST

/* A derivative of a value only some points compute (the VM has it at
   those only), and of one that changes with a loop's iteration: native
   code leaves the shader to the VM and says why, at the line. */
START_TEST(derivatives_left_to_the_vm)
{
    static const struct {
        const char *src, *why;
    } cases[] = {
        { R_FLOAT "if (u > 0.5) { float a = u * u; r = Du(a); } }",
          "derivatives of a value computed under varying control flow" },
        { R_FLOAT "float a = 0; uniform float i; for (i = 0; i < 3; i += 1) { a += u; "
                  "r += Du(a); } }",
          "derivatives of a value merged from branches or loop iterations" },
    };
    for (int level = 0; level <= 2; level += 2)
        for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
            RslcCtx ctx = { 0 };
            char *text = NULL;
            size_t len = 0;
            FILE *diag = open_memstream(&text, &len);
            diag_set_output(&ctx, diag);
            IrModule *m = NULL;
            VmObject *o = run_compile(&ctx, cases[k].src, level, &m);
            ck_assert_ptr_nonnull(o);
            char lacks[200] = "";
            NativeOptions opt = { .level = level, .isa = NATIVE_ISA_AUTO, .lacks = lacks,
                                  .lackslen = sizeof lacks };
            ck_assert_ptr_null(native_compile(&ctx, run_shader(m), o, &opt));
            fclose(diag);
            ck_assert_str_eq(lacks, cases[k].why);
            ck_assert_msg(strstr(text, ":1:"), "no line in: %s", text);
            free(text);
            vm_object_free(o);
            ir_module_free(m);
            rslc_ctx_free(&ctx);
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run_native");
    TCase *tc = tcase_create("compile-run-verify on native code");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, native_cases);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("derivatives");
    tcase_set_timeout(td, 120);
    tcase_add_loop_test(td, derivatives_across_groups, 0,
                        (int)(sizeof deriv_cases / sizeof *deriv_cases));
    tcase_add_test(td, derivatives_left_to_the_vm);
    suite_add_tcase(s, td);
    return run_suite(s);
}
