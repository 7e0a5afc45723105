/*
** check_native.c: native code (backends/llvm) with lanes diverging in
** every construct: if/else, while and for loops with varying trip counts,
** break and continue (also N levels out), a uniform loop inside varying
** flow, a user function holding a varying loop, an illuminance loop
** entered by some lanes and diverging inside, outputs written by some
** lanes only, and divisions and square roots whose infinities and NaNs
** arise only in lanes that are masked off. Each shader runs on a 7 x 3
** grid (21 points: a partial batch at W = 4, 8 and 16) with every fourth
** point not requested and its inputs NaN, at -O0 and -O2 and every ISA
** the CPU runs and W = 1 (PTX's lowering); the requested points must hold the values computed here
** in C, and the others must be untouched; the same with the compiles
** deferred and finished on other threads. Also the tools: rslc
** --emit=llvm and rslvm --backend native; and a host's rays, asked once
** per group.
*/
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_compile.h"
#include "backends/llvm/native.h"
#include "rslc/diag.h"
#include "runtime/host.h"
#include "vm/grid.h"
#include "vm/session.h"
#include "runcmd.h"
#include "../common/suite.h"

enum { GW = 7, GH = 3, N = GW * GH };

typedef struct Case {
    const char *name, *src;
    float (*expect)(float u, float v);  /* r at (u, v) */
} Case;

#define T "surface t(output varying float r = 0) "

static float e_ifelse(float u, float v)
{
    float a = u < 0.5f ? (v < 0.5f ? 1 : 2) : 3;
    return v > 0.4f ? a + v : a - v;
}

static float e_while(float u, float v)
{
    (void)v;
    float i = 0, a = 0;
    while (i < u * 10) {
        a += i;
        i += 1;
    }
    return a;
}

static float e_for(float u, float v)
{
    (void)u;
    float a = 0;
    for (float i = 0; i < 8; i += 1) {
        if (i > v * 8)
            break;
        if (fmodf(i, 2) == 1)
            continue;
        a += i;
    }
    return a;
}

static float e_break2(float u, float v)
{
    float r = 0;
    for (float i = 0; i < 4; i += 1) {
        for (float j = 0; j < 4; j += 1) {
            if (i + j > u * 5 + v)
                goto out;
            if (j > v * 3)
                goto next;
            r += 1;
        }
        r += 10;
    next:;
    }
out:
    return r;
}

static float e_uniform_in_varying(float u, float v)
{
    (void)v;
    float a = 0;
    if (u > 0.3f)
        for (float i = 0; i < 5; i += 1)
            a += i * u;
    return a;
}

static float sum_upto(float x)
{
    float s = 0;
    for (float i = 0; i < 10 && !(i > x); i += 1)
        s += i;
    return s;
}

static float e_func(float u, float v)
{
    return sum_upto(u * 9) + sum_upto(v * 4);
}

static float e_masked_inf(float u, float v)
{
    float a = u > 0 ? 1 / u : 0;
    float b = v > 0.25f ? sqrtf(v - 0.25f) : -1;
    float c = u > 0.5f ? logf(u - 0.5f) : 7;
    return a + b + c;
}

static float e_some_lanes(float u, float v)
{
    return u < 0.5f ? v + 1 : 0; /* r keeps its default 0 elsewhere */
}

/* The test host's lights (runtime/host.h's vm_test_host): ambient, a
   distant light along -z and a point light at (0, 2, 0) giving red
   0.5 / d^2; both of the last two lie within PI/2 of N = (0, 0, -1). */
static float e_illuminance(float u, float v)
{
    float L[3] = { 0.5f - u, 2.5f - v, -1 }, d2 = L[0] * L[0] + L[1] * L[1] + L[2] * L[2];
    if (u <= 0.3f)
        return 0;
    return v > 0.4f ? 1 + 0.5f / d2 : 2;
}

/* The test host's spaces (runtime/host.h): a world point w is at
   w + (0, 0, 5) in current space, an object point o at 2 o + (0, 0, 5). */
