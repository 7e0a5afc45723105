/*
** toolopts.h: what the tools that run shaders without a renderer (rslvm,
** rsldb) share: their common options, loading a .sl or .o, and filling
** a batch with a grid tile's globals and the --set values, or with
** --call's arguments. rtrender takes --max-shader-steps from here too.
**
**   FILE.o|FILE.sl --shade NAME --grid W H [--set VAR=VALUE]... [-O0|-O1|-O2]
**   FILE.sl --call NAME [ARG...] [-O0|-O1|-O2]
**   either with [--max-shader-steps N]
*/
#ifndef RSL_TOOLOPTS_H
#define RSL_TOOLOPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "vm/grid.h"
#include "vm/session.h"

/* A value of --set or --call: floats, or a string; which one it is
   depends on the variable (tool_fit_value). */
typedef struct Setting {
    const char *name;
    float f[16];
    int n;                      /* floats given; 0 for a string */
    const char *str;
} Setting;

typedef struct ToolRun {
    const char *tool;           /* for messages: "rslvm" */
    const char *input, *shader, *call;
    Setting *args;              /* --call's arguments */
    int nargs;
    int w, h, level;
    Setting *sets;
    int nsets;
    uint64_t max_steps;         /* --max-shader-steps: a batch's budget */
} ToolRun;

/* --help's lines for --max-shader-steps, which every tool that runs
   shaders takes; `indent` starts the second line, under the tool's other
   descriptions. */
#define TOOL_STEPS_HELP(indent)                                                         \
    "  --max-shader-steps N  stop a batch after N instructions (default 100000000;\n"  \
    indent "0: no limit) with an error at the looping line\n"

/* --max-shader-steps's value v into *steps (0: no limit); false after
   printing "TOOL: error: ..." with tool's name. */
bool tool_steps_arg(const char *tool, const char *v, uint64_t *steps);

/* Prints "TOOL: error: " and msg (a format taking arg) to stderr; 1. */
int tool_fail(const ToolRun *r, const char *msg, const char *arg);

/* Readies r for argc arguments (level -O2 unless the tool says). */
void tool_init(ToolRun *r, const char *tool, int argc, int level);
/* Takes argv[*i] if it is a common option or the input file (and its
   values, advancing *i): 1 if taken, 0 if not ours, -1 after an error
   (printed). */
int tool_option(ToolRun *r, int argc, char **argv, int *i);
/* Checks the combination once every option is read; 0 or 1 (printed). */
int tool_check(ToolRun *r);
void tool_free(ToolRun *r);

/* The object of r->input: compiled (with debug information if asked)
   or read; NULL after printing why. */
VmObject *tool_load(const ToolRun *r, bool debug);

/* Makes s fit variable v: a string interned, a float spread over a
   triple or matrix. False if it cannot. */
bool tool_fit_value(Setting *s, const VmVar *v, VmStrings *strings);

/* Readies a session opened for r: its step budget, and r's name on
   its messages. */
void tool_session(const ToolRun *r, VmSession *ss);

/* Checks every --set against o's variables (fitting the values); 0 or 1
   (printed). */
int tool_check_sets(const ToolRun *r, const VmObject *o, VmStrings *strings);

/* A batch for tile t of the grid: globals, derivatives (into *d) and the
   --set values, after vm_session_batch. */
void tool_fill_tile(const ToolRun *r, VmSession *ss, VmState *s, VmDeriv *d, VmTile t);

/* A one-lane batch for --call: the wrapper's parameters from the
   arguments in order; 0 or 1 (printed). */
int tool_fill_call(const ToolRun *r, VmSession *ss, VmState *s, VmDeriv *d);

#endif /* RSL_TOOLOPTS_H */
