/*
** debug_repl.c: the debugger's command side (debug.h). It reads command
** lines, parses them, and turns them into the engine's calls (debug.c,
** debug_impl.h); every line the user sees is formatted here: stops,
** values, listings, errors. The engine hands control back through
** dbg_stopped, and the command loop runs until a command resumes the
** program.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vm/debug_impl.h"

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
    if (!db || !(db->src = vm_source_new())) {
        snprintf(err, (size_t)errlen, "out of memory");
        rsldb_free(db);
        return NULL;
    }
    if (dbg_init(db, ss, err, errlen)) {
        rsldb_free(db);
        return NULL;
    }
    db->in = in, db->out = out;
    return db;
}

void rsldb_free(Rsldb *db)
{
    if (!db)
        return;
    dbg_fini(db);
    vm_source_free(db->src);
    free(db);
}

/* ---- output -------------------------------------------------------------------- */

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
        if (dbg_eval(db, arg, lane, v, err, sizeof err)) {
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
    uint32_t f = dbg_frame_at(db, db->pc);
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
        if (dbg_var_value(db, v->name, db->lane, &val, why, sizeof why)) {
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
    uint32_t f = dbg_frame_at(db, db->pc);
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
    char *colon = strrchr(arg, ':');
    if (!*arg) {
        error(db, "break needs FILE:LINE or a function name");
        return;
    }
    char why[200];
    if (!colon) {
        int id = dbg_break_func(db, arg, why, sizeof why);
        if (!id)
            error(db, "%s", why);
        else
            say(db, "Breakpoint %d at %s\n", id, arg);
        return;
    }
    *colon = '\0';
    char *end;
    long line = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || line < 1) {
        error(db, "bad line number '%s' (break FILE:LINE)", colon + 1);
        return;
    }
    const VmLine *at;
    int id = dbg_break_line(db, arg, line, &at, why, sizeof why);
    if (!id) {
        error(db, "%s", why);
        return;
    }
    say(db, "Breakpoint %d at %s:%u", id, at->file, at->line);
    if (at->line != (uint32_t)line)
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
    char why[200];
    int id = dbg_watch(db, arg, why, sizeof why);
    if (!id)
        error(db, "%s", why);
    else
        say(db, "Watchpoint %d: %s\n", id, arg);
}

static void cmd_delete(Rsldb *db, char *arg)
{
    char *end;
    long id = strtol(arg, &end, 10);
    if (!*arg || *end || id < 1) {
        error(db, "delete takes the number of a breakpoint or watchpoint");
        return;
    }
    int kind = dbg_delete(db, id);
    if (kind)
        say(db, "Deleted %s %ld\n", kind == 'b' ? "breakpoint" : "watchpoint", id);
    else
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
        dbg_resume(db, M_CONTINUE);
        return 1;
    } else if (IS("step", "s") || IS("next", "n") || IS("finish", "fin") || IS("continue", "c")) {
        if (!need_running(db))
            return 0;
        Mode mode = cmd[0] == 's' ? M_STEP : cmd[0] == 'n' ? M_NEXT : cmd[0] == 'f' ? M_FINISH
                                                                             : M_CONTINUE;
        if (!dbg_resume(db, mode)) {
            error(db, "'finish' needs an inlined function; the shader's own code has no caller "
                  "(use 'continue')");
            return 0;
        }
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

/* ---- the engine's reports -------------------------------------------------------------- */

void dbg_watch_changed(Rsldb *db, const Watch *w, int lane, const Val *old, const Val *now)
{
    say(db, "\nWatchpoint %d: %s (lane %d)\nOld value = ", w->id, w->name, lane);
    show_value(db, old);
    say(db, "\nNew value = ");
    show_value(db, now);
    say(db, "\n");
}

int dbg_stopped(Rsldb *db, int li, int bp, bool watched)
{
    if (!watched && bp >= 0)
        say(db, "\nBreakpoint %d, ", db->bp[bp].id);
    show_line(db, li);
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
        char err[512];
        int rc = dbg_run_batch(db, &s, err, sizeof err);
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
