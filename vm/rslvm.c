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
    "\n"
    "Runs a compiled shader over a W x H grid of shading points.\n"
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
    const char *input, *shader;
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

/* A value of --set: comma-separated floats, or else a string. */
static void parse_value(const char *text, Setting *s)
{
    char *end;
    const char *p = text;
    s->n = 0;
    s->str = NULL;
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
    if (*p || (s->n != 1 && s->n != 3 && s->n != 16)) {
        s->n = 0;
        s->str = text[0] == '"' ? strndup(text + 1, strlen(text + 1) - (text[strlen(text) - 1] == '"'))
                                : strdup(text);
    }
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
    if (!r->input || !r->shader || !r->w)
        return fail("needs an input file, --shade NAME and --grid W H%s", "");
    return 0;
}

static VmObject *load(const Run *r)
{
    size_t n = strlen(r->input);
    if (n > 3 && !strcmp(r->input + n - 3, ".sl")) {
        CppOptions cpp = { 0 };
        Unit *unit = rslc_front_end(r->input, &cpp);
        IrModule *m = unit ? rslc_middle_end(unit, r->level, NULL) : NULL;
        VmObject *o = m ? rslc_vm_object(m, r->level, r->input) : NULL;
        ir_module_free(m);
        rslc_compile_done();
        return o;
    }
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

int main(int argc, char **argv)
{
    Run r = { 0 };
    if (parse_args(argc, argv, &r))
        return 1;
    VmObject *o = load(&r);
    if (!o)
        return 1;
    if (strcmp(o->name, r.shader))
        return fail("the object holds shader '%s'", o->name);
    for (int i = 0; i < r.nprints; i++)
        if (!vm_find_var(o, r.prints[i]))
            return fail("--print %s: no such parameter or global in the shader", r.prints[i]);
    VmSession ss;
    char err[512];
    int npoints = r.w * r.h, lanes = npoints < VM_MAX_BATCH ? npoints : VM_MAX_BATCH;
    if (vm_session_open(&ss, o, vm_test_host(), lanes, err, sizeof err))
        return fail("%s", err);
    VmProgram *p = &o->prog;
    for (int i = 0; i < r.nsets; i++) {
        const VmVar *v = vm_find_var(o, r.sets[i].name);
        if (!v)
            return fail("--set %s: no such parameter or global in the shader", r.sets[i].name);
        unsigned want = vm_type_slots(v->type, v->arraylen);
        if (v->type == VM_T_STRING ? r.sets[i].n != 0
                                   : r.sets[i].n != (int)want && r.sets[i].n != 1)
            return fail("--set %s: the value does not fit the variable's type", r.sets[i].name);
        if (v->type == VM_T_STRING) {
            r.sets[i].f[0] = vm_string_value(vm_strings_intern(ss.strings, r.sets[i].str));
            r.sets[i].n = 1;
        } else if (r.sets[i].n == 1) {
            for (unsigned k = 1; k < want && k < 16; k++)
                r.sets[i].f[k] = r.sets[i].f[0];
            r.sets[i].n = (int)want;
        }
    }
    uint64_t *ready_u = calloc(p->nuniform + 1, sizeof *ready_u);
    uint64_t *ready_v = calloc(p->nvarying + 1, sizeof *ready_v);
    VmStats total = { 0 };
    unsigned nkeep = print_slots(o, &r);
    float *kept = calloc((size_t)npoints * nkeep + 1, sizeof *kept);
    for (int tile = 0; tile < vm_grid_ntiles(r.w, r.h); tile++) {
        VmTile t = vm_grid_tile(tile, r.w, r.h);
        int n = t.tw * t.th;
        VmState s;
        VmDeriv d;
        vm_session_batch(&ss, &s, n);
        s.ready_u = ready_u, s.ready_v = ready_v;
        vm_grid_fill(o, &s, &d, t);
        for (int l = 0; l < n; l++)
            for (int i = 0; i < r.nsets; i++)
                vm_var_store(&s, vm_find_var(o, r.sets[i].name), r.sets[i].f,
                             (unsigned)r.sets[i].n, l);
        if (vm_session_run(&ss, &s, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        for (int l = 0; l < n; l++) {
            int point = (t.y0 + l / t.tw) * r.w + t.x0 + l % t.tw;
            keep_prints(o, &r, &s, l, kept + (size_t)point * nkeep);
        }
        total.instructions += s.stats.instructions;
        total.lanes += s.stats.lanes;
        total.cycles += s.stats.cycles;
        memset(ready_u, 0, (p->nuniform + 1) * sizeof *ready_u);
        memset(ready_v, 0, (p->nvarying + 1) * sizeof *ready_v);
    }
    for (int point = 0; point < npoints && r.nprints; point++) {
        printf("%d %d:", point % r.w, point / r.w);
        print_point(o, &r, ss.strings, kept + (size_t)point * nkeep);
        putchar('\n');
    }
    free(kept);
    if (r.stats)
        printf("instructions %llu\nlane-operations %llu\ncycles %llu\nuniform-slots %u\n"
               "varying-slots %u\nregister-bytes %zu\n",
               (unsigned long long)total.instructions, (unsigned long long)total.lanes,
               (unsigned long long)total.cycles, p->nuniform, p->nvarying,
               (p->nuniform + (size_t)p->nvarying * (size_t)lanes) * sizeof(float));
    free(ready_u);
    free(ready_v);
    vm_session_close(&ss);
    for (int i = 0; i < r.nsets; i++) {
        free((char *)r.sets[i].name);
        free((char *)r.sets[i].str);
    }
    free(r.sets);
    free(r.prints);
    vm_object_free(o);
    return 0;
}
