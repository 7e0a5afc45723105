/*
** check_native_inline.c: the runtime's bitcode inlined into native code
** (backends/llvm/bitcode.c). A shader calling sin, noise, cellnoise,
** pnoise, pow, smoothstep and mix, compiled at -O2 for every ISA the CPU
** runs, calls no runtime entry and no lane helper any more, and its sin
** is one call on W lanes (what LLVM vectorised); rslc --emit=llvm shows
** the same. Then every row of builtins.def that native code takes from
** the bitcode (the math entry, noise, pnoise, cellnoise) is called from a
** shader on a 7 x 3 grid (a partial batch at W = 4, 8, 16) with varying
** arguments in [0.1, 0.9] (noise's scaled to span lattice cells), at
** the widest ISA: each component of each lane must equal the VM's to
** 2 ulp.
*/
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_compile.h"
#include "backends/llvm/native.h"
#include "runtime/builtins.h"
#include "runtime/host.h"
#include "vm/grid.h"
#include "vm/session.h"
#include "runcmd.h"
#include "../common/suite.h"

enum { GW = 7, GH = 3, N = GW * GH };

static const char *const inlined_src =
    "surface t(output varying float r = 0) {"
    " r = sin(u * 6) + noise(P * 4) + cellnoise(P * 3) + pnoise(u * 9, v * 9, 4, 4)"
    " + pow(v + 0.5, u + 1) + smoothstep(0.2, 0.8, u) + mix(u, v, 0.25); }";

/* The module native_compile made, as text. */
static char *module_text(const NativeShader *ns)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    native_print_llvm(ns, f);
    fclose(f);
    return text;
}

/* Whether text calls a runtime entry or the per-lane helper. */
static const char *calls_runtime(const char *text)
{
    static const char names[][24] = { "@rsl_math_lane_at", "@rsl_noise(", "@rsl_cellnoise(",
                                      "@native_rt_call(" };
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (strstr(text, names[i]))
            return names[i];
    return NULL;
}

START_TEST(math_is_inlined)
{
    for (int isa = NATIVE_ISA_SSE42; isa <= (int)native_isa_best(); isa++) {
        RslcCtx ctx = { 0 };
        IrModule *m = NULL;
        VmObject *o = run_compile(&ctx, inlined_src, 2, &m);
        ck_assert_ptr_nonnull(o);
        NativeOptions opt = { .level = 2, .isa = (NativeIsa)isa, .keep_llvm = true };
        NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
        ck_assert_ptr_nonnull(ns);
        char *text = module_text(ns), sin_w[40];
        const char *left = calls_runtime(text);
        ck_assert_msg(left == NULL, "%s: the module still calls %s", native_isa_name((NativeIsa)isa), left);
        snprintf(sin_w, sizeof sin_w, "@llvm.sin.v%df32(", native_isa_width((NativeIsa)isa));
        ck_assert_msg(strstr(text, sin_w) != NULL, "%s: sin is not one call on W lanes (%s)",
                      native_isa_name((NativeIsa)isa), sin_w);
        free(text);
        native_free(ns);
        vm_object_free(o);
        ir_module_free(m);
        rslc_ctx_free(&ctx);
    }
    const char *sl = "/tmp/check_native_inline.sl";
    FILE *f = fopen(sl, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%s\n", inlined_src);
    fclose(f);
    Run ir = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslc", "--emit=llvm -O2 /tmp/check_native_inline.sl");
    ck_assert_int_eq(ir.status, 0);
    ck_assert_str_eq(ir.err, "");
    ck_assert_ptr_nonnull(strstr(ir.out, "define void @shade("));
    ck_assert_ptr_null(calls_runtime(ir.out));
    run_free(&ir);
    unlink(sl);
}
END_TEST

/* ---- every bitcode row against the VM ----------------------------------------- */

static const char row_entry[BO_COUNT][20] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) [BO_##fn##_##row] = #entry,
#include "runtime/builtins.def"
};

static const char row_names[BO_COUNT][24] = {
#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) [BO_##fn##_##row] = #fn "_" #row,
#include "runtime/builtins.def"
};

static bool from_bitcode(int row)
{
    const char *e = row_entry[row];
    return !strcmp(e, "math") || !strcmp(e, "noise") || !strcmp(e, "pnoise") || !strcmp(e, "cellnoise");
}

static const char *letter_type(char letter)
{
    switch (letter) {
    case 'f': return "float";
    case 'c': return "color";
    case 'p': return "point";
    case 'v': return "vector";
    case 'n': return "normal";
    default: return "matrix";
    }
}

static int width(char letter)
{
    return letter == 'f' ? 1 : letter == 'm' ? 16 : 3;
}

/* Component k of argument i: in [0.1, 0.9], varying over the grid, times
   scale. */
static int put_component(char *buf, size_t len, int i, int k, double scale)
{
    double a = 0.7 * (((i * 3 + k) % 5) + 1) / 5.0, b = 0.1 * (((i + 2 * k) % 3) + 1) / 3.0;
    return snprintf(buf, len, "%g * (0.1 + %.6f * u + %.6f * v)", scale, a, b);
}

