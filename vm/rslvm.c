/*
** rslvm.c: runs compiled shaders on the VM without a renderer, for tests
** and scripting.
**
**   rslvm FILE.o|FILE.sl --shade NAME --grid W H [--set VAR=VALUE]...
**         [--print VAR]... [--stats] [-O0|-O1|-O2]
**
** The grid's points are shaded in batches of up to VM_MAX_BATCH lanes,
** tiles of the grid (vm/grid.h) so that derivatives see neighbours.
** Globals start as a unit square facing the camera (vm/grid.h);
** --set overrides a parameter or global (a float "1.5", a triple "1,2,3",
** a matrix of 16 comma-separated floats, or a string). --print writes one
** line per point: "x y: value...", each float with %.9g.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/compile.h"
#include "vm/host.h"
#include "vm/grid.h"
#include "vm/object.h"
#include "vm/session.h"

static const char usage[] =
    "usage: rslvm FILE.o|FILE.sl --shade NAME --grid W H [options]\n"
    "       rslvm FILE.sl --call NAME [ARG...] [-O0|-O1|-O2]\n"
    "\n"
    "Runs a compiled shader over a W x H grid of shading points, or calls a\n"
    "function once and prints its result (then its output arguments) on one\n"
    "line. An ARG is a float 1.5, a triple 1,2,3, 16 floats, or a string.\n"
    "\n"
    "options:\n"
    "  --set VAR=VALUE  set a parameter or global: 1.5 | 1,2,3 | 16 floats | text\n"
    "  --print VAR      print VAR at every point (repeatable)\n"
    "  --stats          print instructions executed, modelled cycles, register file\n"
    "  -O0 -O1 -O2      optimisation level when compiling a .sl (default -O2)\n"
    "  --help           print this help\n";

typedef struct Setting {
    const char *name;
    float f[16];
    int n;                      /* floats given; 0 for a string */
    const char *str;
} Setting;

typedef struct Run {
    const char *input, *shader, *call;
    Setting *args;              /* --call's arguments */
    int nargs;
    int w, h, level;
    Setting *sets;
    int nsets;
    const char **prints;
    int nprints;
    bool stats;
} Run;

static int fail(const char *msg, const char *arg)
{
    fprintf(stderr, "rslvm: error: ");
    fprintf(stderr, msg, arg);
    fputc('\n', stderr);
    return 1;
}

/* A value of --set or --call: comma-separated floats, or else a string
   (quotes around it dropped). Which it is depends on the variable. */
static void parse_value(const char *text, Setting *s)
{
    char *end;
    const char *p = text;
    size_t len = strlen(text);
    s->n = 0;
    s->str = len >= 2 && text[0] == '"' && text[len - 1] == '"' ? strndup(text + 1, len - 2)
                                                               : strdup(text);
    while (s->n < 16) {
        float f = strtof(p, &end);
        if (end == p)
            break;
        s->f[s->n++] = f;
        p = end;
        if (*p != ',')
            break;
        p++;
    }
    if (*p || (s->n != 1 && s->n != 3 && s->n != 16))
        s->n = 0;
}

/* Makes s fit variable v: a string interned, a float spread over a
   triple or matrix. Returns false if it cannot. */
static bool fit_value(Setting *s, const VmVar *v, VmStrings *strings)
{
    unsigned want = vm_type_slots(v->type, v->arraylen);
    if (v->type == VM_T_STRING) {
        s->f[0] = vm_string_value(vm_strings_intern(strings, s->str));
        s->n = 1;
        return true;
    }
    if (s->n == 1)
        for (unsigned k = 1; k < want && k < 16; k++)
            s->f[k] = s->f[0];
    else if (s->n != (int)want)
        return false;
    s->n = (int)want;
    return true;
}

/* An option, as opposed to a negative number argument of --call. */
static bool is_option(const char *a)
{
    return a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') && a[1] != '.';
}

