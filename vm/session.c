/*
** session.c: an object ready to run (session.h).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/builtins.h"
#include "vm/session.h"

int vm_session_open(VmSession *ss, VmObject *o, const VmHost *host, int lanes, char *err,
                    int errlen)
{
    VmProgram *p = &o->prog;
    *ss = (VmSession){ .obj = o, .lanes = lanes };
    ss->strings = vm_strings_new(p->strings, p->nstrings);
    ss->builtins = calloc(p->nbuiltins + 1, sizeof *ss->builtins);
    ss->U = calloc(p->nuniform + 1, sizeof *ss->U);
    ss->V = calloc((size_t)(p->nvarying + 1) * (size_t)lanes, sizeof *ss->V);
    if (!ss->strings || !ss->builtins || !ss->U || !ss->V) {
        snprintf(err, (size_t)errlen, "out of memory");
        vm_session_close(ss);
        return -1;
    }
    if (vm_bind_builtins(ss->builtins, o->callees, p->nbuiltins, ss->strings, host, err,
                         errlen)) {
        vm_session_close(ss);
        return -1;
    }
    ss->prog = *p;
    ss->prog.builtins = ss->builtins;
    return 0;
}

void vm_session_close(VmSession *ss)
{
    vm_strings_free(ss->strings);
    free(ss->builtins);
    free(ss->U);
    free(ss->V);
    memset(ss, 0, sizeof *ss);
}

void vm_session_batch(VmSession *ss, VmState *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->U = ss->U;
    s->V = ss->V;
    vm_reset(&ss->prog, s);
}

int vm_session_run(VmSession *ss, VmState *s, char *err, int errlen)
{
    char msg[512];
    if (vm_run(&ss->prog, s, msg, sizeof msg) == 0)
        return 0;
    const VmLine *at = NULL; /* the last line entry at or before the fault */
    for (uint32_t i = 0; s->fault[0] && i < ss->obj->nlines; i++)
        if (ss->obj->lines[i].pc <= s->fault_pc)
            at = &ss->obj->lines[i];
    if (at)
        snprintf(err, (size_t)errlen, "%s:%u: error: %s", at->file, at->line, msg);
    else
        snprintf(err, (size_t)errlen, "error: %s", msg);
    return -1;
}