static float e_spaces(float u, float v)
{
    float p[3] = { u, v, 2 };
    if (!(u > 0.5f))
        p[0] = u / 2, p[1] = v / 2, p[2] = 1;
    return p[0] + 10 * p[1] + 100 * p[2] + 1000 * 0.5f;
}

static const Case cases[] = {
    { "illuminance under a varying if, diverging inside", T "{ if (u > 0.3) {"
      " illuminance(P, N, PI / 2) { if (v > 0.4) r += comp(Cl, 0); else r += 1; } } }",
      e_illuminance },
    { "nested varying if/else", T "{ float a; if (u < 0.5) { if (v < 0.5) a = 1; else a = 2; }"
      " else a = 3; if (v > 0.4) r = a + v; else r = a - v; }", e_ifelse },
    { "while with a varying trip count", T "{ float i = 0, a = 0; while (i < u * 10) { a += i;"
      " i += 1; } r = a; }", e_while },
    { "for with varying break and continue", T "{ float i, a = 0; for (i = 0; i < 8; i += 1) {"
      " if (i > v * 8) break; if (mod(i, 2) == 1) continue; a += i; } r = a; }", e_for },
    { "break 2 and continue 2", T "{ float i, j; for (i = 0; i < 4; i += 1) { for (j = 0; j < 4;"
      " j += 1) { if (i + j > u * 5 + v) break 2; if (j > v * 3) continue 2; r += 1; } r += 10;"
      " } }", e_break2 },
    { "uniform loop inside varying if", T "{ float i, a = 0; if (u > 0.3) for (i = 0; i < 5;"
      " i += 1) a += i * u; r = a; }", e_uniform_in_varying },
    { "function holding a varying loop", "float sum_upto(float x) { float s = 0, i;"
      " for (i = 0; i < 10 && !(i > x); i += 1) s += i; return s; }\n"
      T "{ r = sum_upto(u * 9) + sum_upto(v * 4); }", e_func },
    { "infinities and NaN only in masked lanes", T "{ float a = 0, b = -1, c = 7;"
      " if (u > 0) a = 1 / u; if (v > 0.25) b = sqrt(v - 0.25); if (u > 0.5) c = log(u - 0.5);"
      " r = a + b + c; }", e_masked_inf },
    { "output written by some lanes", T "{ if (u < 0.5) r = v + 1; }", e_some_lanes },
    { "transforms to named spaces, per group and per lane", T "{ point q = point(u, v, 7), p;"
      " varying string sp = u > 0.5 ? \"world\" : \"object\"; point ps = transform(sp, q);"
      " if (u > 0.5) p = transform(\"world\", q); else p = transform(\"object\", q);"
      " r = xcomp(ps) + 10 * ycomp(p) + 100 * zcomp(ps)"
      " + 1000 * zcomp(vtransform(\"object\", vector(u, v, 1))); }", e_spaces },
};

/* Runs ns, c's native code (o its object), on the grid with holes under
   host; out gets r per lane. */
static void run_lanes(const Case *c, VmObject *o, NativeShader *ns, const VmHost *host,
                      float *out)
{
    VmSession ss;
    NativeSession nss;
    VmState s;
    VmDeriv d;
    char err[256];
    uint8_t active[N];
    ck_assert_int_eq(vm_session_open(&ss, o, host, N, err, sizeof err), 0);
    ck_assert_int_eq(native_session_open(&nss, ns, &ss, host, err, sizeof err), 0);
    vm_session_batch(&ss, &s, N);
    vm_grid_fill(o, &s, &d, vm_grid_tile(0, GW, GH));
    const VmVar *r = vm_find_var(o, "r");
    for (int l = 0; l < N; l++) {
        active[l] = l % 4 != 3;
        for (uint32_t slot = 0; !active[l] && slot < o->prog.nvarying; slot++)
            s.V[slot * N + (uint32_t)l] = NAN;
        if (!active[l]) /* a marker the run must leave alone */
            vm_var_store(&s, r, (const float[]){ 1234.5f }, 1, l);
    }
    s.active = active;
    ck_assert_msg(native_session_run(&nss, &s, err, sizeof err) == 0, "%s: %s", c->name, err);
    for (int l = 0; l < N; l++)
        out[l] = vm_var_load(&s, r, 0, l);
    native_session_close(&nss);
    vm_session_close(&ss);
}

