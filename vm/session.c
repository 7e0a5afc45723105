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
    if (vm_bind_builtins(ss->builtins, o->builtin_names, p->nbuiltins, ss->strings, host, err,
                         errlen)) {
        vm_session_close(ss);
        return -1;
    }
    p->builtins = ss->builtins;
    return 0;
}

void vm_session_close(VmSession *ss)
{
    if (ss->obj && ss->obj->prog.builtins == ss->builtins)
        ss->obj->prog.builtins = NULL;
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
    vm_reset(&ss->obj->prog, s);
}
