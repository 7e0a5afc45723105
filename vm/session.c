/*
** session.c: an object ready to run (session.h): binding, batches, and
** what a run reports at source lines: faults, runaway loops, and
** warnings given once per line.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/builtins.h"
#include "vm/session.h"

typedef struct OnceKey {
    char kind;
    const char *file;
    uint32_t line;
} OnceKey;

struct VmOnce {
    pthread_mutex_t lock;
    OnceKey *keys;
    size_t n, cap;
};

VmOnce *vm_once_new(void)
{
    VmOnce *o = calloc(1, sizeof *o);
    if (o)
        pthread_mutex_init(&o->lock, NULL);
    return o;
}

void vm_once_free(VmOnce *once)
{
    if (!once)
        return;
    pthread_mutex_destroy(&once->lock);
    free(once->keys);
    free(once);
}

bool vm_once_first(VmOnce *once, char kind, const char *file, uint32_t line)
{
    pthread_mutex_lock(&once->lock);
    bool first = true;
    for (size_t i = 0; i < once->n && first; i++)
        first = !(once->keys[i].kind == kind && once->keys[i].line == line
                  && (once->keys[i].file == file || !strcmp(once->keys[i].file, file)));
    if (first && once->n == once->cap) {
        size_t cap = once->cap ? 2 * once->cap : 16;
        OnceKey *k = realloc(once->keys, cap * sizeof *k);
        if (k)
            once->keys = k, once->cap = cap;
    }
    /* Out of memory: warn again rather than never. */
    if (first && once->n < once->cap)
        once->keys[once->n++] = (OnceKey){ kind, file, line };
    pthread_mutex_unlock(&once->lock);
    return first;
}

/* The last line entry at or before pc, or NULL. */
static const VmLine *line_at(const VmObject *o, uint32_t pc)
{
    const VmLine *at = NULL;
    for (uint32_t i = 0; i < o->nlines && o->lines[i].pc <= pc; i++)
        at = &o->lines[i];
    return at;
}

/* The name of the array in register reg at pc: a variable of the debug
   information (rslc -g) living there, else a parameter or global; NULL
   for a local array of code without debug information. */
static const char *array_name(const VmObject *o, uint32_t pc, unsigned reg)
{
    for (uint32_t i = 0; o->debug && i < o->debug->nvars; i++) {
        const VmDbgVar *v = &o->debug->vars[i];
        for (uint32_t k = 0; v->arraylen && k < v->nranges; k++)
            if (v->ranges[k].reg == reg && v->ranges[k].lo <= pc && pc <= v->ranges[k].hi)
                return v->name;
    }
    for (uint32_t i = 0; i < o->nparams; i++)
        if (o->params[i].arraylen && o->params[i].reg == reg)
            return o->params[i].name;
    for (uint32_t i = 0; i < o->nglobals; i++)
        if (o->globals[i].arraylen && o->globals[i].reg == reg)
            return o->globals[i].name;
    return NULL;
}

/* vm.h's bad_index: the warning, once per source line. */
static void warn_index(VmState *s, uint32_t pc, float index, void *data)
{
    (void)s;
    const VmSession *ss = data;
    const VmProgram *p = &ss->prog;
    const VmLine *at = line_at(ss->obj, pc);
    if (!at || !vm_once_first(ss->once, 'i', at->file, at->line))
        return;
    VmIns ins = p->code[pc], x = p->code[pc + 1];
    unsigned len = vm_op(ins) == VM_OP_ASET ? vm_b(x) : vm_a(x);
    /* The array read (AGET's B), or the one written (ASET's A: its B may
       be the register of the array it was copied from). */
    const char *name = array_name(ss->obj, pc, vm_op(ins) == VM_OP_ASET ? vm_a(ins) : vm_b(ins));
    fprintf(stderr, "%s:%u: warning: index %g out of bounds for array%s%s%s of length %u\n",
            at->file, at->line, (double)index, name ? " '" : "", name ? name : "",
            name ? "'" : "", len);
}

