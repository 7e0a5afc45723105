/*
** debug.h: the source-level debugger over the VM (rsldb, and the
** renderer when it drops into one pixel). It needs the debug information
** of rslc -g (object.h: VmDebug) and drives a session through the VM's
** per-instruction hook (vm.h: VmState.hook).
**
** The VM runs a batch of lanes under an execution mask, so stepping goes
** by source line for the whole batch; values are shown for one selected
** lane (lane 0 at first), which may be inactive (masked off) where the
** program stands. Stops follow Lua's line hook: a new source line, or a
** jump back to the start of one.
**
** Commands (one a line; stdin may be a script):
**   break FILE:LINE | break FUNC    run    step    next    finish
**   continue    print EXPR [@all]    lane N    info locals
**   info registers    info breakpoints    backtrace    watch VAR    delete N
**   disassemble    help    quit
*/
#ifndef RSL_DEBUG_H
#define RSL_DEBUG_H

#include <stdbool.h>
#include <stdio.h>

#include "vm/session.h"

typedef struct Rsldb Rsldb;

/* Readies batch `batch` of a run on ss (vm_session_batch, then the
   inputs); false when the run has no more batches. */
typedef bool (*RsldbBatch)(VmSession *ss, VmState *s, int batch, void *data);

/* A debugger for the object of ss, reading commands from in and writing
   to out. NULL with a message in err when the object has no debug
   information (it must come from rslc -g). */
Rsldb *rsldb_attach(VmSession *ss, FILE *in, FILE *out, char *err, int errlen);

/* Reads and runs commands until quit or the end of the input; `run`
   runs the batches fill prepares. Returns 0, or 1 if a command failed
   (each failure is reported as it happens). */
int rsldb_repl(Rsldb *db, RsldbBatch fill, void *data);

void rsldb_free(Rsldb *db);
/* Selects the lane values are shown for (as the lane command does), for
   a host that knows which lane matters (rtrender --debug-pixel). */
void rsldb_select_lane(Rsldb *db, int lane);

#endif /* RSL_DEBUG_H */
