/*
** debug.c: the debugger's engine (debug_impl.h). The VM calls hook()
** before every instruction; hook() decides whether to stop there (a
** breakpoint, the end of a step, a watched variable that changed) and,
** if so, hands over to the command side (dbg_stopped) until a command
** resumes the program. The engine prints nothing: what the user sees is
** debug_repl.c's.
**
** Where a variable lives at a pc comes from the object's VmDebug ranges:
** among the ranges of the current frame's variable of that name covering
** the pc, the one that started last holds its current value; none means
** "optimized out". Varying registers are written only at the lanes of
** the mask, so the engine records, per slot and lane, the pc of the last
** instruction that wrote it, and a range counts for a lane only once an
** instruction of the range (its definition at lo - 1 or later) wrote the
** lane there: registers that share a slot live in other stretches of
** code. A range from pc 0 holds an input and counts from the start.
*/
#include <stdlib.h>
#include <string.h>

#include "vm/debug_impl.h"
#include "vm/grid.h"

int dbg_init(Rsldb *db, VmSession *ss, char *err, int errlen)
{
    const VmObject *o = ss->obj;
    db->line_of = malloc((o->prog.ncode + 1) * sizeof *db->line_of);
    db->depth = calloc(o->debug->nframes, sizeof *db->depth);
    db->written = malloc((size_t)(o->prog.nvarying + 1) * (size_t)ss->lanes
                         * sizeof *db->written);
    if (!db->line_of || !db->depth || !db->written) {
        snprintf(err, (size_t)errlen, "out of memory");
        return -1;
    }
    db->ss = ss, db->o = o, db->d = o->debug;
    int at = -1;
    for (uint32_t pc = 0, k = 0; pc < o->prog.ncode; pc++) {
        while (k < o->nlines && o->lines[k].pc <= pc)
            at = (int)k++;
        db->line_of[pc] = at;
    }
    /* Parents come before their children (the loader checks it). */
    for (uint32_t f = 1; f < db->d->nframes; f++)
        db->depth[f] = db->depth[db->d->frames[f].parent] + 1;
    return 0;
}

void dbg_fini(Rsldb *db)
{
    for (int i = 0; i < db->nwatch; i++)
        free(db->watch[i]);
    free(db->line_of);
    free(db->written);
    free(db->depth);
}

/* ---- where things are -------------------------------------------------------- */

uint32_t dbg_frame_at(const Rsldb *db, uint32_t pc)
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

/* Has lane had its value written to the register of range r? */
static bool lane_has(const Rsldb *db, const VmDbgRange *r, int lane)
{
    if (!(r->reg & VM_V) || r->lo == 0)
        return true;
    uint32_t w = db->written[(size_t)VM_SLOT(r->reg) * (size_t)db->s->n + (size_t)lane];
    return w != UINT32_MAX && w + 1 >= r->lo && w <= r->hi;
}

/* The variable named name in frame f where it lives at pc: *range its
   register there, NULL if it is optimized out. NULL if f has no such
   variable. */
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

