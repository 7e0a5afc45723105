/*
** debug.c: the debugger (debug.h). The VM calls hook() before every
** instruction; hook() decides whether to stop there (a breakpoint, the
** end of a step, a watched variable that changed) and, if so, runs the
** command loop until a command resumes the program. Where a variable
** lives at a pc comes from the object's VmDebug ranges: among the ranges
** of the current frame's variable of that name covering the pc, the one
** that started last holds its current value; none means "optimized out".
** Varying registers are written only at the lanes of the mask, so the
** debugger records, per slot and lane, the pc of the last instruction
** that wrote it, and a range counts for a lane only once an instruction
** of the range (its definition at lo - 1 or later) wrote the lane there:
** registers that share a slot live in other stretches of code. A range
** from pc 0 holds an input and counts from the start.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm/debug.h"
#include "vm/disasm.h"
#include "vm/grid.h"

enum { MAX_BP = 64, MAX_WATCH = 16, MAX_VAL = VM_MAX_VALUE };

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

struct Rsldb {
    VmSession *ss;
    const VmObject *o;
    const VmDebug *d;
    FILE *in, *out;
    VmSource *src;
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
    int lane;
    bool failed, quit, restart;
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
};

static void say(Rsldb *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Rsldb *db, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(db->out, fmt, ap);
    va_end(ap);
}

/* A failed command: reported, remembered for the exit status. */
static void error(Rsldb *db, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error(Rsldb *db, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", db->out);
    vfprintf(db->out, fmt, ap);
    fputc('\n', db->out);
    va_end(ap);
    db->failed = true;
}

Rsldb *rsldb_attach(VmSession *ss, FILE *in, FILE *out, char *err, int errlen)
{
    const VmObject *o = ss->obj;
    if (!o->debug) {
        snprintf(err, (size_t)errlen, "shader '%s' has no debug information: compile it with "
                 "'rslc -g'", o->name);
        return NULL;
    }
    Rsldb *db = calloc(1, sizeof *db);
    if (db) {
        db->line_of = malloc((o->prog.ncode + 1) * sizeof *db->line_of);
        db->depth = calloc(o->debug->nframes, sizeof *db->depth);
        db->src = vm_source_new();
        db->written = malloc((size_t)(o->prog.nvarying + 1) * (size_t)ss->lanes
                             * sizeof *db->written);
    }
    if (!db || !db->line_of || !db->depth || !db->src || !db->written) {
        snprintf(err, (size_t)errlen, "out of memory");
        rsldb_free(db);
        return NULL;
    }
    db->ss = ss, db->o = o, db->d = o->debug, db->in = in, db->out = out;
    int at = -1;
    for (uint32_t pc = 0, k = 0; pc < o->prog.ncode; pc++) {
        while (k < o->nlines && o->lines[k].pc <= pc)
            at = (int)k++;
        db->line_of[pc] = at;
    }
    /* Parents come before their children (the loader checks it). */
    for (uint32_t f = 1; f < db->d->nframes; f++)
        db->depth[f] = db->depth[db->d->frames[f].parent] + 1;
    return db;
}

void rsldb_free(Rsldb *db)
{
    if (!db)
        return;
    for (int i = 0; i < db->nwatch; i++)
        free(db->watch[i]);
    free(db->line_of);
    free(db->written);
    free(db->depth);
    vm_source_free(db->src);
    free(db);
}

/* ---- where things are -------------------------------------------------------- */

static uint32_t frame_at(const Rsldb *db, uint32_t pc)
{
    return pc < db->o->prog.ncode ? db->d->pc_frame[pc] : 0;
}

static bool within(const Rsldb *db, uint32_t f, uint32_t anc)
{
    for (; f != VM_NO_FRAME; f = db->d->frames[f].parent)
        if (f == anc)
            return true;
    return false;
}

/* The function name as written: "scale.2" (an overload) is "scale". */
static bool same_func(const char *mangled, const char *name)
{
    size_t n = strcspn(mangled, ".");
    return strlen(name) == n && !strncmp(mangled, name, n);
}

static void show_line(Rsldb *db, int li)
{
    if (li < 0) {
        say(db, "(no source line at instruction %u)\n", db->pc);
        return;
    }
    const VmLine *l = &db->o->lines[li];
    const char *text = vm_source_line(db->src, l->file, l->line);
    say(db, "%s:%u:%s%s\n", l->file, l->line, text ? " " : "", text ? text : "");
}

/* The variable named name in frame f where it lives at pc: *range its
   register there, NULL if it is optimized out. NULL if f has no such
   variable. */
/* Has lane had its value written to the register of range r? */
static bool lane_has(const Rsldb *db, const VmDbgRange *r, int lane)
{
    if (!(r->reg & VM_V) || r->lo == 0)
        return true;
    uint32_t w = db->written[(size_t)VM_SLOT(r->reg) * (size_t)db->s->n + (size_t)lane];
    return w != UINT32_MAX && w + 1 >= r->lo && w <= r->hi;
}

static const VmDbgVar *find_var(const Rsldb *db, const char *name, uint32_t f, uint32_t pc,
                                int lane, const VmDbgRange **range)
{
    const VmDbgVar *found = NULL;
    *range = NULL;
    for (uint32_t i = 0; i < db->d->nvars; i++) {
        const VmDbgVar *v = &db->d->vars[i];
        if (v->frame != f || strcmp(v->name, name))
            continue;
        if (!found)
            found = v;
        for (uint32_t k = 0; k < v->nranges; k++) {
            const VmDbgRange *r = &v->ranges[k];
            if (r->lo <= pc && pc <= r->hi && (!*range || r->lo > (*range)->lo)
                && lane_has(db, r, lane)) {
                *range = r;
                found = v;
            }
        }
    }
    return found;
}

/* Loads a register's slots at a lane into val. */
static void load(const Rsldb *db, unsigned reg, int lane, Val *val)
{
    const VmState *s = db->s;
    unsigned slot = VM_SLOT(reg);
    for (unsigned k = 0; k < val->n; k++)
        val->f[k] = reg & VM_V ? s->V[(size_t)(slot + k) * (size_t)s->n + (size_t)lane]
                               : s->U[slot + k];
    val->varying = (reg & VM_V) != 0;
    val->inactive = val->varying && (!s->mask[lane] || (s->active && !s->active[lane]));
}

/* A variable's value at a lane where the program stands. Returns 0, or
   -1 with the reason in why (no such variable, optimized out). */
static int var_value(Rsldb *db, const char *name, int lane, Val *val, char *why, size_t nwhy)
{
    uint32_t f = frame_at(db, db->pc);
    const VmDbgRange *r;
    const VmDbgVar *v = find_var(db, name, f, db->pc, lane, &r);
    memset(val, 0, sizeof *val);
    if (v && !r) {
        /* Before every range of it: not assigned yet; otherwise the
           optimiser dropped it here. */
        bool later = v->nranges > 0;
        for (uint32_t i = 0; i < db->d->nvars; i++)
            for (uint32_t k = 0; k < db->d->vars[i].nranges; k++)
                later &= db->d->vars[i].frame != f || strcmp(db->d->vars[i].name, name)
                      || db->d->vars[i].ranges[k].lo > db->pc;
        snprintf(why, nwhy, later ? "'%s' has no value yet here" : "'%s' is optimized out here",
                 name);
        return -1;
    }
    unsigned reg;
    if (v) {
        val->type = v->type, val->arraylen = v->arraylen, reg = r->reg;
    } else {
        /* The shader's interface: parameters and globals keep their
           registers throughout. */
        const VmVar *iv = vm_find_var(db->o, name);
        if (!iv) {
            snprintf(why, nwhy, "no variable '%s' in %s", name, db->d->frames[f].func);
            return -1;
        }
        val->type = iv->type, val->arraylen = iv->arraylen, reg = iv->reg;
    }
    val->n = vm_type_slots(val->type, val->arraylen);
    val->string = val->type == VM_T_STRING;
    if (val->n > MAX_VAL) {
        snprintf(why, nwhy, "'%s' is too large to show", name);
        return -1;
    }
    load(db, reg, lane, val);
    return 0;
}

/* ---- print's expressions -------------------------------------------------------- */

/* expr -> term {('+'|'-') term}; term -> unary {('*'|'/') unary};
   unary -> '-' unary | postfix; postfix -> primary {'[' INT ']'};
   primary -> NUMBER | NAME | '(' expr ')' */
typedef struct Parser {
    Rsldb *db;
    const char *p;
    int lane;
    char err[200];
} Parser;

static void skip(Parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int perr(Parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(Parser *ps, const char *fmt, ...)
{
    if (!ps->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->err, sizeof ps->err, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int expr(Parser *ps, Val *v);

static int primary(Parser *ps, Val *v)
{
    skip(ps);
    memset(v, 0, sizeof *v);
    if (*ps->p == '(') {
        ps->p++;
        if (expr(ps, v))
            return -1;
        skip(ps);
        if (*ps->p != ')')
            return perr(ps, "')' expected at '%s'", ps->p);
        ps->p++;
        return 0;
    }
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        char *end;
        v->f[0] = strtof(ps->p, &end);
        if (end == ps->p)
            return perr(ps, "bad number at '%s'", ps->p);
        ps->p = end;
        v->n = 1;
        return 0;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        char name[64];
        size_t n = 0;
        while ((isalnum((unsigned char)*ps->p) || *ps->p == '_') && n + 1 < sizeof name)
            name[n++] = *ps->p++;
        name[n] = '\0';
        char why[160];
        if (var_value(ps->db, name, ps->lane, v, why, sizeof why))
            return perr(ps, "%s", why);
        return 0;
    }
    return perr(ps, "unsupported expression at '%s' (print takes variables, components "
                "such as x[0], numbers, and + - * / with parentheses)", *ps->p ? ps->p : "the end");
}

static int postfix(Parser *ps, Val *v)
{
    if (primary(ps, v))
        return -1;
    for (skip(ps); *ps->p == '['; skip(ps)) {
        char *end;
        ps->p++;
        long i = strtol(ps->p, &end, 10);
        if (end == ps->p || *end != ']')
            return perr(ps, "a component needs a constant index, as in x[0]");
        ps->p = end + 1;
        if (v->string)
            return perr(ps, "a string has no components");
        /* An array's element, or a triple's or matrix's component. */
        unsigned per = v->arraylen ? v->n / v->arraylen : 1;
        unsigned count = v->arraylen ? v->arraylen : v->n;
        if (i < 0 || (unsigned long)i >= count)
            return perr(ps, "index %ld is outside 0..%u", i, count - 1);
        memmove(v->f, v->f + (size_t)i * per, per * sizeof *v->f);
        v->n = per;
        v->type = per == 1 ? VM_T_FLOAT : v->type;
        v->arraylen = 0;
    }
    return 0;
}

static int unary(Parser *ps, Val *v)
{
    skip(ps);
    if (*ps->p == '-') {
        ps->p++;
        if (unary(ps, v))
            return -1;
        if (v->string || v->arraylen)
            return perr(ps, "cannot negate a %s", v->string ? "string" : "whole array");
        for (unsigned k = 0; k < v->n; k++)
            v->f[k] = -v->f[k];
        return 0;
    }
    return postfix(ps, v);
}

/* a = a op b, componentwise; a float spreads over the other side. */
static int arith(Parser *ps, Val *a, const Val *b, char op)
{
    if (a->string || b->string || a->arraylen || b->arraylen)
        return perr(ps, "'%c' works on floats, triples and matrices, not %s", op,
                    a->string || b->string ? "strings" : "whole arrays");
    if (a->n != b->n && a->n != 1 && b->n != 1)
        return perr(ps, "cannot combine values of %u and %u components", a->n, b->n);
    unsigned n = a->n > b->n ? a->n : b->n;
    float x[MAX_VAL];
    for (unsigned k = 0; k < n; k++) {
        float l = a->f[a->n == 1 ? 0 : k], r = b->f[b->n == 1 ? 0 : k];
        x[k] = op == '+' ? l + r : op == '-' ? l - r : op == '*' ? l * r : l / r;
    }
    memcpy(a->f, x, n * sizeof *x);
    if (a->n == 1)
        a->type = b->type;
    a->n = n;
    a->varying |= b->varying;
    a->inactive |= b->inactive;
    return 0;
}

/* One level of left-associative operators: operand {op operand}. */
static int binary(Parser *ps, Val *v, const char *ops, int (*operand)(Parser *, Val *))
{
    if (operand(ps, v))
        return -1;
    for (skip(ps); *ps->p && strchr(ops, *ps->p); skip(ps)) {
        char op = *ps->p++;
        Val *r = malloc(sizeof *r);
        int rc = !r ? perr(ps, "out of memory") : operand(ps, r) ? -1 : arith(ps, v, r, op);
        free(r);
        if (rc)
            return -1;
    }
    return 0;
}

static int term(Parser *ps, Val *v)
{
    return binary(ps, v, "*/", unary);
}

static int expr(Parser *ps, Val *v)
{
    return binary(ps, v, "+-", term);
}

static int evaluate(Rsldb *db, const char *text, int lane, Val *v, char *err, size_t nerr)
{
    Parser ps = { db, text, lane, "" };
    if (expr(&ps, v) == 0) {
        skip(&ps);
        if (!*ps.p)
            return 0;
        perr(&ps, "unexpected '%s' after the expression", ps.p);
    }
    snprintf(err, nerr, "%s", ps.err);
    return -1;
}

static void show_value(Rsldb *db, const Val *v)
{
    if (v->string) {
        uint32_t idx = vm_string_index(v->f[0]);
        say(db, "\"%s\"", vm_strings_get(db->ss->strings, idx));
        return;
    }
    unsigned per = v->arraylen ? v->n / v->arraylen : v->n;
    if (v->arraylen)
        say(db, "{");
    for (unsigned k = 0; k < v->n; k++) {
        if (k % per == 0 && per > 1)
            say(db, "%s(", k ? ", " : "");
        else if (k)
            say(db, ", ");
        say(db, "%g", (double)v->f[k]);
        if (k % per == per - 1 && per > 1)
            say(db, ")");
    }
    if (v->arraylen)
        say(db, "}");
}

/* ---- commands ---------------------------------------------------------------------- */

static bool need_running(Rsldb *db)
{
    if (!db->running)
        error(db, "the shader is not running (use 'run')");
    return db->running;
}

static void cmd_print(Rsldb *db, char *arg)
{
    if (!*arg) {
        error(db, "print needs an expression, as in 'print x' or 'print P[0] * 2'");
        return;
    }
    if (!need_running(db))
        return;
    char *all = strstr(arg, "@all");
    if (all)
        *all = '\0';
    Val *v = malloc(sizeof *v);
    char err[200];
    if (!v) {
        error(db, "out of memory");
        return;
    }
    int from = all ? 0 : db->lane, to = all ? db->s->n : db->lane + 1;
    for (int lane = from; lane < to; lane++) {
        if (evaluate(db, arg, lane, v, err, sizeof err)) {
            error(db, "%s", err);
            break;
        }
        if (all)
            say(db, "lane %d: ", lane);
        else
            say(db, "%s = ", arg);
        show_value(db, v);
        if (!v->varying && !all)
            say(db, " (uniform)");
        if (v->inactive)
            say(db, " (lane %d inactive here)", lane);
        say(db, "\n");
    }
    free(v);
}

static void cmd_info_locals(Rsldb *db)
{
    if (!need_running(db))
        return;
    uint32_t f = frame_at(db, db->pc);
    int shown = 0;
    for (uint32_t i = 0; i < db->d->nvars; i++) {
        const VmDbgVar *v = &db->d->vars[i];
        bool first = v->frame == f;
        for (uint32_t j = 0; first && j < i; j++)
            first = !(db->d->vars[j].frame == f && !strcmp(db->d->vars[j].name, v->name));
        if (!first)
            continue;
        Val val;
        char why[160];
        shown++;
        say(db, "%s %s = ", vm_type_name(v->type), v->name);
        if (var_value(db, v->name, db->lane, &val, why, sizeof why)) {
            say(db, "%s\n", strstr(why, "no value yet") ? "<no value yet>" : "<optimized out>");
            continue;
        }
        show_value(db, &val);
        say(db, "%s\n", val.inactive ? " (lane inactive here)" : "");
    }
    if (!shown)
        say(db, "no variables in %s\n", db->d->frames[f].func);
}

static void cmd_info_registers(Rsldb *db)
{
    if (!need_running(db))
        return;
    const VmProgram *p = &db->o->prog;
    say(db, "uniform:");
    for (uint32_t i = 0; i < p->nuniform; i++)
        say(db, "%su%u = %g", i % 6 ? "  " : "\n  ", i, (double)db->s->U[i]);
    say(db, "\nvarying, lane %d:", db->lane);
    for (uint32_t i = 0; i < p->nvarying; i++)
        say(db, "%sv%u = %g", i % 6 ? "  " : "\n  ", i,
            (double)db->s->V[(size_t)i * (size_t)db->s->n + (size_t)db->lane]);
    say(db, "\n");
}

static void cmd_backtrace(Rsldb *db)
{
    if (!need_running(db))
        return;
    int li = db->line_of[db->pc];
    uint32_t f = frame_at(db, db->pc);
    const char *file = li >= 0 ? db->o->lines[li].file : "?";
    uint32_t line = li >= 0 ? db->o->lines[li].line : 0;
    for (int n = 0; f != VM_NO_FRAME; n++) {
        const VmFrame *x = &db->d->frames[f];
        say(db, "#%d  %.*s at %s:%u\n", n, (int)strcspn(x->func, "."), x->func, file, line);
        file = x->call_file, line = x->call_line;
        f = x->parent;
    }
}

static void cmd_break(Rsldb *db, char *arg)
{
    if (db->nbp == MAX_BP) {
        error(db, "too many breakpoints (%d)", MAX_BP);
        return;
    }
    Breakpoint *b = &db->bp[db->nbp];
    memset(b, 0, sizeof *b);
    char *colon = strrchr(arg, ':');
    if (!*arg) {
        error(db, "break needs FILE:LINE or a function name");
        return;
    }
    if (!colon && strlen(arg) >= sizeof b->func) {
        error(db, "no function '%.60s...' in the shader's code", arg);
        return;
    }
    if (!colon) {
        bool any = false, code = false;
        for (uint32_t f = 0; f < db->d->nframes; f++)
            if (same_func(db->d->frames[f].func, arg)) {
                any = true;
                code |= db->d->frames[f].entry < db->o->prog.ncode;
            }
        if (!any) {
            error(db, "no function '%s' in the shader's code", arg);
            return;
        }
        if (!code) {
            error(db, "function '%s' was optimized out", arg);
            return;
        }
        memcpy(b->func, arg, strlen(arg) + 1);
        b->id = ++db->last_id;
        db->nbp++;
        say(db, "Breakpoint %d at %s\n", b->id, arg);
        return;
    }
    *colon = '\0';
    char *end;
    long line = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || line < 1) {
        error(db, "bad line number '%s' (break FILE:LINE)", colon + 1);
        return;
    }
    /* The file as the line table names it, matched whole or by its last
       path components; then the first line from LINE on with code. */
    size_t alen = strlen(arg);
    const VmLine *best = NULL;
    bool known = false;
    for (uint32_t k = 0; k < db->o->nlines; k++) {
        const VmLine *l = &db->o->lines[k];
        size_t flen = strlen(l->file);
        bool match = !strcmp(l->file, arg)
                  || (flen > alen && l->file[flen - alen - 1] == '/' && !strcmp(l->file + flen - alen, arg));
        known |= match;
        if (match && l->line >= (uint32_t)line && (!best || l->line < best->line))
            best = l;
    }
    if (!known) {
        error(db, "no source file '%s' in the shader's line table", arg);
        return;
    }
    if (!best) {
        error(db, "no code at or after %s:%ld", arg, line);
        return;
    }
    b->file = best->file;
    b->line = best->line;
    b->id = ++db->last_id;
    db->nbp++;
    say(db, "Breakpoint %d at %s:%u", b->id, best->file, best->line);
    if (best->line != (uint32_t)line)
        say(db, " (no code at line %ld)", line);
    say(db, "\n");
}

static void cmd_watch(Rsldb *db, char *arg)
{
    if (!*arg || strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
                     != strlen(arg) || isdigit((unsigned char)arg[0]) || strlen(arg) >= 64) {
        error(db, "watch takes a variable name");
        return;
    }
    bool exists = vm_find_var(db->o, arg) != NULL;
    for (uint32_t i = 0; i < db->d->nvars && !exists; i++)
        exists = !strcmp(db->d->vars[i].name, arg);
    if (!exists) {
        error(db, "no variable '%s' in the shader", arg);
        return;
    }
    if (db->nwatch == MAX_WATCH || !(db->watch[db->nwatch] = calloc(1, sizeof(Watch)))) {
        error(db, "too many watchpoints");
        return;
    }
    Watch *w = db->watch[db->nwatch++];
    memcpy(w->name, arg, strlen(arg) + 1);
    w->id = ++db->last_id;
    say(db, "Watchpoint %d: %s\n", w->id, arg);
}

static void cmd_delete(Rsldb *db, char *arg)
{
    char *end;
    long id = strtol(arg, &end, 10);
    if (!*arg || *end || id < 1) {
        error(db, "delete takes the number of a breakpoint or watchpoint");
        return;
    }
    for (int i = 0; i < db->nbp; i++)
        if (db->bp[i].id == id) {
            memmove(&db->bp[i], &db->bp[i + 1], (size_t)(db->nbp - i - 1) * sizeof *db->bp);
            db->nbp--;
            say(db, "Deleted breakpoint %ld\n", id);
            return;
        }
    for (int i = 0; i < db->nwatch; i++)
        if (db->watch[i]->id == id) {
            free(db->watch[i]);
            memmove(&db->watch[i], &db->watch[i + 1],
                    (size_t)(db->nwatch - i - 1) * sizeof *db->watch);
            db->nwatch--;
            say(db, "Deleted watchpoint %ld\n", id);
            return;
        }
    error(db, "no breakpoint or watchpoint %ld", id);
}

static void cmd_lane(Rsldb *db, char *arg)
{
    char *end;
    long n = strtol(arg, &end, 10);
    int lanes = db->running ? db->s->n : db->ss->lanes;
    if (!*arg || *end || n < 0 || n >= lanes) {
        error(db, "lane needs a number from 0 to %d", lanes - 1);
        return;
    }
    db->lane = (int)n;
    say(db, "lane %d\n", db->lane);
}

static const char help[] =
    "break FILE:LINE    stop when the batch reaches that line (or the next with code)\n"
    "break FUNC         stop when the code of FUNC (inlined or not) begins\n"
    "run                run the shader from the start (again if running)\n"
    "step               run to the next source line, into calls\n"
    "next               run to the next source line, over calls\n"
    "finish             run until the current (inlined) function returns\n"
    "continue           run to the next breakpoint or watchpoint\n"
    "print EXPR         value at the selected lane: variables, x[0], numbers, + - * /\n"
    "print EXPR @all    the value at every lane of the batch\n"
    "lane N             select lane N of the batch\n"
    "info locals        the variables of the current function\n"
    "info registers     the uniform file and the selected lane's varying slots\n"
    "info breakpoints   the breakpoints and watchpoints\n"
    "backtrace          the (inlined) calls that lead here\n"
    "watch VAR          stop when VAR changes at an active lane\n"
    "delete N           remove breakpoint or watchpoint N\n"
    "disassemble        the bytecode, with the current instruction marked\n"
    "quit               leave the debugger\n";

/* Runs one command line. Returns 1 when it resumes the program (or ends
   it), 0 otherwise. */
static int command(Rsldb *db, char *line)
{
    char *cmd = line + strspn(line, " \t");
    char *arg = cmd + strcspn(cmd, " \t");
    if (*arg)
        *arg++ = '\0';
    arg += strspn(arg, " \t");
    for (char *e = arg + strlen(arg); e > arg && isspace((unsigned char)e[-1]);)
        *--e = '\0';
    #define IS(a, b) (!strcmp(cmd, a) || !strcmp(cmd, b))
    if (!*cmd || *cmd == '#')
        return 0;
    if (IS("quit", "q")) {
        db->quit = true;
        return 1;
    } else if (IS("help", "h")) {
        say(db, "%s", help);
    } else if (IS("break", "b")) {
        cmd_break(db, arg);
    } else if (IS("watch", "w")) {
        cmd_watch(db, arg);
    } else if (IS("delete", "d")) {
        cmd_delete(db, arg);
    } else if (IS("run", "r")) {
        if (db->running) {
            db->restart = true;
            return 1;
        }
        db->mode = M_CONTINUE;
        return 1;
    } else if (IS("step", "s") || IS("next", "n") || IS("finish", "fin") || IS("continue", "c")) {
        if (!need_running(db))
            return 0;
        unsigned depth = db->depth[frame_at(db, db->pc)];
        if (IS("finish", "fin") && depth == 0) {
            error(db, "'finish' needs an inlined function; the shader's own code has no caller "
                  "(use 'continue')");
            return 0;
        }
        db->mode = cmd[0] == 's' ? M_STEP : cmd[0] == 'n' ? M_NEXT : cmd[0] == 'f' ? M_FINISH
                                                                                 : M_CONTINUE;
        db->step_depth = depth;
        return 1;
    } else if (IS("print", "p")) {
        cmd_print(db, arg);
    } else if (IS("lane", "l")) {
        cmd_lane(db, arg);
    } else if (IS("backtrace", "bt")) {
        cmd_backtrace(db);
    } else if (IS("disassemble", "disas")) {
        vm_disasm(db->out, db->o, db->src, db->running ? db->pc : UINT32_MAX);
    } else if (IS("info", "i")) {
        if (!strcmp(arg, "locals"))
            cmd_info_locals(db);
        else if (!strcmp(arg, "registers"))
            cmd_info_registers(db);
        else if (!strcmp(arg, "breakpoints")) {
            for (int i = 0; i < db->nbp; i++)
                if (db->bp[i].func[0])
                    say(db, "%d breakpoint %s\n", db->bp[i].id, db->bp[i].func);
                else
                    say(db, "%d breakpoint %s:%u\n", db->bp[i].id, db->bp[i].file, db->bp[i].line);
            for (int i = 0; i < db->nwatch; i++)
                say(db, "%d watchpoint %s\n", db->watch[i]->id, db->watch[i]->name);
        } else
            error(db, "info takes 'locals', 'registers' or 'breakpoints'");
    } else {
        error(db, "unknown command '%s' (try 'help')", cmd);
    }
    #undef IS
    return 0;
}

/* Reads commands until one resumes the program; 1 at the end of the
   input (which quits). */
static int command_loop(Rsldb *db)
{
    char line[1024];
    for (;;) {
        say(db, "(rsldb) ");
        fflush(db->out);
        if (!fgets(line, sizeof line, db->in)) {
            say(db, "\n");
            db->quit = true;
            return 1;
        }
        line[strcspn(line, "\n")] = '\0';
        if (!isatty(fileno(db->in)))
            say(db, "%s\n", line); /* a script: echo it, so the transcript reads */
        if (command(db, line))
            return db->quit ? 1 : 0;
    }
}

/* ---- stopping ------------------------------------------------------------------------ */

/* Has a watched variable changed at an active lane since the last look?
   Reports the first change (the selected lane's if it changed). */
static bool watch_hit(Rsldb *db)
{
    bool hit = false;
    for (int i = 0; i < db->nwatch && !hit; i++) {
        Watch *w = db->watch[i];
        Val v;
        char why[160];
        int report = -1;
        for (int lane = 0; lane < db->s->n; lane++) {
            if (var_value(db, w->name, lane, &v, why, sizeof why) || v.n > 16 || v.inactive)
                continue;
            bool changed = w->have[lane] && memcmp(w->old[lane], v.f, v.n * sizeof *v.f);
            if (changed && (report < 0 || lane == db->lane))
                report = lane;
            if (changed && report == lane) {
                say(db, "\nWatchpoint %d: %s (lane %d)\nOld value = ", w->id, w->name,
                    lane);
                Val old = v;
                memcpy(old.f, w->old[lane], v.n * sizeof *v.f);
                show_value(db, &old);
                say(db, "\nNew value = ");
                show_value(db, &v);
                say(db, "\n");
            }
            memcpy(w->old[lane], v.f, v.n * sizeof *v.f);
            w->have[lane] = true;
        }
        hit = report >= 0;
    }
    return hit;
}

static bool masks(VmOp op)
{
    return op == VM_OP_JNONE || op == VM_OP_MASK || op == VM_OP_MASKALL;
}

/* Records the lanes the instruction at exec_pc wrote (it just ran), at
   its last word: a value's range starts after the extra operand words of
   the instruction that makes it (a builtin call's arguments). */
static void note_writes(Rsldb *db)
{
    const VmState *s = db->s;
    const VmProgram *p = &db->o->prog;
    unsigned a = vm_a(p->code[db->exec_pc]);
    unsigned n = vm_dest_slots(p, db->exec_pc);
    uint32_t last = db->exec_pc;
    while (last + 1 < p->ncode && vm_op(p->code[last + 1]) == VM_OP_X)
        last++;
    for (unsigned k = 0; (a & VM_V) && k < n && VM_SLOT(a) + k < p->nvarying; k++)
        for (int i = 0; i < s->n; i++)
            if (s->mask[i])
                db->written[(size_t)(VM_SLOT(a) + k) * (size_t)s->n + (size_t)i] = last;
}

static int hook(VmState *s, uint32_t pc, void *data)
{
    Rsldb *db = data;
    db->s = s;
    db->pc = pc;
    if (db->started)
        note_writes(db);
    db->started = true;
    bool watched = db->nwatch && watch_hit(db);
    if (watched)
        show_line(db, db->line_of[db->exec_pc]);
    db->exec_pc = pc;
    int li = db->line_of[pc];
    const VmLine *l = li >= 0 ? &db->o->lines[li] : NULL;
    /* A new line: the pc starts a line entry of another line, or a jump
       came back to one. */
    if (l && l->pc == pc && (db->prev_line < 0 || pc <= db->prev_pc
                             || db->o->lines[db->prev_line].line != l->line
                             || strcmp(db->o->lines[db->prev_line].file, l->file)))
        db->pending = true;
    uint32_t f = frame_at(db, pc);
    for (int i = 0; i < db->nbp && f != db->prev_frame; i++) {
        for (uint32_t g = 0; g < db->d->nframes && db->bp[i].func[0]; g++)
            if (same_func(db->d->frames[g].func, db->bp[i].func) && within(db, f, g)
                && (db->prev_frame == VM_NO_FRAME || !within(db, db->prev_frame, g))) {
                db->pending_bp = i;
                db->pending = true;
            }
    }
    db->prev_pc = pc;
    db->prev_line = li;
    db->prev_frame = f;
    bool stop = watched;
    const char *why = NULL;
    int which = -1;
    /* Stop at a line's first instruction that is not mask bookkeeping, so
       the mask (and print's "inactive") is the line's own. */
    if (db->pending && !masks(vm_op(db->o->prog.code[pc]))) {
        db->pending = false;
        for (int i = 0; i < db->nbp && l; i++)
            if (!db->bp[i].func[0] && db->bp[i].line == l->line && !strcmp(db->bp[i].file, l->file))
                which = i;
        if (db->pending_bp >= 0)
            which = db->pending_bp;
        db->pending_bp = -1;
        unsigned depth = db->depth[f];
        stop |= which >= 0 || db->mode == M_STEP || (db->mode == M_NEXT && depth <= db->step_depth)
             || (db->mode == M_FINISH && depth < db->step_depth);
        why = which >= 0 ? "Breakpoint" : NULL;
    }
    if (!stop)
        return 0;
    if (!watched) {
        if (why)
            say(db, "\nBreakpoint %d, ", db->bp[which].id);
        show_line(db, li);
    }
    db->mode = M_CONTINUE;
    return command_loop(db) || db->restart;
}

/* ---- runs ----------------------------------------------------------------------------- */

static void run(Rsldb *db, RsldbBatch fill, void *data)
{
    for (int batch = 0;; batch++) {
        VmState s;
        if (!fill(db->ss, &s, batch, data))
            break;
        if (db->lane >= s.n)
            db->lane = 0;
        say(db, "Running %s over %d lane%s", db->o->name, s.n, s.n == 1 ? "" : "s");
        if (batch)
            say(db, " (batch %d)", batch + 1);
        say(db, "\n");
        s.hook = hook;
        s.hook_data = db;
        db->running = true;
        db->prev_pc = 0, db->prev_line = -1, db->prev_frame = VM_NO_FRAME;
        db->pending = false, db->pending_bp = -1, db->exec_pc = 0, db->started = false;
        memset(db->written, 0xff, (size_t)(db->o->prog.nvarying + 1) * (size_t)db->ss->lanes
                                      * sizeof *db->written);
        for (int i = 0; i < db->nwatch; i++)
            memset(db->watch[i]->have, 0, sizeof db->watch[i]->have);
        char err[512];
        int rc = vm_session_run(db->ss, &s, err, sizeof err);
        db->running = false;
        db->s = NULL;
        if (db->quit)
            return;
        if (db->restart) {
            db->restart = false;
            batch = -1;
            continue;
        }
        if (rc) {
            error(db, "%s", err);
            return;
        }
    }
    say(db, "The shader ran to the end.\n");
}

void rsldb_select_lane(Rsldb *db, int lane)
{
    db->lane = lane >= 0 && lane < db->ss->lanes ? lane : 0;
}

int rsldb_repl(Rsldb *db, RsldbBatch fill, void *data)
{
    while (!db->quit) {
        if (command_loop(db))
            break;
        /* Only 'run' resumes when nothing runs. */
        run(db, fill, data);
    }
    return db->failed ? 1 : 0;
}
