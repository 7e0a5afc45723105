/*
** passes.c: the pass registry and the -O pipelines.
**
** -O0 runs nothing: the IR is what lowering built, which is what the
** debugger wants to step through. -O1 runs the cheap scalar cleanups to a
** fixpoint. -O2 first inlines, then adds value numbering and loop-invariant
** code motion to the rounds. A round repeats while it changes something,
** because each pass exposes work for the others (propagation enables CSE,
** which enables DCE); MAX_ROUNDS bounds it should two passes ever undo each
** other.
*/
#include <stdio.h>
#include <string.h>

#include "rslc/pass.h"
#include "rslc/passes.h"

enum { MAX_ROUNDS = 10 };

typedef struct Pass {
    const char *name;
    bool (*on_func)(IrFunc *fn);
    bool (*on_module)(IrModule *m);
} Pass;

static const Pass pass_table[] = {
    { "copy", pass_copy, NULL },
    { "fold", pass_fold, NULL },
    { "phisimp", pass_phisimp, NULL },
    { "gvn", pass_gvn, NULL },
    { "sccp", pass_sccp, NULL },
    { "dce", pass_dce, NULL },
    { "inline", NULL, pass_inline },
    { "licm", pass_licm, NULL },
    { "cfgclean", pass_cfgclean, NULL },
};
enum { NPASSES = sizeof pass_table / sizeof pass_table[0] };

/* The rounds of each level, in order; "inline" runs once, before them. */
static const char *const round_O1[] = { "copy", "fold", "phisimp", "sccp", "cfgclean", "dce" };
static const char *const round_O2[] = { "copy", "fold", "phisimp", "sccp", "gvn",
                                        "licm", "fold", "cfgclean", "dce" };

static const Pass *find(const char *name)
{
    for (int i = 0; i < NPASSES; i++)
        if (strcmp(pass_table[i].name, name) == 0)
            return &pass_table[i];
    return NULL;
}

bool passes_known(const char *name)
{
    return find(name) != NULL;
}

const char *passes_list(void)
{
    return "copy fold phisimp gvn sccp dce inline licm cfgclean";
}

static bool run(const Pass *p, IrModule *m)
{
    if (p->on_module)
        return p->on_module(m);
    bool changed = false;
    for (int i = 0; i < m->nfuncs; i++)
        changed |= p->on_func(m->funcs[i]);
    return changed;
}

bool passes_run_named(IrModule *m, const char *name)
{
    const Pass *p = find(name);
    return p ? run(p, m) : false;
}

static bool disabled(const PassOptions *opt, const char *name)
{
    for (int i = 0; i < opt->ndisabled; i++)
        if (strcmp(opt->disabled[i], name) == 0)
            return true;
    return false;
}

static bool verify_module(const IrModule *m, const PassOptions *opt, const char *after)
{
    FILE *out = opt->verify_out ? opt->verify_out : stderr;
    bool ok = true;
    for (int i = 0; i < m->nfuncs; i++)
        if (!ir_verify(m->funcs[i], out)) {
            fprintf(out, "rslc: IR verifier: violations in @%s after %s\n", m->funcs[i]->name,
                    after);
            ok = false;
        }
    return ok;
}

/* Runs one pass of a pipeline under opt; false if the verifier objects. */
static bool step(IrModule *m, const char *name, int round, const PassOptions *opt, bool *changed)
{
    if (disabled(opt, name))
        return true;
    *changed |= run(find(name), m);
    if (opt->print_after && strcmp(opt->print_after, name) == 0) {
        FILE *out = opt->print_out ? opt->print_out : stdout;
        fprintf(out, "# after %s, round %d\n", name, round);
        ir_print_module(out, m);
    }
    return !opt->verify || verify_module(m, opt, name);
}

bool passes_run_pipeline_opts(IrModule *m, int level, const PassOptions *opt)
{
    static const PassOptions defaults;
    if (!opt)
        opt = &defaults;
    if (opt->verify && !verify_module(m, opt, "lowering"))
        return false;
    if (level <= 0)
        return true;
    const char *const *round = level == 1 ? round_O1 : round_O2;
    int n = level == 1 ? (int)(sizeof round_O1 / sizeof *round_O1)
                       : (int)(sizeof round_O2 / sizeof *round_O2);
    bool changed = false;
    if (level >= 2 && !step(m, "inline", 0, opt, &changed))
        return false;
    changed = true;
    for (int r = 1; changed && r <= MAX_ROUNDS; r++) {
        changed = false;
        for (int i = 0; i < n; i++)
            if (!step(m, round[i], r, opt, &changed))
                return false;
    }
    return true;
}

bool passes_run_pipeline(IrModule *m, int level)
{
    return passes_run_pipeline_opts(m, level, NULL);
}