/* Runs c natively on the grid with holes under host; out gets r per
   lane. */
static void run_case(const Case *c, int level, NativeIsa isa, const VmHost *host, float *out)
{
    RslcCtx ctx = { 0 };
    IrModule *m = NULL;
    VmObject *o = run_compile(&ctx, c->src, level, &m);
    ck_assert_msg(o != NULL, "%s: does not compile", c->name);
    NativeOptions opt = { .level = level, .isa = isa };
    NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
    ck_assert_msg(ns != NULL, "%s: no native code at -O%d for %s", c->name, level,
                  native_isa_name(isa));
    run_lanes(c, o, ns, host, out);
    native_free(ns);
    vm_object_free(o);
    ir_module_free(m);
    rslc_ctx_free(&ctx);
}

/* The requested lanes of got hold c's values, the others the marker. */
static void check_lanes(const Case *c, const float *got, const char *how)
{
    for (int l = 0; l < N; l++) {
        float u = (float)(l % GW) / (GW - 1), v = (float)(l / GW) / (GH - 1);
        float want = l % 4 == 3 ? 1234.5f : c->expect(u, v);
        ck_assert_msg(fabsf(got[l] - want) <= 1e-5f * fmaxf(1, fabsf(want)),
                      "%s (%s) lane %d (u=%g v=%g): got %.9g, want %.9g", c->name, how, l, u, v,
                      got[l], want);
    }
}

START_TEST(diverging)
{
    const Case *c = &cases[_i];
    for (int level = 0; level <= 2; level += 2)
        for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_SCALAR; isa++) {
            if (isa != NATIVE_ISA_SCALAR && isa > (int)native_isa_best())
                continue;
            float got[N];
            char how[64];
            run_case(c, level, (NativeIsa)isa, vm_test_host(), got);
            snprintf(how, sizeof how, "-O%d %s", level, native_isa_name((NativeIsa)isa));
            check_lanes(c, got, how);
        }
}
END_TEST

enum { NCASES = sizeof cases / sizeof *cases };

/* Finishes the deferred compiles of every other case (data: the
   shaders), from the first; how many failed, as a pointer (the check
   library asserts on the test's own thread only). */
static void *finish_alternate(void *data)
{
    NativeShader **ns = data;
    intptr_t failed = 0;
    for (int i = 0; i < NCASES; i += 2)
        failed += !native_finish(ns[i]);
    return (void *)failed;
}

/* Deferred compiles (a renderer's) finish on any thread: two threads
   race to finish the same half of the cases (one compiles each, the
   other waits for it), and native_session_open finishes the other half;
   every case then computes what it does compiled at once. */
START_TEST(deferred_compiles_finish_on_any_thread)
{
    RslcCtx ctx[NCASES];
    IrModule *m[NCASES];
    VmObject *o[NCASES];
    NativeShader *ns[NCASES];
    for (int i = 0; i < NCASES; i++) {
        ctx[i] = (RslcCtx){ 0 };
        o[i] = run_compile(&ctx[i], cases[i].src, 2, &m[i]);
        ck_assert_msg(o[i] != NULL, "%s: does not compile", cases[i].name);
        NativeOptions opt = { .level = 2, .isa = NATIVE_ISA_AUTO, .defer = true };
        ns[i] = native_compile(&ctx[i], run_shader(m[i]), o[i], &opt);
        ck_assert_msg(ns[i] != NULL, "%s: not lowered", cases[i].name);
        /* Its IR goes now: what compiling needs was lowered already. */
        ir_module_free(m[i]);
    }
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_create(&t[k], NULL, finish_alternate, ns), 0);
    for (int k = 0; k < 2; k++) {
        void *failed;
        pthread_join(t[k], &failed);
        ck_assert_ptr_null(failed);
    }
    for (int i = 0; i < NCASES; i++) {
        float got[N];
        run_lanes(&cases[i], o[i], ns[i], vm_test_host(), got);
        check_lanes(&cases[i], got, i % 2 ? "deferred, finished by its session"
                                          : "deferred, finished by racing threads");
        ck_assert_ptr_null(native_error(ns[i]));
        native_free(ns[i]);
        vm_object_free(o[i]);
        rslc_ctx_free(&ctx[i]);
    }
}
END_TEST