int dbg_var_value(Rsldb *db, const char *name, int lane, Val *val, char *why, size_t nwhy)
{
    uint32_t f = dbg_frame_at(db, db->pc);
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

/* ---- breakpoints and watchpoints ------------------------------------------------ */

int dbg_break_func(Rsldb *db, const char *func, char *why, size_t nwhy)
{
    Breakpoint *b = &db->bp[db->nbp];
    memset(b, 0, sizeof *b);
    if (strlen(func) >= sizeof b->func) {
        snprintf(why, nwhy, "no function '%.60s...' in the shader's code", func);
        return 0;
    }
    bool any = false, code = false;
    for (uint32_t f = 0; f < db->d->nframes; f++)
        if (same_func(db->d->frames[f].func, func)) {
            any = true;
            code |= db->d->frames[f].entry < db->o->prog.ncode;
        }
    if (!any) {
        snprintf(why, nwhy, "no function '%s' in the shader's code", func);
        return 0;
    }
    if (!code) {
        snprintf(why, nwhy, "function '%s' was optimized out", func);
        return 0;
    }
    memcpy(b->func, func, strlen(func) + 1);
    db->nbp++;
    return b->id = ++db->last_id;
}

int dbg_break_line(Rsldb *db, const char *file, long line, const VmLine **at,
                   char *why, size_t nwhy)
{
    Breakpoint *b = &db->bp[db->nbp];
    memset(b, 0, sizeof *b);
    size_t alen = strlen(file);
    const VmLine *best = NULL;
    bool known = false;
    for (uint32_t k = 0; k < db->o->nlines; k++) {
        const VmLine *l = &db->o->lines[k];
        size_t flen = strlen(l->file);
        bool match = !strcmp(l->file, file)
                  || (flen > alen && l->file[flen - alen - 1] == '/' && !strcmp(l->file + flen - alen, file));
        known |= match;
        if (match && l->line >= (uint32_t)line && (!best || l->line < best->line))
            best = l;
    }
    if (!known) {
        snprintf(why, nwhy, "no source file '%s' in the shader's line table", file);
        return 0;
    }
    if (!best) {
        snprintf(why, nwhy, "no code at or after %s:%ld", file, line);
        return 0;
    }
    b->file = best->file;
    b->line = best->line;
    *at = best;
    db->nbp++;
    return b->id = ++db->last_id;
}

int dbg_watch(Rsldb *db, const char *name, char *why, size_t nwhy)
{
    bool exists = vm_find_var(db->o, name) != NULL;
    for (uint32_t i = 0; i < db->d->nvars && !exists; i++)
        exists = !strcmp(db->d->vars[i].name, name);
    if (!exists) {
        snprintf(why, nwhy, "no variable '%s' in the shader", name);
        return 0;
    }
    if (db->nwatch == MAX_WATCH || !(db->watch[db->nwatch] = calloc(1, sizeof(Watch)))) {
        snprintf(why, nwhy, "too many watchpoints");
        return 0;
    }
    Watch *w = db->watch[db->nwatch++];
    memcpy(w->name, name, strlen(name) + 1);
    return w->id = ++db->last_id;
}

int dbg_delete(Rsldb *db, long id)
{
    for (int i = 0; i < db->nbp; i++)
        if (db->bp[i].id == id) {
            memmove(&db->bp[i], &db->bp[i + 1], (size_t)(db->nbp - i - 1) * sizeof *db->bp);
            db->nbp--;
            return 'b';
        }
    for (int i = 0; i < db->nwatch; i++)
        if (db->watch[i]->id == id) {
            free(db->watch[i]);
            memmove(&db->watch[i], &db->watch[i + 1],
                    (size_t)(db->nwatch - i - 1) * sizeof *db->watch);
            db->nwatch--;
            return 'w';
        }
    return 0;
}

/* ---- stopping ------------------------------------------------------------------------ */

bool dbg_resume(Rsldb *db, Mode mode)
{
    unsigned depth = db->depth[dbg_frame_at(db, db->pc)];
    if (mode == M_FINISH && depth == 0)
        return false;
    db->mode = mode;
    db->step_depth = depth;
    return true;
}

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
            if (dbg_var_value(db, w->name, lane, &v, why, sizeof why) || v.n > 16 || v.inactive)
                continue;
            bool changed = w->have[lane] && memcmp(w->old[lane], v.f, v.n * sizeof *v.f);
            if (changed && (report < 0 || lane == db->lane))
                report = lane;
            if (changed && report == lane) {
                Val old = v;
                memcpy(old.f, w->old[lane], v.n * sizeof *v.f);
                dbg_watch_changed(db, w, lane, &old, &v);
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
    int watched_li = db->line_of[db->exec_pc];
    db->exec_pc = pc;
    int li = db->line_of[pc];
    const VmLine *l = li >= 0 ? &db->o->lines[li] : NULL;
    /* A new line: the pc starts a line entry of another line, or a jump
       came back to one. */
    if (l && l->pc == pc && (db->prev_line < 0 || pc <= db->prev_pc
                             || db->o->lines[db->prev_line].line != l->line
                             || strcmp(db->o->lines[db->prev_line].file, l->file)))
        db->pending = true;
    uint32_t f = dbg_frame_at(db, pc);
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
    }
    if (!stop)
        return 0;
    db->mode = M_CONTINUE;
    return dbg_stopped(db, watched ? watched_li : li, which, watched);
}

/* ---- runs ----------------------------------------------------------------------------- */

int dbg_run_batch(Rsldb *db, VmState *s, char *err, int errlen)
{
    s->hook = hook;
    s->hook_data = db;
    db->running = true;
    db->prev_pc = 0, db->prev_line = -1, db->prev_frame = VM_NO_FRAME;
    db->pending = false, db->pending_bp = -1, db->exec_pc = 0, db->started = false;
    memset(db->written, 0xff, (size_t)(db->o->prog.nvarying + 1) * (size_t)db->ss->lanes
                                  * sizeof *db->written);
    for (int i = 0; i < db->nwatch; i++)
        memset(db->watch[i]->have, 0, sizeof db->watch[i]->have);
    int rc = vm_session_run(db->ss, s, err, errlen);
    db->running = false;
    db->s = NULL;
    return rc;
}