static int parse_args(int argc, char **argv, Run *r)
{
    r->level = 2;
    r->sets = calloc((size_t)argc, sizeof *r->sets);
    r->prints = calloc((size_t)argc, sizeof *r->prints);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--call") && i + 1 < argc) {
            r->call = argv[++i];
            r->args = calloc((size_t)argc, sizeof *r->args);
            while (i + 1 < argc && !is_option(argv[i + 1]))
                parse_value(argv[++i], &r->args[r->nargs++]);
        } else if (!strcmp(a, "--shade") && i + 1 < argc) {
            r->shader = argv[++i];
        } else if (!strcmp(a, "--grid") && i + 2 < argc) {
            r->w = atoi(argv[++i]);
            r->h = atoi(argv[++i]);
            if (r->w < 1 || r->h < 1 || r->w > 65536 || r->h > 65536)
                return fail("--grid needs two sizes from 1 to 65536%s", "");
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            const char *eq = strchr(argv[++i], '=');
            if (!eq || eq == argv[i])
                return fail("--set needs VAR=VALUE, not '%s'", argv[i]);
            Setting *s = &r->sets[r->nsets++];
            s->name = strndup(argv[i], (size_t)(eq - argv[i]));
            parse_value(eq + 1, s);
        } else if (!strcmp(a, "--print") && i + 1 < argc) {
            r->prints[r->nprints++] = argv[++i];
        } else if (!strcmp(a, "--stats")) {
            r->stats = true;
        } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '2' && !a[3]) {
            r->level = a[2] - '0';
        } else if (a[0] == '-') {
            return fail("unknown or incomplete option '%s' (see 'rslvm --help')", a);
        } else if (r->input) {
            return fail("more than one input file ('%s')", a);
        } else {
            r->input = a;
        }
    }
    if (r->call && (r->shader || r->w))
        return fail("--call runs a function, not a shader: drop --shade and --grid%s", "");
    if (r->call && r->input) {
        size_t n = strlen(r->input);
        if (n < 3 || strcmp(r->input + n - 3, ".sl"))
            return fail("--call needs the source file: '%s' is not a .sl", r->input);
    }
    if (!r->input || (!r->call && (!r->shader || !r->w)))
        return fail("needs an input file, and --shade NAME with --grid W H or --call NAME%s",
                    "");
    return 0;
}

