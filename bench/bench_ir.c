/*
** bench_ir.c: what the optimiser does to each shader, and what it costs.
**
** For each shader named on the command line (default run: the standard
** library), it prints the IR instruction count after lowering and after
** the -O2 pipeline, and the compile time split into front end (parse and
** check; cpp is an external process and is left out), lowering and
** optimisation, each the best of --reps runs.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rslc/ast.h"
#include "rslc/check.h"
#include "rslc/cpp.h"
#include "rslc/diag.h"
#include "rslc/ir.h"
#include "rslc/parse.h"
#include "rslc/passes.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int count_ins(const IrModule *m)
{
    int n = 0;
    for (int f = 0; f < m->nfuncs; f++)
        for (const IrBlock *b = m->funcs[f]->entry; b; b = b->next)
            for (const IrIns *i = b->first; i; i = i->next)
                n++;
    return n;
}

typedef struct Sample {
    double front, lower, opt;  /* best times, ms */
    int before, after;         /* instruction counts */
} Sample;

static double min(double a, double b)
{
    return a < b ? a : b;
}

/* Compiles text reps times; false if the shader does not compile. */
static bool measure(RslcCtx *rc, const char *text, size_t len, const char *path, int reps, Sample *s)
{
    s->front = s->lower = s->opt = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        Unit *unit = parse_rsl(rc, text, len, path);
        bool ok = unit && check_unit(rc, unit);
        double t1 = now_ms();
        IrModule *m = ok ? ir_lower_unit(rc, unit) : NULL;
        double t2 = now_ms();
        if (m) {
            s->before = count_ins(m);
            passes_run_pipeline(m, 2);
            s->after = count_ins(m);
        }
        double t3 = now_ms();
        if (m)
            ir_module_free(m);
        check_free(rc);
        ast_free_all(rc);
        if (!m)
            return false;
        s->front = min(s->front, t1 - t0);
        s->lower = min(s->lower, t2 - t1);
        s->opt = min(s->opt, t3 - t2);
    }
    return true;
}

int main(int argc, char **argv)
{
    RslcCtx rc = { 0 };
    int reps = 20, nshaders = 0;
    long total_before = 0, total_after = 0;
    CppOptions cpp = { NULL, 0 };
    Sample sum = { 0 };

    printf("%-24s %8s %8s %7s %10s %10s %10s\n", "shader", "ins", "-O2", "saved",
           "front ms", "lower ms", "opt ms");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
            continue;
        }
        size_t len;
        char *text = cpp_run(argv[i], &cpp, &len);
        if (!text)
            return 1;
        Sample s;
        bool ok = measure(&rc, text, len, argv[i], reps, &s);
        free(text);
        if (!ok) {
            fprintf(stderr, "bench_ir: %s does not compile\n", argv[i]);
            return 1;
        }
        const char *base = strrchr(argv[i], '/');
        printf("%-24s %8d %8d %6.1f%% %10.4f %10.4f %10.4f\n", base ? base + 1 : argv[i],
               s.before, s.after, 100.0 * (s.before - s.after) / (s.before ? s.before : 1),
               s.front, s.lower, s.opt);
        total_before += s.before;
        total_after += s.after;
        sum.front += s.front;
        sum.lower += s.lower;
        sum.opt += s.opt;
        nshaders++;
    }
    if (nshaders == 0) {
        fprintf(stderr, "usage: bench_ir [--reps N] FILE.sl...\n");
        return 1;
    }
    printf("%-24s %8ld %8ld %6.1f%% %10.4f %10.4f %10.4f   (%d shaders, best of %d)\n",
           "total / mean", total_before, total_after,
           100.0 * (total_before - total_after) / (total_before ? total_before : 1),
           sum.front / nshaders, sum.lower / nshaders, sum.opt / nshaders, nshaders, reps);
    rslc_ctx_free(&rc);
    return 0;
}
