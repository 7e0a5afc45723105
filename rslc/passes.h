/*
** passes.h: running the optimiser — passes by name and the -O pipelines.
**
** The driver (rslc --emit=ir -O2 --disable-pass=gvn --print-after=sccp),
** the pass tests and the benchmarks all go through here, so a pipeline is
** defined once.
*/
#ifndef RSLC_PASSES_H
#define RSLC_PASSES_H

#include <stdbool.h>
#include <stdio.h>

#include "rslc/ir.h"

enum { PASSES_MAX_OPT_LEVEL = 2 };

/* Instance specialisation (specialize.c): constant values for a shader's
   parameters, as a renderer knows them for one instance. f holds
   max(1, arraylen) elements of 1 (float), 3 (triples) or 16 (matrix)
   floats; a string has s instead (one: string arrays are not folded). */
typedef struct IrSpecParam {
    const char *name;
    IrKind kind;
    int arraylen;
    const float *f;
    const char *s;
} IrSpecParam;

typedef struct IrSpec {
    const IrSpecParam *p;
    int n;
} IrSpec;

/* How a pipeline runs. Zero-initialised: every pass enabled, nothing
   printed, no verifier, nothing specialised. */
typedef struct PassOptions {
    const char *const *disabled;  /* pass names not to run */
    int ndisabled;
    const char *print_after;      /* print the module after this pass */
    FILE *print_out;              /* where (stdout if NULL) */
    bool verify;                  /* ir_verify after every pass */
    FILE *verify_out;             /* where violations go (stderr if NULL) */
    const IrSpec *spec;           /* non-NULL: "specialize" runs first with
                                     these constants, at any level */
} PassOptions;

/* True if name is a pass (specialize copy fold phisimp gvn sccp dce
   inline licm cfgclean). */
bool passes_known(const char *name);
/* The known pass names, space separated, for messages. */
const char *passes_list(void);

/* Runs one pass by name over every function of m (inline: over m);
   true if it changed anything. Unknown names change nothing, nor does
   "specialize", which has no constants here (PassOptions.spec). */
bool passes_run_named(IrModule *m, const char *name);

/* Runs the pipeline of optimisation level 0, 1 or 2. With opt, passes may
   be disabled, the IR printed after a pass and verified after each; the
   return value is false when the verifier found a violation. */
bool passes_run_pipeline_opts(IrModule *m, int level, const PassOptions *opt);
bool passes_run_pipeline(IrModule *m, int level);

#endif /* RSLC_PASSES_H */
