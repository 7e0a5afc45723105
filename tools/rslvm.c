/*
** rslvm.c: runs compiled shaders on the VM without a renderer, for tests
** and scripting.
**
**   rslvm FILE.o|FILE.sl --shade NAME --grid W H [--set VAR=VALUE]...
**         [--print VAR]... [--stats] [-O0|-O1|-O2] [--max-shader-steps N]
**
** The grid's points are shaded in batches of up to VM_MAX_BATCH lanes,
** tiles of the grid (vm/grid.h) so that derivatives see neighbours.
** Globals start as a unit square facing the camera (vm/grid.h);
** --set overrides a parameter or global (a float "1.5", a triple "1,2,3",
** a matrix of 16 comma-separated floats, or a string). --print writes one
** line per point: "x y: value...", each float with %.9g.
**
** --backend native runs the grid in native code (backends/llvm/native.h)
** instead, compiled from a .sl for --isa (default: the widest the CPU
** runs); objects carry no native code yet. A shader using what native
** code lacks (gather, a derivative of a value only some points compute)
** runs on the VM, with a note naming why and where, as rtrender does.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/llvm/native.h"
#include "rslc/diag.h"
#include "runtime/host.h"
#include "runtime/outfile.h"
#include "vm/grid.h"
#include "vm/object.h"
#include "vm/session.h"
#include "tools/toolopts.h"

static const char usage[] =
    "usage: rslvm FILE.o|FILE.sl --shade NAME --grid W H [options]\n"
    "       rslvm FILE.sl --call NAME [ARG...] [-O0|-O1|-O2]\n"
    "\n"
    "Runs a compiled shader over a W x H grid of shading points, or calls a\n"
    "function once and prints its result (then its output arguments) on one\n"
    "line. An ARG is a float 1.5, a triple 1,2,3, 16 floats, or a string.\n"
    "\n"
    "options:\n"
    "  --grid W H       the grid's size, 1 to 65536 a side\n"
    "  --set VAR=VALUE  set a parameter or global: 1.5 | 1,2,3 | 16 floats | text\n"
    "  --print VAR      print VAR at every point (repeatable)\n"
    "  --stats          print instructions executed, modelled cycles, register file\n"
    "                   (native: the ISA and the JIT time)\n"
    "  --backend vm|native  run on the VM (default) or in native code (.sl only)\n"
    "  --isa NAME       native ISA: sse4.2, avx2, avx512, auto (default) or scalar\n"
    "                   (one point at a time, as PTX runs on a GPU)\n"
    "  --code-cache DIR  keep native code in folder DIR (made if missing) and load\n"
    "                   it from there rather than compile it again\n"
    "  -O0 -O1 -O2      optimisation level when compiling a .sl (default -O2)\n"
    TOOL_STEPS_HELP("                   ")
    "                   (native: N loop iterations rather than instructions)\n"
    "  --help           print this help\n";

typedef struct Run {
    ToolRun t;                  /* the options rsldb shares (toolopts.h) */
    const char **prints;
    int nprints;
    bool stats;
    bool native;
    NativeIsa isa;
    const char *code_cache;     /* NULL: none */
} Run;

static int fail(const char *msg, const char *arg)
{
    static const ToolRun me = { .tool = "rslvm" };
    return tool_fail(&me, msg, arg);
}

static int parse_args(int argc, char **argv, Run *r)
{
    tool_init(&r->t, "rslvm", argc, 2);
    r->prints = calloc((size_t)argc, sizeof *r->prints);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = tool_option(&r->t, argc, argv, &i);
        if (taken < 0)
            return 1;
        if (taken)
            continue;
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--print") && i + 1 < argc) {
            r->prints[r->nprints++] = argv[++i];
        } else if (!strcmp(a, "--stats")) {
            r->stats = true;
        } else if (!strcmp(a, "--backend") && i + 1 < argc) {
            const char *b = argv[++i];
            if (strcmp(b, "vm") && strcmp(b, "native"))
                return fail("unknown backend '%s' (vm or native)", b);
            r->native = !strcmp(b, "native");
        } else if (!strcmp(a, "--isa") && i + 1 < argc) {
            int isa = native_isa_parse(argv[++i]);
            if (isa < 0)
                return fail("unknown ISA '%s' (sse4.2, avx2, avx512 or auto)", argv[i]);
            r->isa = (NativeIsa)isa;
        } else if (!strcmp(a, "--code-cache") && i + 1 < argc) {
            r->code_cache = argv[++i];
        } else {
            return fail("unknown or incomplete option '%s' (see 'rslvm --help')", a);
        }
    }
    size_t n = r->t.input ? strlen(r->t.input) : 0;
    if (r->native && (r->t.call || n < 3 || strcmp(r->t.input + n - 3, ".sl")))
        return fail("--backend native runs --shade of a .sl file (objects carry no native "
                    "code yet)%s", "");
    return tool_check(&r->t);
}