/* vm.h's warn: a builtin's warning, once per source line and message
   (negative kinds, by the length of the message's function name, keep two
   builtins on one line apart). Native code's index warning, which names
   no function, is once per line as warn_index's. */
static void warn_builtin(VmState *s, uint32_t pc, const char *msg, void *data)
{
    const VmSession *ss = data;
    VmLine native = { 0, s->call_line, s->call_file };
    const VmLine *at = s->call_file ? &native : line_at(ss->obj, pc);
    size_t name = strcspn(msg, "(");
    char kind = msg[name] ? (char)(-1 - (int)(name % 100)) : 'i';
    if (at && !vm_once_first(ss->once, kind, at->file, at->line))
        return;
    if (at)
        fprintf(stderr, "%s:%u: warning: %s\n", at->file, at->line, msg);
    else if (vm_once_first(ss->once, kind, "", pc))
        fprintf(stderr, "%s%swarning: %s\n", ss->program ? ss->program : "",
                ss->program ? ": " : "", msg);
}

int vm_session_open(VmSession *ss, VmObject *o, const VmHost *host, int lanes, char *err,
                    int errlen)
{
    VmProgram *p = &o->prog;
    *ss = (VmSession){ .obj = o, .lanes = lanes, .max_steps = VM_DEFAULT_MAX_STEPS,
                       .once = vm_once_new(), .own_once = true };
    ss->strings = vm_strings_new(p->strings, p->nstrings);
    ss->builtins = calloc(p->nbuiltins + 1, sizeof *ss->builtins);
    ss->U = calloc(p->nuniform + 1, sizeof *ss->U);
    ss->V = calloc((size_t)(p->nvarying + 1) * (size_t)lanes, sizeof *ss->V);
    if (!ss->strings || !ss->builtins || !ss->U || !ss->V || !ss->once) {
        snprintf(err, (size_t)errlen, "out of memory");
        vm_session_close(ss);
        return -1;
    }
    if (vm_bind_builtins(ss->builtins, o->callees, p->nbuiltins, ss->strings, host, err,
                         errlen)) {
        vm_session_close(ss);
        return -1;
    }
    for (uint32_t i = 0; i < p->nbuiltins; i++)
        ss->builtins[i].shader = o->name;
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
    if (ss->own_once)
        vm_once_free(ss->once);
    memset(ss, 0, sizeof *ss);
}

void vm_session_share_once(VmSession *ss, VmOnce *once)
{
    if (ss->own_once)
        vm_once_free(ss->once);
    ss->once = once;
    ss->own_once = false;
}

void vm_session_batch(VmSession *ss, VmState *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->U = ss->U;
    s->V = ss->V;
    s->max_steps = ss->max_steps;
    s->stop = ss->stop;
    s->bad_index = warn_index;
    s->bad_index_data = ss;
    s->warn = warn_builtin;
    s->warn_data = ss;
    vm_reset(&ss->prog, s);
}

int vm_session_run(VmSession *ss, VmState *s, char *err, int errlen)
{
    char msg[512];
    if (vm_run(&ss->prog, s, msg, sizeof msg) == 0)
        return 0;
    const VmLine *at = s->halt != VM_HALT_NONE ? line_at(ss->obj, s->fault_pc) : NULL;
    if (s->halt == VM_HALT_STEPS || s->halt == VM_HALT_STOP)
        snprintf(err, (size_t)errlen, "%s%serror: shader '%s' %s at %s:%u",
                 ss->program ? ss->program : "", ss->program ? ": " : "", ss->obj->name, msg,
                 at ? at->file : "?", at ? at->line : 0);
    else if (at)
        snprintf(err, (size_t)errlen, "%s:%u: error: %s", at->file, at->line, msg);
    else
        snprintf(err, (size_t)errlen, "error: %s", msg);
    return -1;
}
