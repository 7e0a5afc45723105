/*
** debug_impl.h: what the files of the debugger share. debug.c is the
** engine: breakpoints, watchpoints, stepping, frames and per-lane
** variable values, driven by the VM's hook; it prints nothing. debug_expr.c
** evaluates print's expressions over the engine's values. debug_repl.c is
** the command side: it reads and parses commands, formats every line the
** user sees, and answers the engine when the program stops.
** Private to the debugger.
*/
#ifndef RSL_DEBUG_IMPL_H
#define RSL_DEBUG_IMPL_H

#include "vm/debug.h"
#include "vm/disasm.h"

enum { MAX_BP = 64, MAX_WATCH = 16, MAX_VAL = VM_MAX_VALUE };

/* How the program resumes: to the next stop, source line (into or over
   calls), or out of the current inlined function. */
typedef enum Mode { M_CONTINUE, M_STEP, M_NEXT, M_FINISH } Mode;

typedef struct Breakpoint {
    int id;                      /* its number, shared with watchpoints */
    const char *file;            /* line breakpoints: the object's own name */
    uint32_t line;
    char func[64];               /* function breakpoints */
} Breakpoint;

typedef struct Watch {
    int id;
    char name[64];
    float old[VM_MAX_BATCH][16];
    bool have[VM_MAX_BATCH];
} Watch;

/* A value as print computes it, for one lane. */
typedef struct Val {
    float f[MAX_VAL];
    unsigned n;                  /* floats */
    VmType type;
    unsigned arraylen;
    bool string, varying, inactive;
} Val;

/* The command side reads the engine's fields but changes them only
   through the dbg_ functions below. */
struct Rsldb {
    /* The engine's (debug.c): */
    VmSession *ss;
    const VmObject *o;
    const VmDebug *d;
    int *line_of;                /* pc -> index of the line entry covering it, -1 */
    uint32_t *written;           /* varying slot * lanes + lane: the pc of the last
                                    instruction that wrote it in this run, or ~0 */
    unsigned *depth;             /* frame -> inlined calls around it */
    Breakpoint bp[MAX_BP];
    int nbp;
    Watch *watch[MAX_WATCH];
    int nwatch;
    int last_id;                 /* breakpoints and watchpoints are numbered 1, 2, ...
                                    in the order they are made, for good */
    /* While running: */
    VmState *s;
    bool running;
    uint32_t pc, prev_pc, exec_pc;
    int prev_line;
    uint32_t prev_frame;
    bool pending;                /* a new line began; stop at its first real instruction */
    bool started;                /* exec_pc has run */
    int pending_bp;              /* a function breakpoint entered, or -1 */
    Mode mode;
    unsigned step_depth;

    /* The command side's (debug_repl.c): */
    FILE *in, *out;
    VmSource *src;
    int lane;                    /* the selected lane; the engine reports its
                                    watch changes first */
    bool failed, quit, restart;
};

/* debug.c: the engine */

/* Readies the engine's part of db for the object of ss (db zeroed).
   Returns 0, or -1 with the reason in err. */
int dbg_init(Rsldb *db, VmSession *ss, char *err, int errlen);
void dbg_fini(Rsldb *db);
/* The frame (inlined function) of the code at pc. */
uint32_t dbg_frame_at(const Rsldb *db, uint32_t pc);
/* A variable's value at a lane where the program stands. Returns 0, or
   -1 with the reason in why (no such variable, optimized out). */
int dbg_var_value(Rsldb *db, const char *name, int lane, Val *val, char *why, size_t nwhy);
/* Adds a breakpoint where the code of func (inlined or not) begins, or
   at the first line from `line` on with code in file (matched whole or
   by its last path components; *at is the line entry chosen). There must
   be room (nbp < MAX_BP). Return its number, or 0 with the reason in why. */
int dbg_break_func(Rsldb *db, const char *func, char *why, size_t nwhy);
int dbg_break_line(Rsldb *db, const char *file, long line, const VmLine **at,
                   char *why, size_t nwhy);
/* Adds a watchpoint on the variable name; its number, or 0 with the
   reason in why. */
int dbg_watch(Rsldb *db, const char *name, char *why, size_t nwhy);
/* Removes breakpoint or watchpoint id: 'b' or 'w' for which it was, 0
   if there is none. */
int dbg_delete(Rsldb *db, long id);
/* Sets how the program resumes once the hook returns, from where it
   stands; false for M_FINISH in the shader's own code (no caller). */
bool dbg_resume(Rsldb *db, Mode mode);
/* Runs batch s from the start under the engine's hook. Returns
   vm_session_run's result. */
int dbg_run_batch(Rsldb *db, VmState *s, char *err, int errlen);

/* debug_expr.c: print's expressions */

/* Evaluates text at a lane into v. Returns 0, or -1 with the reason in
   err. */
int dbg_eval(Rsldb *db, const char *text, int lane, Val *v, char *err, size_t nerr);

/* debug_repl.c: the engine's reports to the user */

/* Watched variable w changed at lane from old to now. */
void dbg_watch_changed(Rsldb *db, const Watch *w, int lane, const Val *old, const Val *now);
/* The program stopped before the instruction at db->pc: at line entry
   li, at breakpoint bp (an index in db->bp) or -1, or after a watched
   change (already reported). Runs commands until one resumes the
   program; nonzero ends the run. */
int dbg_stopped(Rsldb *db, int li, int bp, bool watched);

#endif /* RSL_DEBUG_IMPL_H */
