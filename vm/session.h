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

typedef struct VmSession {
    VmObject *obj;                    /* not owned; shared by sessions */
    /* obj's program with this session's builtins bound (their host and
       strings), so that sessions on several threads share one object. */
    VmProgram prog;
    VmStrings *strings;
    VmBuiltin *builtins;              /* obj->prog.builtins points here */
    float *U, *V;
    int lanes;
} VmSession;

/* Binds o's builtins (lights and the like from host) and allocates the
   register files. Returns 0, or -1 with a message in err (an unknown
   builtin, out of memory). */
int vm_session_open(VmSession *ss, VmObject *o, const VmHost *host, int lanes, char *err,
                    int errlen);
void vm_session_close(VmSession *ss);

/* A fresh state for a batch of n <= lanes points over the session's
   register files, reset to the program's initial values. */
void vm_session_batch(VmSession *ss, VmState *s, int n);

/* vm_run, with a builtin's fault reported at its source line:
   "file:line: error: message". */
int vm_session_run(VmSession *ss, VmState *s, char *err, int errlen);

#endif /* RSL_SESSION_H */
