/*
** passes.c: the pass registry and the -O pipelines.
**
** -O0 runs nothing: the IR is what lowering built, which is what the
** debugger wants to step through. -O1 runs the cheap scalar cleanups to a
** fixpoint. -O2 first inlines, then adds value numbering and loop-invariant
** code motion to the rounds. A round repeats while it changes something,
** because each pass exposes work for the others (propagation enables CSE,
** which enables DCE); MAX_ROUNDS bounds it should two passes ever undo each
** other. With constants for an instance (PassOptions.spec), every level
** first specialises: the optimiser then works on the instance's code.
*/
#include <stdio.h>
#include <string.h>

#include "rslc/pass.h"
#include "rslc/passes.h"

enum { MAX_ROUNDS = 10 };

/* The passes: name, and how one runs over a module (per function or
   whole). One table: the names and the dispatch below both expand it, so
   a pass added here is known to --disable-pass and --print-after. The
   dispatch is a switch rather than a table of function pointers so that
   the compiler's data stays read-only without relocations. */
#define PASSES(X)                     \
    X(SPECIALIZE, "specialize", SPEC, pass_specialize) \
    X(COPY, "copy", FUNC, pass_copy)          \
    X(FOLD, "fold", FUNC, pass_fold)          \
    X(PHISIMP, "phisimp", FUNC, pass_phisimp) \
    X(GVN, "gvn", FUNC, pass_gvn)             \
    X(SCCP, "sccp", FUNC, pass_sccp)          \
    X(DCE, "dce", FUNC, pass_dce)             \
    X(INLINE, "inline", MODULE, pass_inline)  \
    X(LICM, "licm", FUNC, pass_licm)          \
    X(CFGCLEAN, "cfgclean", FUNC, pass_cfgclean)

typedef enum PassId {
#define X(id, name, scope, fn) PASS_##id,
    PASSES(X)
#undef X
    NPASSES
} PassId;

static const char pass_names[NPASSES][11] = {
#define X(id, name, scope, fn) name,
    PASSES(X)
#undef X
};

/* The rounds of each level, in order; "inline" runs once, before them. */
static const PassId round_O1[] = { PASS_COPY, PASS_FOLD, PASS_PHISIMP, PASS_SCCP, PASS_CFGCLEAN,
                                   PASS_DCE };
static const PassId round_O2[] = { PASS_COPY, PASS_FOLD, PASS_PHISIMP, PASS_SCCP, PASS_GVN,
                                   PASS_LICM, PASS_FOLD, PASS_CFGCLEAN, PASS_DCE };

/* The pass named name, or NPASSES. */
static PassId find(const char *name)
{
    int i = 0;
    while (i < NPASSES && strcmp(pass_names[i], name) != 0)
        i++;
    return (PassId)i;
}

bool passes_known(const char *name)
{
    return find(name) != NPASSES;
}

const char *passes_list(void)
{
#define X(id, name, scope, fn) " " name
    static const char list[] = PASSES(X);
#undef X
    return list + 1;
}

/* A function pass over each function of m; whether any changed. */
#define RUN_FUNC(fn)                                                                              \
    do {                                                                                          \
        bool changed = false;                                                                     \
        for (int i = 0; i < m->nfuncs; i++)                                                       \
            changed |= fn(m->funcs[i]);                                                           \
        return changed;                                                                           \
    } while (0)
#define RUN_MODULE(fn) return fn(m)
#define RUN_SPEC(fn) return fn(m, spec)

static bool run(PassId p, IrModule *m, const IrSpec *spec)
{
    switch (p) {
#define X(id, name, scope, fn)                                                                    \
    case PASS_##id: RUN_##scope(fn);
        PASSES(X)
#undef X
    case NPASSES: break;
    }
    return false;
}

bool passes_run_named(IrModule *m, const char *name)
{
    return run(find(name), m, NULL);
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
static bool step(IrModule *m, PassId id, int round, const PassOptions *opt, bool *changed)
{
    const char *name = pass_names[id];
    if (disabled(opt, name))
        return true;
    *changed |= run(id, m, opt->spec);
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
    bool changed = false;
    if (opt->spec && !step(m, PASS_SPECIALIZE, 0, opt, &changed))
        return false;
    if (level <= 0)
        return true;
    const PassId *round = level == 1 ? round_O1 : round_O2;
    int n = level == 1 ? (int)(sizeof round_O1 / sizeof *round_O1)
                       : (int)(sizeof round_O2 / sizeof *round_O2);
    if (level >= 2 && !step(m, PASS_INLINE, 0, opt, &changed))
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
