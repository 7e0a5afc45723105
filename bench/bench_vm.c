/*
** bench_vm.c: shading points per second on the bytecode VM and in native
** code (backends/llvm, at W = 4, 8 and 16 as the CPU allows; batches of
** 256, one thread) for each standard shader named on the command line,
** beside hand-written C versions of matte and plastic compiled with the
** benchmark (-O2). Surfaces shade a 512 x 512 grid (vm/grid.h) under the
** test lights of runtime/host.h; each rate is the best of REPS runs.
**
** A second table measures instance specialisation (rslc/specialize.c) at
** the widest ISA: matte and plastic with the parameters a RIB would give
** them, native code compiled generic (the values in the registers, as
** the renderer binds them) against code with them folded in, in the same
** run, with the JIT time of each.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/compile.h"
#include "backends/llvm/native.h"
#include "rslc/diag.h"
#include "vm/grid.h"
#include "runtime/host.h"
#include "vm/session.h"

enum { SIDE = 512, BATCH = VM_MAX_BATCH, REPS = 5, ROUNDS = 5, JIT_REPS = 5 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static VmObject *compile(const char *path)
{
    CppOptions cpp = { 0 };
    RslcCtx rc = { 0 };
    Unit *unit = rslc_front_end(&rc, path, &cpp);
    IrModule *m = unit ? rslc_middle_end(&rc, unit, 2, NULL) : NULL;
    VmObject *o = m ? backend_vm_object(&rc, m, 2, path, false) : NULL;
    ir_module_free(m);
    rslc_ctx_free(&rc);
    return o;
}

/* Stores spec's float values in o's parameters in s, as a renderer
   binds an instance's (spec NULL: none). */
static void bind_spec(const VmObject *o, VmState *s, const IrSpec *spec)
{
    for (int k = 0; spec && k < spec->n; k++) {
        const VmVar *v = vm_find_var(o, spec->p[k].name);
        unsigned slots = vm_type_slots(v->type, v->arraylen);
        for (int l = 0; l < ((v->reg & VM_V) ? s->n : 1); l++)
            vm_var_store(s, v, spec->p[k].f, slots, l);
    }
}

/* Points per second of o over the grid, on the VM or in ns's native
   code, with spec's values bound, best of REPS; 0 with a reason. */
static double rate(VmObject *o, NativeShader *ns, const IrSpec *spec, char *why, size_t whylen)
{
    VmSession ss;
    NativeSession nss = { 0 };
    if (vm_session_open(&ss, o, vm_test_host(), BATCH, why, (int)whylen))
        return 0;
    if (ns && native_session_open(&nss, ns, &ss, vm_test_host(), why, (int)whylen)) {
        vm_session_close(&ss);
        return 0;
    }
    double best = 1e30;
    for (int rep = 0; rep < REPS; rep++) {
        /* Only the VM's run counts: setting up the grid's globals is the
           renderer's work, which the native version does not pay either. */
        double t = 0;
        for (int tile = 0; tile < vm_grid_ntiles(SIDE, SIDE); tile++) {
            VmTile tl = vm_grid_tile(tile, SIDE, SIDE);
            VmState s;
            VmDeriv d;
            vm_session_batch(&ss, &s, tl.tw * tl.th);
            vm_grid_fill(o, &s, &d, tl);
            bind_spec(o, &s, spec);
            char err[256];
            double t0 = now_s();
            int rc = ns ? native_session_run(&nss, &s, err, sizeof err)
                        : vm_run(&ss.prog, &s, err, sizeof err);
            t += now_s() - t0;
            if (rc) {
                snprintf(why, whylen, "%s", err);
                best = 1e30;
                goto out;
            }
        }
        best = t < best ? t : best;
    }
out:
    if (ns)
        native_session_close(&nss);
    vm_session_close(&ss);
    return best < 1e30 ? SIDE * SIDE / best : 0;
}

/* ---- native references ------------------------------------------------------------- */

static float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void normalize3(float *a)
{
    float l = sqrtf(dot3(a, a));
    if (l > 0)
        a[0] /= l, a[1] /= l, a[2] /= l;
}

/* matte (Ka = Kd = 1) or plastic (Ks = Kd = .5, Ka = 1, roughness = .1)
   at one grid point, written as a C programmer would. */