/* A shader calling row's overload with varying arguments into output r;
   its result's letter in *result. */
static void row_source(int row, char *buf, size_t len, char *result)
{
    BuiltinCode code;
    const char *cur = builtin_rows[row].sig;
    ck_assert(builtin_code_next(&cur, &code));
    *result = code.result;
    const char *e = row_entry[row];
    double scale = !strcmp(e, "math") ? 1 : !strcmp(e, "pnoise") ? 9 : 7;
    int nparams = code.nparams + (code.tail == '.'); /* a repeated last parameter once more */
    int n = snprintf(buf, len, "surface t(output varying %s r = 0) { r = %s(", letter_type(code.result),
                     builtin_fn_names[builtin_rows[row].fn]);
    for (int i = 0; i < nparams; i++) {
        char letter = code.param[i < code.nparams ? i : code.nparams - 1].letter;
        n += snprintf(buf + n, len - (size_t)n, "%s%s(", i ? ", " : "", letter == 'f' ? "" : letter_type(letter));
        /* pnoise's periods: whole, from 2 up, so that they matter */
        bool period = !strcmp(e, "pnoise") && i >= nparams / 2;
        for (int k = 0; k < width(letter); k++) {
            n += snprintf(buf + n, len - (size_t)n, "%s", k ? ", " : "");
            if (period)
                n += snprintf(buf + n, len - (size_t)n, "%d", 2 + (i + k) % 3);
            else
                n += put_component(buf + n, len - (size_t)n, i, k, scale);
        }
        n += snprintf(buf + n, len - (size_t)n, ")");
    }
    snprintf(buf + n, len - (size_t)n, "); }");
}

/* r's ncomp components per lane of o run on the grid, on the VM (ns NULL)
   or natively. */
static void run_grid(VmObject *o, NativeShader *ns, int ncomp, float *out)
{
    VmSession ss;
    NativeSession nss;
    VmState s;
    VmDeriv d;
    char err[256];
    ck_assert_int_eq(vm_session_open(&ss, o, vm_test_host(), N, err, sizeof err), 0);
    vm_session_batch(&ss, &s, N);
    vm_grid_fill(o, &s, &d, vm_grid_tile(0, GW, GH));
    int rc;
    if (ns) {
        ck_assert_int_eq(native_session_open(&nss, ns, &ss, vm_test_host(), err, sizeof err), 0);
        rc = native_session_run(&nss, &s, err, sizeof err);
        native_session_close(&nss);
    } else {
        rc = vm_run(&ss.prog, &s, err, sizeof err);
    }
    ck_assert_msg(rc == 0, "%s", err);
    const VmVar *r = vm_find_var(o, "r");
    for (int l = 0; l < N; l++)
        for (int k = 0; k < ncomp; k++)
            out[l * 16 + k] = vm_var_load(&s, r, (unsigned)k, l);
    vm_session_close(&ss);
}

START_TEST(rows_agree_with_vm)
{
    int rows = 0;
    for (int row = 0; row < BO_COUNT; row++) {
        if (!from_bitcode(row))
            continue;
        char src[4096], result;
        row_source(row, src, sizeof src, &result);
        RslcCtx ctx = { 0 };
        IrModule *m = NULL;
        VmObject *o = run_compile(&ctx, src, 2, &m);
        ck_assert_msg(o != NULL, "%s: does not compile: %s", row_names[row], src);
        int ncomp = width(result);
        float vm[N * 16], nat[N * 16];
        run_grid(o, NULL, ncomp, vm);
        /* The widest ISA: the narrower compile the same bitcode, and JIT
           time is what this test costs. */
        for (int isa = native_isa_best(); isa == (int)native_isa_best(); isa++) {
            NativeOptions opt = { .level = 2, .isa = (NativeIsa)isa };
            NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
            ck_assert_msg(ns != NULL, "%s: no native code for %s", row_names[row],
                          native_isa_name((NativeIsa)isa));
            run_grid(o, ns, ncomp, nat);
            for (int l = 0; l < N; l++)
                for (int k = 0; k < ncomp; k++)
                    ck_assert_msg(run_close_ulp(nat[l * 16 + k], vm[l * 16 + k]),
                                  "%s (%s) lane %d component %d: native %.9g, VM %.9g\n  %s",
                                  row_names[row], native_isa_name((NativeIsa)isa), l, k,
                                  nat[l * 16 + k], vm[l * 16 + k], src);
            native_free(ns);
        }
        vm_object_free(o);
        ir_module_free(m);
        rslc_ctx_free(&ctx);
        rows++;
    }
    printf("  %d rows from the runtime's bitcode agree with the VM\n", rows);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("native inline");
    TCase *tc = tcase_create("runtime bitcode");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, math_is_inlined);
    tcase_add_test(tc, rows_agree_with_vm);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