/* rslc --emit=llvm prints a module with the entry; rslvm --backend native
   prints what the VM prints. */
START_TEST(tools)
{
    const char *sl = "/tmp/check_native_tool.sl";
    write_in("/tmp", strrchr(sl, '/') + 1, T "{ float i = 0; while (i < u * 4) i += 1; r = i + v; }\n");
    Run ir = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslc", "--emit=llvm -O2 /tmp/check_native_tool.sl");
    ck_assert_int_eq(ir.status, 0);
    ck_assert_ptr_nonnull(strstr(ir.out, "define void @shade("));
    const char *args = "/tmp/check_native_tool.sl --shade t --grid 5 3 --print r";
    Run vm = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", args);
    char nargs[200];
    snprintf(nargs, sizeof nargs, "%s --backend native", args);
    Run nat = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", nargs);
    /* u = 1 at x = 4: the loop runs 4 times; v = 1 at y = 2. */
    ck_assert_ptr_nonnull(strstr(vm.out, "4 2: 5"));
    ck_assert_str_eq(vm.out, nat.out);
    Run bad = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm",
                          "/tmp/check_native_tool.sl --shade t --grid 5 3 --backend native --isa mmx");
    ck_assert_int_ne(bad.status, 0);
    ck_assert_ptr_nonnull(strstr(bad.err, "unknown ISA 'mmx'"));
    run_free(&ir);
    run_free(&vm);
    run_free(&nat);
    run_free(&bad);
    unlink(sl);
}
END_TEST

/* rslvm --backend native takes derivatives as the VM does (7 x 5: the
   neighbours in other groups), and runs a shader whose derivative native
   code leaves to the VM on the VM, with a note saying why and where. */
START_TEST(tools_derivatives)
{
    static const struct {
        const char *src, *note;
    } shaders[] = {
        { T "{ r = Du(u * u) + Dv(sin(v * 3)); }\n", NULL },
        { T "{ if (u > 0.5) { float a = u * u; r = Du(a); } }\n",
          "rslvm: note: shader \"t\" runs on the VM: native code lacks derivatives of a value "
          "computed under varying control flow (/tmp/check_native_deriv.sl:1:" },
    };
    const char *sl = "/tmp/check_native_deriv.sl";
    for (size_t k = 0; k < sizeof shaders / sizeof *shaders; k++) {
        write_in("/tmp", strrchr(sl, '/') + 1, shaders[k].src);
        const char *args = "/tmp/check_native_deriv.sl --shade t --grid 7 5 --print r";
        char nargs[200];
        snprintf(nargs, sizeof nargs, "%s --backend native", args);
        Run vm = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", args);
        Run nat = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", nargs);
        ck_assert_int_eq(nat.status, 0);
        ck_assert_str_eq(vm.out, nat.out);
        if (shaders[k].note)
            ck_assert_msg(strncmp(nat.err, shaders[k].note, strlen(shaders[k].note)) == 0, "%s",
                          nat.err);
        else
            ck_assert_str_eq(nat.err, "");
        run_free(&vm);
        run_free(&nat);
    }
    unlink(sl);
}
END_TEST

/* The step budget stops a runaway loop in native code too, at the loop's
   line, with the VM's message (native code counts loop iterations):
   a uniform loop (plain code) and a varying one (masked code). */