static VmObject *load(const Run *r)
{
    size_t n = strlen(r->input);
    if (n > 3 && !strcmp(r->input + n - 3, ".sl"))
        return rslc_compile_file(r->input, r->level, r->call, r->nargs);
    char err[512];
    VmObject *o = vm_object_read(r->input, err, sizeof err);
    if (!o)
        fprintf(stderr, "%s\n", err);
    return o;
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
    int rc = 0;
    vm_session_batch(&ss, &s, 1);
    vm_grid_fill(o, &s, &d, vm_grid_tile(0, 1, 1));
    int a = 0, inputs = 0;
    for (uint32_t i = 0; i < o->nparams; i++)
        inputs += !(o->params[i].flags & VM_VAR_OUTPUT);
    bool all = r->nargs > inputs; /* outputs given too */
    for (uint32_t i = 0; i < o->nparams; i++) {
        const VmVar *v = &o->params[i];
        bool output = v->flags & VM_VAR_OUTPUT;
        if (!strcmp(v->name, "return") || !strcmp(v->name, "result") || (output && !all))
            continue;
        if (!fit_value(&r->args[a], v, ss.strings)) {
            rc = fail("argument for '%s' does not fit its type", v->name);
            break;
        }
        vm_var_store(&s, v, r->args[a++].f, (unsigned)vm_type_slots(v->type, v->arraylen), 0);
    }
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
static int shade_grid(VmObject *o, Run *r)
{
    if (strcmp(o->name, r->shader))
        return fail("the object holds shader '%s'", o->name);
    for (int i = 0; i < r->nprints; i++)
        if (!vm_find_var(o, r->prints[i]))
            return fail("--print %s: no such parameter or global in the shader", r->prints[i]);
    VmSession ss;
    char err[512];
    int npoints = r->w * r->h, lanes = npoints < VM_MAX_BATCH ? npoints : VM_MAX_BATCH;
    if (vm_session_open(&ss, o, vm_test_host(), lanes, err, sizeof err))
        return fail("%s", err);
    VmProgram *p = &o->prog;
    int rc = 0;
    for (int i = 0; i < r->nsets && !rc; i++) {
        const VmVar *v = vm_find_var(o, r->sets[i].name);
        if (!v)
            rc = fail("--set %s: no such parameter or global in the shader", r->sets[i].name);
        else if (!fit_value(&r->sets[i], v, ss.strings))
            rc = fail("--set %s: the value does not fit the variable's type", r->sets[i].name);
    }
    uint64_t *ready_u = calloc(p->nuniform + 1, sizeof *ready_u);
    uint64_t *ready_v = calloc(p->nvarying + 1, sizeof *ready_v);
    VmStats total = { 0 };
    unsigned nkeep = print_slots(o, r);
    float *kept = calloc((size_t)npoints * nkeep + 1, sizeof *kept);
    for (int tile = 0; tile < vm_grid_ntiles(r->w, r->h) && !rc; tile++) {
        VmTile t = vm_grid_tile(tile, r->w, r->h);
        int n = t.tw * t.th;
        VmState s;
        VmDeriv d;
        vm_session_batch(&ss, &s, n);
        s.ready_u = ready_u, s.ready_v = ready_v;
        vm_grid_fill(o, &s, &d, t);
        for (int i = 0; i < r->nsets; i++) {
            for (int l = 0; l < n; l++)
                vm_var_store(&s, vm_find_var(o, r->sets[i].name), r->sets[i].f,
                             (unsigned)r->sets[i].n, l);
            vm_param_given(o, &s, r->sets[i].name);
        }
        if (vm_session_run(&ss, &s, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            rc = 1;
        }
        for (int l = 0; l < n; l++) {
            int point = (t.y0 + l / t.tw) * r->w + t.x0 + l % t.tw;
            keep_prints(o, r, &s, l, kept + (size_t)point * nkeep);
        }
        total.instructions += s.stats.instructions;
        total.lanes += s.stats.lanes;
        total.cycles += s.stats.cycles;
        memset(ready_u, 0, (p->nuniform + 1) * sizeof *ready_u);
        memset(ready_v, 0, (p->nvarying + 1) * sizeof *ready_v);
    }
    for (int point = 0; point < npoints && r->nprints && !rc; point++) {
        printf("%d %d:", point % r->w, point / r->w);
        print_point(o, r, ss.strings, kept + (size_t)point * nkeep);
        putchar('\n');
    }
    if (r->stats && !rc)
        printf("instructions %llu\nlane-operations %llu\ncycles %llu\nuniform-slots %u\n"
               "varying-slots %u\nregister-bytes %zu\n",
               (unsigned long long)total.instructions, (unsigned long long)total.lanes,
               (unsigned long long)total.cycles, p->nuniform, p->nvarying,
               (p->nuniform + (size_t)p->nvarying * (size_t)lanes) * sizeof(float));
    free(kept);
    free(ready_u);
    free(ready_v);
    vm_session_close(&ss);
    return rc;
}

static void run_free(Run *r)
{
    for (int i = 0; i < r->nsets; i++) {
        free((char *)r->sets[i].name);
        free((char *)r->sets[i].str);
    }
    for (int i = 0; i < r->nargs; i++)
        free((char *)r->args[i].str);
    free(r->sets);
    free(r->args);
    free(r->prints);
}

int main(int argc, char **argv)
{
    Run r = { 0 };
    VmObject *o = parse_args(argc, argv, &r) ? NULL : load(&r);
    int rc = !o ? 1 : r.call ? call_function(o, &r) : shade_grid(o, &r);
    vm_object_free(o);
    run_free(&r);
    return rc;
}
