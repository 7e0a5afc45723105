/*
** run_compile.h: compiling a compile-run-verify case (check_run.h) the
** way both its suites do: the VM suite (check_run.c) and the native
** suite (check_run_native.c), which lowers the same prepared IR, and
** how the native suites compare floats with the VM's.
*/
#ifndef RUN_COMPILE_H
#define RUN_COMPILE_H

#include <stdbool.h>

#include "backends/compile.h"

/* Compiles src (which may #include the standard shaders) at level into
   ctx: the VM object, or NULL after diagnostics (on ctx's output). With
   m, *m gets the module, made ready by the VM back end (defaults
   prepared, calls inlined), for the caller to free; else it is freed. */
VmObject *run_compile(RslcCtx *ctx, const char *src, int level, IrModule **m);

/* The one shader of m. */
IrFunc *run_shader(IrModule *m);

/* Floats within 2 ulp of each other (NaN matching NaN): native code and
   the VM agree this closely. */
bool run_close_ulp(float a, float b);

#endif /* RUN_COMPILE_H */