START_TEST(runaway_loop_stopped)
{
    const char *sl = "/tmp/check_native_loop.sl";
    static const char first[2][16] = { "1", "x < 0" }; /* the first loop runs away, or never runs */
    for (int level = 0; level <= 2; level += 2)
        for (int varying = 0; varying < 2; varying++) {
            FILE *f = fopen(sl, "w");
            ck_assert_ptr_nonnull(f);
            fprintf(f, "surface loop()\n{\n    float x = 0;\n    while (%s) {\n        x += 1;\n    }\n"
                    "    while (u >= 0) {\n        x += 1;\n    }\n    Ci = x;\n}\n", first[varying]);
            fclose(f);
            char args[300], want[300];
            snprintf(args, sizeof args, "%s --shade loop --grid 4 4 -O%d --backend native "
                     "--max-shader-steps 10000", sl, level);
            snprintf(want, sizeof want, "rslvm: error: shader 'loop' ran past 10000 steps at %s:%d\n",
                     sl, varying ? 7 : 4);
            Run r = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", args);
            ck_assert_int_eq(r.status, 1);
            ck_assert_str_eq(r.err, want);
            ck_assert_str_eq(r.out, "");
            run_free(&r);
        }
    unlink(sl);
}
END_TEST

/* A builtin's warning or fault in native code is reported at its call's
   own line, as on the VM: two calls that warn (printf and format with a
   conversion left over, lines 3 and 4), then one that faults (an
   unknown coordinate system, line 6), at -O0 and -O2 on both back ends. */
START_TEST(builtin_messages_at_their_lines)
{
    const char *sl = "/tmp/check_native_warn.sl";
    write_in("/tmp", strrchr(sl, '/') + 1, "surface warns(float x = 2; string space = \"current\")\n{\n"
          "    printf(\"%.0f %d\\n\", x + s);\n"
          "    string t = format(\"%s-%c\", \"a\");\n"
          "    printf(\"%s\\n\", t);\n"
          "    Ci = color transform(space, P);\n}\n");
    char want[3][200];
    snprintf(want[0], sizeof want[0], "%s:3: warning: printf(): 1 conversion in \"%%.0f %%d...\" "
             "without an argument, printed as written\n", sl);
    snprintf(want[1], sizeof want[1], "%s:4: warning: format(): 1 conversion in \"%%s-%%c\" "
             "without an argument, printed as written\n", sl);
    snprintf(want[2], sizeof want[2], "%s:6: error: transform(): unknown coordinate "
             "system 'nowhere'\n", sl);
    for (int level = 0; level <= 2; level += 2)
        for (int native = 0; native < 2; native++) {
            char args[300];
            snprintf(args, sizeof args, "%s --shade warns --grid 4 4 -O%d%s", sl, level,
                     native ? " --backend native" : "");
            Run r = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", args);
            ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
            ck_assert_msg(strstr(r.err, want[0]) && strstr(r.err, want[1]), "%s: %s", args, r.err);
            ck_assert_uint_eq(strlen(r.err), strlen(want[0]) + strlen(want[1]));
            run_free(&r);
            char bad[340];
            snprintf(bad, sizeof bad, "%s --set space=nowhere", args);
            r = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", bad);
            ck_assert_int_eq(r.status, 1);
            ck_assert_msg(strstr(r.err, want[2]), "%s: %s", bad, r.err);
            run_free(&r);
        }
    unlink(sl);
}
END_TEST

/* An array index out of bounds warns in native code as on the VM, once
   per line with the first point's index, and reads or writes the clamped
   end: a varying index into a local array (line 5, u * 8 - 2 = -2 at the
   first point, 6 at the last), a uniform one into a parameter (line 6),
   and a write (line 7). By hand, with x = b[j], y = a[2] = 3 and the end
   written 7: r = x + 100 y + 1000 b[0] + 10000 b[3], so 10 + 300 + 7000 +
   400000 where j <= 0 and 40 + 300 + 10000 + 70000 where j >= 3. */