/* The slots of each --print variable, per point, kept until every tile
   has run so that points print in row-major order. */
static unsigned print_slots(const VmObject *o, const Run *r)
{
    unsigned n = 0;
    for (int i = 0; i < r->nprints; i++) {
        const VmVar *v = vm_find_var(o, r->prints[i]);
        n += vm_type_slots(v->type, v->arraylen);
    }
    return n;
}

static void keep_prints(const VmObject *o, const Run *r, const VmState *s, int lane, float *out)
{
    for (int i = 0; i < r->nprints; i++) {
        const VmVar *v = vm_find_var(o, r->prints[i]);
        for (unsigned k = 0; k < vm_type_slots(v->type, v->arraylen); k++)
            *out++ = vm_var_load(s, v, k, lane);
    }
}

static void print_point(const VmObject *o, const Run *r, const VmStrings *strings,
                        const float *vals)
{
    for (int i = 0; i < r->nprints; i++) {
        const VmVar *v = vm_find_var(o, r->prints[i]);
        for (unsigned k = 0; k < vm_type_slots(v->type, v->arraylen); k++, vals++) {
            if (v->type == VM_T_STRING)
                printf(" %s", vm_strings_get(strings, vm_string_index(*vals)));
            else
                printf(" %.9g", (double)*vals);
        }
    }
}

/* Prints v's components at lane 0, a space before each but the line's
   first. */
static void print_value(const VmVar *v, const VmState *s, const VmStrings *strings, bool *first)
{
    for (unsigned k = 0; k < vm_type_slots(v->type, v->arraylen); k++) {
        float f = vm_var_load(s, v, k, 0);
        printf(*first ? "" : " ");
        *first = false;
        if (v->type == VM_T_STRING)
            printf("%s", vm_strings_get(strings, vm_string_index(f)));
        else
            printf("%.9g", (double)f);
    }
}

/* --call: the wrapper shader's parameters are the function's (its
   "return" slot and "result" after them), set from the arguments in
   order; prints the result, then the function's outputs. */
