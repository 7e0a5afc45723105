/*
** check_run_native.c: the compile-run-verify suite (check_run.h) on
** native code (backends/llvm/native.h). Each case compiles at -O0 and
** -O2; its native code, built for every ISA the CPU runs (W = 4, 8, 16)
** and for one lane (W = 1, the lowering PTX has: backends/llvm/ptx.c),
** must match the expected values on the 4 x 4 grid as the VM must, and
** the VM to 2 ulp. Then a 5 x 3 grid (a partial batch at every width)
** with every third lane not requested and its inputs NaN must give the
** VM's values in the requested lanes.
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

enum { MAXLANES = 16, MAXREASONS = 16 };

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

/* The native run of one case at one level and ISA against the expected
   values and the VM. NULL, or what went wrong (static buffer). */
static const char *check_isa(const RunCase *c, VmObject *o, NativeShader *ns, int level,
                             NativeIsa isa)
{
    static char msg[600];
    char err[400];
    float vm[MAXLANES * 16], nat[MAXLANES * 16];
    const char *isaname = native_isa_name(isa);
    if (run(o, NULL, c, 4, 4, false, vm, err, sizeof err)
        || run(o, ns, c, 4, 4, false, nat, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s (-O%d %s): %s", c->name, level, isaname, err);
        return msg;
    }
    for (int l = 0; l < 16; l++) {
        float u = (float)(l % 4) / 3, v = (float)(l / 4) / 3, want[16];
        c->expect(u, v, want);
        for (int k = 0; k < c->ncomp; k++) {
            float g = nat[l * 16 + k];
            if (!(fabsf(g - want[k]) <= c->tol || (isnan(want[k]) && isnan(g))))
                snprintf(msg, sizeof msg, "%s (-O%d %s) at u=%g v=%g [%d]: got %.9g, want %.9g",
                         c->name, level, isaname, u, v, k, g, want[k]);
            else if (!run_close_ulp(g, vm[l * 16 + k]))
                snprintf(msg, sizeof msg, "%s (-O%d %s) at u=%g v=%g [%d]: native %.9g, VM %.9g",
                         c->name, level, isaname, u, v, k, g, vm[l * 16 + k]);
            else
                continue;
            return msg;
        }
    }
    if (run(o, NULL, c, 5, 3, true, vm, err, sizeof err)
        || run(o, ns, c, 5, 3, true, nat, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s (-O%d %s, 5 x 3 with holes): %s", c->name, level, isaname,
                 err);
        return msg;
    }
    for (int l = 0; l < 15; l++)
        for (int k = 0; l % 3 != 1 && k < c->ncomp; k++)
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
            NativeOptions opt = { level, (NativeIsa)isa, lacks, sizeof lacks };
            NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
            if (!ns) {
                bad = lacks[0] ? NULL : "native compilation failed";
                continue;
            }
            t->jit_ms[isa] += native_compile_ms(ns);
            t->njit[isa]++;
            bad = check_isa(c, o, ns, level, (NativeIsa)isa);
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

int main(void)
{
    Suite *s = suite_create("run_native");
    TCase *tc = tcase_create("compile-run-verify on native code");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, native_cases);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
