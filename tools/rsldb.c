/*
** rsldb.c: the source-level debugger for shaders on the VM (vm/debug.h
** does the work; this is the command line).
**
**   rsldb FILE.sl|FILE.o --shade NAME --grid W H [--set VAR=VALUE]... [-O0|-O1|-O2]
**   rsldb FILE.sl --call NAME [ARG...] [-O0|-O1|-O2]
**   either with [--max-shader-steps N]
**
** A .sl is compiled with debug information (at -O0 unless told); a .o
** must come from rslc -g. Commands come from stdin, interactively or as
** a script (then echoed, so the transcript reads like a session).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/debug.h"
#include "runtime/host.h"
#include "runtime/outfile.h"
#include "tools/toolopts.h"

static const char usage[] =
    "usage: rsldb FILE.sl|FILE.o --shade NAME --grid W H [--set VAR=VALUE]... [-O0|-O1|-O2]\n"
    "       rsldb FILE.sl --call NAME [ARG...] [-O0|-O1|-O2]\n"
    "\n"
    "Debugs a shader on the VM, one source line at a time over the batch;\n"
    "commands come from stdin (type 'help'). A .sl is compiled with debug\n"
    "information (default -O0); a .o must come from 'rslc -g'.\n"
    "\n"
    "options:\n"
    "  --set VAR=VALUE  set a parameter or global: 1.5 | 1,2,3 | 16 floats | text\n"
    "  -O0 -O1 -O2      optimisation level when compiling a .sl (default -O0)\n"
    TOOL_STEPS_HELP("                   ")
    "  --help           print this help\n";

typedef struct Batches {
    const ToolRun *r;
    VmDeriv d;
} Batches;

/* The grid's tiles, one batch each, or --call's one lane. */
static bool fill(VmSession *ss, VmState *s, int batch, void *data)
{
    Batches *b = data;
    const ToolRun *r = b->r;
    if (r->call) {
        if (batch > 0)
            return false;
        vm_session_batch(ss, s, 1);
        return tool_fill_call(r, ss, s, &b->d) == 0;
    }
    if (batch >= vm_grid_ntiles(r->w, r->h))
        return false;
    VmTile t = vm_grid_tile(batch, r->w, r->h);
    vm_session_batch(ss, s, t.tw * t.th);
    tool_fill_tile(r, ss, s, &b->d, t);
    return true;
}

static int debug(VmObject *o, const ToolRun *r)
{
    if (!r->call && strcmp(o->name, r->shader))
        return tool_fail(r, "the object holds shader '%s'", o->name);
    if (!o->debug)
        return tool_fail(r, "'%s' has no debug information: compile it with 'rslc -g'",
                         r->input);
    int npoints = r->call ? 1 : r->w * r->h;
    VmSession ss;
    char err[512];
    if (vm_session_open(&ss, o, vm_test_host(), npoints < VM_MAX_BATCH ? npoints : VM_MAX_BATCH,
                        err, sizeof err))
        return tool_fail(r, "%s", err);
    tool_session(r, &ss);
    int rc = tool_check_sets(r, o, ss.strings);
    Rsldb *db = rc ? NULL : rsldb_attach(&ss, stdin, stdout, err, sizeof err);
    if (!rc && !db)
        rc = tool_fail(r, "%s", err);
    if (db) {
        Batches b = { .r = r };
        rc = rsldb_repl(db, fill, &b);
        rsldb_free(db);
    }
    vm_session_close(&ss);
    return rc;
}

int main(int argc, char **argv)
{
    ToolRun r;
    tool_init(&r, "rsldb", argc, 0);
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        int taken = tool_option(&r, argc, argv, &i);
        if (taken < 0)
            rc = 1;
        else if (!taken && !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            tool_free(&r);
            return 0;
        } else if (!taken)
            rc = tool_fail(&r, "unknown or incomplete option '%s' (see 'rsldb --help')", argv[i]);
    }
    rc = rc ? rc : tool_check(&r);
    VmObject *o = rc ? NULL : tool_load(&r, true);
    if (!rc)
        rc = o ? debug(o, &r) : 1;
    vm_object_free(o);
    tool_free(&r);
    return outfile_close_stdout("rsldb", rc);
}