static int call_function(VmObject *o, Run *r)
{
    VmSession ss;
    VmState s;
    VmDeriv d;
    char err[512];
    if (vm_session_open(&ss, o, vm_test_host(), 1, err, sizeof err))
        return fail("%s", err);
    tool_session(&r->t, &ss);
    vm_session_batch(&ss, &s, 1);
    int rc = tool_fill_call(&r->t, &ss, &s, &d);
    if (!rc && vm_session_run(&ss, &s, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        rc = 1;
    }
    if (rc) {
        vm_session_close(&ss);
        return rc;
    }
    const VmVar *result = vm_find_var(o, "result");
    if (!result)
        result = vm_find_var(o, "return");
    bool first = true;
    if (result)
        print_value(result, &s, ss.strings, &first);
    for (uint32_t i = 0; i < o->nparams; i++)
        if ((o->params[i].flags & VM_VAR_OUTPUT) && &o->params[i] != result)
            print_value(&o->params[i], &s, ss.strings, &first);
    putchar('\n');
    vm_session_close(&ss);
    return 0;
}

/* --shade: the grid in tiles, then the printed values in row-major
   order and the statistics. */
static int shade_grid(VmObject *o, NativeShader *ns, Run *r)
{
    if (strcmp(o->name, r->t.shader))
        return fail("the object holds shader '%s'", o->name);
    for (int i = 0; i < r->nprints; i++)
        if (!vm_find_var(o, r->prints[i]))
            return fail("--print %s: no such parameter or global in the shader", r->prints[i]);
    VmSession ss;
    char err[512];
    int npoints = r->t.w * r->t.h, lanes = npoints < VM_MAX_BATCH ? npoints : VM_MAX_BATCH;
    if (vm_session_open(&ss, o, vm_test_host(), lanes, err, sizeof err))
        return fail("%s", err);
    tool_session(&r->t, &ss);
    NativeSession nss = { 0 };
    if (ns && native_session_open(&nss, ns, &ss, vm_test_host(), err, sizeof err)) {
        vm_session_close(&ss);
        return fail("%s", err);
    }
    VmProgram *p = &o->prog;
    int rc = tool_check_sets(&r->t, o, ss.strings);
    uint64_t *ready_u = calloc(p->nuniform + 1, sizeof *ready_u);
    uint64_t *ready_v = calloc(p->nvarying + 1, sizeof *ready_v);
    VmStats total = { 0 };
    unsigned nkeep = print_slots(o, r);
    float *kept = calloc((size_t)npoints * nkeep + 1, sizeof *kept);
    for (int tile = 0; tile < vm_grid_ntiles(r->t.w, r->t.h) && !rc; tile++) {
        VmTile t = vm_grid_tile(tile, r->t.w, r->t.h);
        int n = t.tw * t.th;
        VmState s;
        VmDeriv d;
        vm_session_batch(&ss, &s, n);
        s.ready_u = ready_u, s.ready_v = ready_v;
        tool_fill_tile(&r->t, &ss, &s, &d, t);
        if (ns ? native_session_run(&nss, &s, err, sizeof err)
               : vm_session_run(&ss, &s, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            rc = 1;
        }
        for (int l = 0; l < n; l++) {
            int point = (t.y0 + l / t.tw) * r->t.w + t.x0 + l % t.tw;
            keep_prints(o, r, &s, l, kept + (size_t)point * nkeep);
        }
        total.instructions += s.stats.instructions;
        total.lanes += s.stats.lanes;
        total.cycles += s.stats.cycles;
        memset(ready_u, 0, (p->nuniform + 1) * sizeof *ready_u);
        memset(ready_v, 0, (p->nvarying + 1) * sizeof *ready_v);
    }
    for (int point = 0; point < npoints && r->nprints && !rc; point++) {
        printf("%d %d:", point % r->t.w, point / r->t.w);
        print_point(o, r, ss.strings, kept + (size_t)point * nkeep);
        putchar('\n');
    }
    if (r->stats && !rc && ns)
        printf("isa %s\njit-ms %.1f\ncode-cache %s\n", native_isa_name(native_isa(ns)),
               native_compile_ms(ns), !r->code_cache ? "none" : native_from_cache(ns) ? "hit" : "miss");
    else if (r->stats && !rc)
        printf("instructions %llu\nlane-operations %llu\ncycles %llu\nuniform-slots %u\n"
               "varying-slots %u\nregister-bytes %zu\n",
               (unsigned long long)total.instructions, (unsigned long long)total.lanes,
               (unsigned long long)total.cycles, p->nuniform, p->nvarying,
               (p->nuniform + (size_t)p->nvarying * (size_t)lanes) * sizeof(float));
    free(kept);
    free(ready_u);
    free(ready_v);
    if (ns)
        native_session_close(&nss);
    vm_session_close(&ss);
    return rc;
}

/* The .sl at r->t.input in native code, or NULL with the VM object in
   *obj and a note on stderr where native code lacks a construct it uses
   (NULL with *obj NULL after diagnostics). */
static NativeShader *compile_native(const Run *r, RslcCtx *ctx, VmObject **obj)
{
    char lacks[200] = "", *why = NULL;
    size_t whylen = 0;
    RslcCtx nctx = { 0 };
    FILE *whyf = open_memstream(&why, &whylen);
    diag_set_output(&nctx, whyf);
    char err[4200];
    NativeCache *cache = r->code_cache ? native_cache_open(r->code_cache, err, sizeof err) : NULL;
    if (r->code_cache && !cache)
        fprintf(stderr, "rslvm: warning: %s; compiling without it\n", err);
    NativeOptions nopt = { .level = r->t.level, .isa = r->isa, .lacks = lacks,
                           .lackslen = sizeof lacks, .cache = cache };
    NativeShader *ns = native_compile_file_cpp(ctx, &nctx, r->t.input, NULL, NULL, &nopt, NULL, NULL, obj);
    native_cache_close(cache);
    fclose(whyf);
    if (!ns && *obj && lacks[0]) {
        /* The diagnostic's first line says where: "file:line:col: error: ...". */
        const char *end = strstr(why, ": error:");
        fprintf(stderr, "rslvm: note: shader \"%s\" runs on the VM: native code lacks %s (%.*s)\n",
                (*obj)->name, lacks, end ? (int)(end - why) : 0, why);
    } else if (!ns) {
        fputs(why, stderr);
        vm_object_free(*obj);
        *obj = NULL;
    }
    free(why);
    rslc_ctx_free(&nctx);
    return ns;
}

int main(int argc, char **argv)
{
    Run r = { 0 };
    VmObject *o = NULL;
    NativeShader *ns = NULL;
    RslcCtx ctx = { 0 };
    if (parse_args(argc, argv, &r)) {
    } else if (r.native) {
        ns = compile_native(&r, &ctx, &o);
    } else {
        o = tool_load(&r.t, false);
    }
    int rc = !o ? 1 : r.t.call ? call_function(o, &r) : shade_grid(o, ns, &r);
    native_free(ns);
    rslc_ctx_free(&ctx);
    vm_object_free(o);
    tool_free(&r.t);
    free(r.prints);
    return outfile_close_stdout("rslvm", rc);
}