static void native_point(bool plastic, int x, int y, float *Ci)
{
    const VmHost *h = vm_test_host();
    float u = (float)x / (SIDE - 1), v = (float)y / (SIDE - 1);
    float P[3] = { u - 0.5f, v - 0.5f, 1 }, I[3] = { P[0], P[1], P[2] };
    float N[3] = { 0, 0, -1 }, Ng[3] = { 0, 0, -1 }, V[3] = { -I[0], -I[1], -I[2] };
    normalize3(N);
    if (-dot3(I, Ng) < 0)
        N[0] = -N[0], N[1] = -N[1], N[2] = -N[2];
    normalize3(V);
    float amb[3] = { 0 }, dif[3] = { 0 }, spec[3] = { 0 };
    for (int i = 0; i < h->nlights; i++) {
        VmLightSample s;
        if (!h->light(h->user, i, 0, P, &s))
            continue;
        if (s.ambient) {
            for (int k = 0; k < 3; k++)
                amb[k] += s.Cl[k];
            continue;
        }
        float L[3] = { s.L[0], s.L[1], s.L[2] };
        normalize3(L);
        float ln = dot3(L, N);
        if (ln < 0)
            continue;
        float H[3] = { L[0] + V[0], L[1] + V[1], L[2] + V[2] };
        normalize3(H);
        float nh = dot3(N, H), sp = plastic ? powf(nh > 0 ? nh : 0, 10) : 0;
        for (int k = 0; k < 3; k++)
            dif[k] += s.Cl[k] * ln, spec[k] += s.Cl[k] * sp;
    }
    for (int k = 0; k < 3; k++)
        Ci[k] = plastic ? amb[k] + 0.5f * dif[k] + 0.5f * spec[k] : amb[k] + dif[k];
}

static double native_rate(bool plastic)
{
    double best = 1e30;
    volatile float sink = 0;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = now_s();
        for (int y = 0; y < SIDE; y++)
            for (int x = 0; x < SIDE; x++) {
                float Ci[3];
                native_point(plastic, x, y, Ci);
                sink += Ci[0];
            }
        double t = now_s() - t0;
        best = t < best ? t : best;
    }
    (void)sink;
    return SIDE * SIDE / best;
}

/* Native points/s of the shader at path for each ISA (0 where the CPU
   lacks it), and the JIT time of the widest, the best of JIT_REPS
   compiles (the machine is shared); why says why not. */
static void native_rates(const char *path, double *rates, double *jit_ms, char *why, size_t len)
{
    for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_AVX512; isa++) {
        rates[isa] = 0;
        if (isa > (int)native_isa_best())
            continue;
        RslcCtx rc = { 0 };
        FILE *quiet = fopen("/dev/null", "w");
        diag_set_output(&rc, quiet);
        char lacks[160] = "";
        NativeOptions opt = { .level = 2, .isa = (NativeIsa)isa, .lacks = lacks,
                              .lackslen = sizeof lacks };
        VmObject *o = NULL;
        NativeShader *ns = native_compile_file(&rc, path, &opt, &o);
        if (ns) {
            rates[isa] = rate(o, ns, NULL, why, len);
            *jit_ms = native_compile_ms(ns);
            for (int r = 1; r < JIT_REPS && isa == (int)native_isa_best(); r++) {
                VmObject *again = NULL;
                NativeShader *more = native_compile_file(&rc, path, &opt, &again);
                if (more && native_compile_ms(more) < *jit_ms)
                    *jit_ms = native_compile_ms(more);
                native_free(more);
                vm_object_free(again);
            }
        } else {
            snprintf(why, len, "native lacks %s", lacks[0] ? lacks : "a construct");
        }
        native_free(ns);
        vm_object_free(o);
        rslc_ctx_free(&rc);
        fclose(quiet);
    }
}

/* The shader at path compiled to native code at the widest ISA, with
   spec folded in (NULL: generic); NULL with why. */
static NativeShader *spec_compile(const char *path, const IrSpec *spec, VmObject **o, char *why,
                                  size_t len)
{
    RslcCtx rc = { 0 };
    NativeOptions opt = { .level = 2, .isa = native_isa_best() };
    NativeShader *ns = native_compile_file_cpp(&rc, &rc, path, NULL, spec, &opt, NULL, NULL, o);
    if (!ns) {
        snprintf(why, len, "does not compile to native code");
        vm_object_free(*o);
        *o = NULL;
    }
    rslc_ctx_free(&rc);
    return ns;
}

/* The specialisation table for the shaders in dir (that of the first
   argument): matte "Kd" 0.8, plastic "Ks" 0.4 "Kd" 0.6 "roughness" 0.15
   (with the defaults they leave, as the renderer folds them too). */
