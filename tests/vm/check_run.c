/*
** check_run.c: the compile-run-verify suite (format in check_run.h). Each
** case compiles at -O0 and -O2, runs on a 4 x 4 grid, and must match its
** expected values at every point in both; -O2 must not execute more
** instructions than -O0.
*/
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "run_compile.h"
#include "backends/compile.h"
#include "rslc/diag.h"
#include "runtime/builtins.h"
#include "runtime/host.h"
#include "vm/grid.h"
#include "vm/session.h"
#include "../common/suite.h"

enum { W = 4, H = 4 };

static const struct {
    const RunCase *cases;
    const int *count;
    const char *name;
} tables[] = {
    { run_basic, &run_basic_count, "basic" },
    { run_shaders, &run_shaders_count, "shaders" },
    { run_ops, &run_ops_count, "ops" },
    { run_flow, &run_flow_count, "flow" },
    { run_math, &run_math_count, "math" },
    { run_geom, &run_geom_count, "geom" },
    { run_host, &run_host_count, "host" },
    { run_compat, &run_compat_count, "compat" },
};

/* Compiles src at level; NULL (with the diagnostics on stderr) on error. */
static VmObject *compile(const char *src, int level)
{
    RslcCtx ctx = { 0 };
    VmObject *o = run_compile(&ctx, src, level, NULL);
    rslc_ctx_free(&ctx);
    return o;
}

/* Runs o over the grid; out gets the variable's components per point. */
static uint64_t run(VmObject *o, const RunCase *c, float *out)
{
    VmSession ss;
    VmState s;
    char err[512];
    ck_assert_msg(vm_session_open(&ss, o, vm_test_host(), W * H, err, sizeof err) == 0,
                  "%s: %s", c->name, err);
    VmDeriv d;
    vm_session_batch(&ss, &s, W * H);
    vm_grid_fill(o, &s, &d, vm_grid_tile(0, W, H));
    ck_assert_msg(vm_run(&ss.prog, &s, err, sizeof err) == 0, "%s: %s", c->name, err);
    const VmVar *v = vm_find_var(o, c->var);
    ck_assert_msg(v != NULL, "%s: no variable %s", c->name, c->var);
    for (int l = 0; l < W * H; l++)
        for (int k = 0; k < c->ncomp; k++)
            out[l * 16 + k] = vm_var_load(&s, v, (unsigned)k, l);
    vm_session_close(&ss);
    return s.stats.instructions;
}

START_TEST(run_case)
{
    int t = 0, i = _i;
    while (i >= *tables[t].count)
        i -= *tables[t++].count;
    const RunCase *c = &tables[t].cases[i];
    float got[2][W * H * 16];
    uint64_t executed[2];
    for (int pass = 0; pass < 2; pass++) {
        VmObject *o = compile(c->src, pass ? 2 : 0);
        ck_assert_msg(o != NULL, "%s: does not compile at -O%d", c->name, pass ? 2 : 0);
        executed[pass] = run(o, c, got[pass]);
        vm_object_free(o);
    }
    for (int l = 0; l < W * H; l++) {
        float u = (float)(l % W) / (W - 1), v = (float)(l / W) / (H - 1), want[16];
        c->expect(u, v, want);
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < c->ncomp; k++)
                ck_assert_msg(fabsf(got[pass][l * 16 + k] - want[k]) <= c->tol
                                  || (isnan(want[k]) && isnan(got[pass][l * 16 + k])),
                              "%s (-O%d) at u=%g v=%g [%d]: got %.9g, want %.9g", c->name,
                              pass ? 2 : 0, u, v, k, got[pass][l * 16 + k], want[k]);
    }
    ck_assert_msg(executed[1] <= executed[0], "%s: -O2 ran %llu instructions, -O0 %llu",
                  c->name, (unsigned long long)executed[1], (unsigned long long)executed[0]);
}
END_TEST

/* Whether some case's source calls `name`: the name, not part of a
   longer identifier, then '('. */
static bool some_case_calls(const char *name)
{
    size_t n = strlen(name);
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (int i = 0; i < *tables[t].count; i++)
            for (const char *p = tables[t].cases[i].src; (p = strstr(p, name)); p += n) {
                const char *src = tables[t].cases[i].src, *q = p + n;
                bool start = p == src || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
                while (*q == ' ')
                    q++;
                if (start && *q == '(')
                    return true;
            }
    return false;
}

/* Every function of runtime/builtins.def that RSL can call has a case
   calling it, so that no builtin goes unchecked for its value. */
START_TEST(every_builtin_has_a_case)
{
    int missing = 0;
    for (int r = 0; r < BO_COUNT; r++) {
        const BuiltinRow *row = &builtin_rows[r];
        if ((row->flags & BF_INTERNAL) || (r > 0 && builtin_rows[r - 1].fn == row->fn))
            continue;
        if (!some_case_calls(builtin_fn_names[row->fn])) {
            fprintf(stderr, "check_run: no compile-run-verify case calls %s()\n",
                    builtin_fn_names[row->fn]);
            missing++;
        }
    }
    ck_assert_msg(missing == 0, "%d builtins have no compile-run-verify case", missing);
}
END_TEST

int main(void)
{
    int total = 0;
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        total += *tables[t].count;
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("compile-run-verify");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, run_case, 0, total);
    tcase_add_test(tc, every_builtin_has_a_case);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