START_TEST(index_out_of_bounds)
{
    const char *sl = "/tmp/check_native_index.sl";
    write_in("/tmp", strrchr(sl, '/') + 1, "surface idx(float k = 5; float a[3] = {1, 2, 3}; output varying float r = 0)\n{\n"
          "    float b[4] = {10, 20, 30, 40}, j = u * 8 - 2;\n"
          "    float x = 0;\n"
          "    x = b[j];\n"
          "    float y = a[k];\n"
          "    b[j] = 7;\n"
          "    r = x + y * 100 + b[0] * 1000 + b[3] * 10000;\n}\n");
    char want[400];
    snprintf(want, sizeof want, "%s:5: warning: index -2 out of bounds for array of length 4\n"
             "%s:6: warning: index 5 out of bounds for array 'a' of length 3\n"
             "%s:7: warning: index -2 out of bounds for array of length 4\n", sl, sl, sl);
    static const char *const backends[] = { "", " --backend native", " --backend native --isa scalar" };
    for (int level = 0; level <= 2; level += 2)
        for (size_t k = 0; k < sizeof backends / sizeof *backends; k++) {
            char args[300];
            snprintf(args, sizeof args, "%s --shade idx --grid 4 1 --print r -O%d%s", sl, level,
                     backends[k]);
            Run r = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", args);
            ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
            ck_assert_str_eq(r.err, want);
            ck_assert_str_eq(r.out, "0 0: 407310\n1 0: 407310\n2 0: 80340\n3 0: 80340\n");
            run_free(&r);
        }
    unlink(sl);
}
END_TEST

/* The queries a host's rays got: how many calls, and per lane of the
   grid the call (its number) that had it. */
typedef struct RaysSeen {
    int calls, call_of[N];
} RaysSeen;

/* Each query's answer is Q - P's x + 2 y (u + 2 v for the shader below),
   never the test host's ray's 1, so that a lane asked one by one shows. */
static int record_rays(void *user, const VmRay *q, int n, float (*out)[3], char *err, int errlen)
{
    (void)err, (void)errlen;
    RaysSeen *seen = user;
    seen->calls++;
    for (int k = 0; k < n; k++) {
        seen->call_of[q[k].lane] = seen->calls;
        out[k][0] = out[k][1] = out[k][2] = q[k].Q[0] - q[k].P[0] + 2 * (q[k].Q[1] - q[k].P[1]);
    }
    return 0;
}

/* A varying transmission() under a varying if asks a host with rays
   once per group of W lanes, with the lanes that run the call (those
   with u > 0.3, requested: the grid of the cases above), and the answers
   go to their lanes; at W = 1 (PTX's lowering on the CPU) once per lane. */
START_TEST(ray_queries_per_group)
{
    static const Case c = { "transmission", T "{ if (u > 0.3) r = comp(transmission(P, P +"
                            " vector(u, v, 1)), 0); }", NULL };
    for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_SCALAR; isa++) {
        if (isa != NATIVE_ISA_SCALAR && isa > (int)native_isa_best())
            continue;
        RaysSeen seen = { 0 };
        VmHost host = *vm_test_host();
        host.rays = record_rays, host.user = &seen;
        float got[N];
        run_case(&c, 2, (NativeIsa)isa, &host, got);
        int W = native_isa_width((NativeIsa)isa), groups = 0, last = -1;
        for (int l = 0; l < N; l++) {
            float u = (float)(l % GW) / (GW - 1), v = (float)(l / GW) / (GH - 1);
            bool runs = l % 4 != 3 && u > 0.3f;
            float want = l % 4 == 3 ? 1234.5f : runs ? u + 2 * v : 0;
            ck_assert_msg(fabsf(got[l] - want) <= 1e-5f, "%s lane %d: got %g, want %g",
                          native_isa_name((NativeIsa)isa), l, got[l], want);
            if (!runs) {
                ck_assert_int_eq(seen.call_of[l], 0);
                continue;
            }
            if (l / W != last) /* the first lane of a group that calls */
                groups++, last = l / W;
            ck_assert_int_eq(seen.call_of[l], groups);
        }
        ck_assert_int_eq(seen.calls, groups);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("native");
    TCase *tc = tcase_create("lanes diverging");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, diverging, 0, (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, deferred_compiles_finish_on_any_thread);
    tcase_add_test(tc, tools);
    tcase_add_test(tc, tools_derivatives);
    tcase_add_test(tc, runaway_loop_stopped);
    tcase_add_test(tc, builtin_messages_at_their_lines);
    tcase_add_test(tc, index_out_of_bounds);
    tcase_add_test(tc, ray_queries_per_group);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
