/*
** session.h: a loaded object made ready to run: its builtins bound to the
** runtime, its string table, and register files for batches of up to
** `lanes` points. rslvm, rsldb, the tests, the benchmarks and the
** renderer all run shaders through one.
*/
#ifndef RSL_SESSION_H
#define RSL_SESSION_H

#include "runtime/host.h"
#include "vm/object.h"
#include "runtime/strings.h"

/* A batch's default step budget (vm.h's max_steps): generous (a
   uniform loop runs 10^8 steps in about a second, a busy varying one
   in some tens of seconds), so that only code that would run on for
   ever meets it. */
#define VM_DEFAULT_MAX_STEPS 100000000ull

/* The source lines a run-time warning was given for, so that each is
   given once however many points and batches reach it. Sessions may
   share one (a renderer's threads and depths), so it locks. */
typedef struct VmOnce VmOnce;
VmOnce *vm_once_new(void);
void vm_once_free(VmOnce *once);
/* True the first time it is asked about kind (a letter: 'i' an index
   out of bounds, 'f' a format missing arguments) at file:line. */
bool vm_once_first(VmOnce *once, char kind, const char *file, uint32_t line);

typedef struct VmSession {
    VmObject *obj;                    /* not owned; shared by sessions */
    /* obj's program with this session's builtins bound (their host and
       strings), so that sessions on several threads share one object. */
    VmProgram prog;
    VmStrings *strings;
    VmBuiltin *builtins;              /* obj->prog.builtins points here */
    float *U, *V;
    int lanes;
    /* Set by the caller after opening, given to every batch: the step
       budget (VM_DEFAULT_MAX_STEPS; 0 for none) and a stop flag. */
    uint64_t max_steps;
    const atomic_bool *stop;
    const char *program;              /* prefixes a halt's message: "rslvm" */
    /* Warnings (to stderr) once per source line: the session's own, or
       one it shares (vm_session_share_once). */
    VmOnce *once;
    bool own_once;
} VmSession;

/* Binds o's builtins (lights and the like from host) and allocates the
   register files. Returns 0, or -1 with a message in err (an unknown
   builtin, out of memory). */
int vm_session_open(VmSession *ss, VmObject *o, const VmHost *host, int lanes, char *err,
                    int errlen);
void vm_session_close(VmSession *ss);

/* Makes ss warn through once (not owned; it must outlive ss) in place
   of its own. */
void vm_session_share_once(VmSession *ss, VmOnce *once);

/* A fresh state for a batch of n <= lanes points over the session's
   register files, reset to the program's initial values, with the
   session's step budget, stop flag and warnings. */
void vm_session_batch(VmSession *ss, VmState *s, int n);

/* vm_run, with a builtin's fault reported at its source line:
   "file:line: error: message"; a run past the step budget as
   "PROGRAM: error: shader 'NAME' ran past N steps at file:line", the
   line of the loop's backward jump. */
int vm_session_run(VmSession *ss, VmState *s, char *err, int errlen);

#endif /* RSL_SESSION_H */