static void spec_table(const char *first)
{
    static const float one[] = { 1 }, kd8[] = { 0.8f }, ks4[] = { 0.4f }, kd6[] = { 0.6f },
                       r15[] = { 0.15f }, white[] = { 1, 1, 1 };
    static const IrSpecParam matte[] = { { "Ka", IRT_FLOAT, 0, one, NULL },
                                         { "Kd", IRT_FLOAT, 0, kd8, NULL } };
    static const IrSpecParam plastic[] = { { "Ks", IRT_FLOAT, 0, ks4, NULL },
                                           { "Kd", IRT_FLOAT, 0, kd6, NULL },
                                           { "Ka", IRT_FLOAT, 0, one, NULL },
                                           { "roughness", IRT_FLOAT, 0, r15, NULL },
                                           { "specularcolor", IRT_COLOR, 0, white, NULL } };
    static const struct {
        const char *name;
        IrSpec spec;
    } cases[] = { { "matte.sl", { matte, 2 } }, { "plastic.sl", { plastic, 5 } } };
    const char *slash = strrchr(first, '/');
    int dirlen = slash ? (int)(slash - first) + 1 : 0;
    printf("\ninstance specialisation, %s:\n%-16s %12s %12s %7s %8s %8s\n",
           native_isa_name(native_isa_best()), "shader", "generic pt/s", "special pt/s",
           "ratio", "JIT gen", "JIT spec");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[4096], why[256] = "";
        snprintf(path, sizeof path, "%.*s%s", dirlen, first, cases[i].name);
        VmObject *go = NULL, *so = NULL;
        NativeShader *gn = spec_compile(path, NULL, &go, why, sizeof why);
        NativeShader *sn = gn ? spec_compile(path, &cases[i].spec, &so, why, sizeof why) : NULL;
        /* The machine is shared: the two alternate, ROUNDS times each,
           so that both see the same spells of load; the best of each. */
        double g = 0, sp = 0;
        for (int r = 0; sn && r < ROUNDS; r++) {
            double a = rate(go, gn, &cases[i].spec, why, sizeof why);
            double b = rate(so, sn, &cases[i].spec, why, sizeof why);
            g = a > g ? a : g;
            sp = b > sp ? b : sp;
        }
        if (!g || !sp)
            printf("%-16s   (%s)\n", cases[i].name, why);
        else
            printf("%-16s %12.3e %12.3e %7.3f %5.0f ms %5.0f ms\n", cases[i].name, g, sp, sp / g,
                   native_compile_ms(gn), native_compile_ms(sn));
        native_free(gn);
        native_free(sn);
        vm_object_free(go);
        vm_object_free(so);
    }
}

int main(int argc, char **argv)
{
    printf("%-16s %11s %11s %11s %11s %11s %7s %7s %7s\n", "shader", "VM pts/s", "W=4 pts/s",
           "W=8 pts/s", "W=16 pts/s", "C pts/s", "VM/C", "nat/VM", "nat/C");
    for (int i = 1; i < argc; i++) {
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        VmObject *o = compile(argv[i]);
        char why[256] = "does not compile for the VM", nwhy[256] = "";
        double vm = o ? rate(o, NULL, NULL, why, sizeof why) : 0, nat[4], best = 0, jit = 0;
        vm_object_free(o);
        if (!vm) {
            printf("%-16s %11s   (%s)\n", name, "-", why);
            continue;
        }
        native_rates(argv[i], nat, &jit, nwhy, sizeof nwhy);
        printf("%-16s %11.3e", name, vm);
        for (int isa = NATIVE_ISA_SSE42; isa <= NATIVE_ISA_AVX512; isa++) {
            best = nat[isa] > best ? nat[isa] : best;
            if (nat[isa])
                printf(" %11.3e", nat[isa]);
            else
                printf(" %11s", "-");
        }
        bool m = !strcmp(name, "matte.sl"), p = !strcmp(name, "plastic.sl");
        double c = m || p ? native_rate(p) : 0;
        if (c)
            printf(" %11.3e %7.3f", c, vm / c);
        else
            printf(" %11s %7s", "", "");
        if (best)
            printf(" %7.3f", best / vm);
        if (best && c)
            printf(" %7.3f", best / c);
        if (best)
            printf("   JIT %.1f ms", jit);
        else
            printf("   (%s)", nwhy);
        putchar('\n');
    }
    if (argc > 1 && native_isa_best() != NATIVE_ISA_AUTO)
        spec_table(argv[1]);
    return 0;
}
