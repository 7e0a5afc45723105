/*
** lower_funcs.c: the functions and shaders of a unit as the lowering sees
** them: each one's IR-to-be (FuncInfo), nested functions listed before
** the function that holds them (callees before callers, since a function
** is visible only after its declaration), which function declares each
** variable, and each function's captures: the extern variables and shader
** globals its body uses or assigns, directly or through the functions it
** calls (lower_impl.h says how they are passed).
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/lower_impl.h"

/* ---- the functions of the unit ------------------------------------------------------------- */

FuncInfo *lower_func_info(const LowerUnit *u, const Symbol *fn)
{
    for (int i = 0; i < u->ninfos; i++)
        if (u->infos[i]->def->sym == fn)
            return u->infos[i];
    return NULL;
}

FuncInfo *lower_owner(const LowerUnit *u, const Symbol *sym)
{
    for (int i = 0; i < u->nowners; i++)
        if (u->owners[i].sym == sym)
            return u->owners[i].fi;
    return NULL;
}

static void own(LowerUnit *u, const Node *d, FuncInfo *fi)
{
    if (!d->sym || d->spec.is_extern)
        return;
    u->owners = lower_grow(u->owners, &u->capowners, u->nowners + 1, sizeof *u->owners);
    u->owners[u->nowners].sym = d->sym;
    u->owners[u->nowners++].fi = fi;
}

/* Collects def and the functions nested in it (those first, so callees
   precede callers in the module) and the variables each declares. */
static void collect(LowerUnit *u, Node *def, FuncInfo *owner);

static void collect_stmts(LowerUnit *u, Node *n, FuncInfo *fi)
{
    for (; n; n = n->next) {
        if (n->kind == N_FUNCTION) {
            collect(u, n, fi);
            continue;
        }
        if (n->kind == N_VARDECL)
            own(u, n, fi);
        for (int i = 0; i < 4; i++)
            if (n->kid[i] && n->kind != N_VARDECL)
                collect_stmts(u, n->kid[i], fi);
    }
}

static void collect(LowerUnit *u, Node *def, FuncInfo *owner)
{
    FuncInfo *fi = lower_alloc(sizeof *fi);
    fi->def = def;
    fi->owner = owner;
    fi->ret_param = -1;
    for (Node *f = def->kid[0]; f; f = f->next)
        own(u, f, fi);
    if (def->kid[1])
        collect_stmts(u, def->kid[1]->kid[0], fi);
    u->infos = lower_grow(u->infos, &u->capinfos, u->ninfos + 1, sizeof *u->infos);
    u->infos[u->ninfos++] = fi;
}

/* ---- captures ------------------------------------------------------------------------------ */

static bool same_var(const Symbol *a, const Symbol *b)
{
    return a == b || (a->global && a->global == b->global);
}

static bool add_capture(FuncInfo *fi, Symbol *sym, bool written)
{
    for (int i = 0; i < fi->ncaps; i++)
        if (same_var(fi->caps[i].sym, sym)) {
            bool more = written && !fi->caps[i].written;
            fi->caps[i].written |= written;
            return more;
        }
    fi->caps = lower_grow(fi->caps, &fi->capcaps, fi->ncaps + 1, sizeof *fi->caps);
    fi->caps[fi->ncaps].sym = sym;
    fi->caps[fi->ncaps++].written = written;
    return true;
}

/* L, Cl, Ol inside a light region of the function itself come from the
   region, not from the caller. */
static bool from_region(const Symbol *sym, int region)
{
    const GlobalVar *g = sym->global;
    if (!g || !region)
        return false;
    return region == N_ILLUMINANCE ? g->region != 0 : strcmp(g->name, "L") == 0;
}

static bool uses_var(LowerUnit *u, FuncInfo *fi, Symbol *sym, bool written, int region)
{
    if (sym->kind == SYM_GLOBAL)
        return !from_region(sym, region) && add_capture(fi, sym, written);
    if (sym->kind == SYM_VAR && lower_owner(u, sym) != fi)
        return add_capture(fi, sym, written);
    return false;
}


/* Finds what node n (scan) or list n (scan_list) of fi's body uses from
   outside; true if something was new. */
static bool scan(LowerUnit *u, FuncInfo *fi, const Node *n, bool written, int region);

static bool scan_list(LowerUnit *u, FuncInfo *fi, const Node *n, int region)
{
    bool changed = false;
    for (; n; n = n->next)
        changed |= scan(u, fi, n, false, region);
    return changed;
}

/* The arguments of a call or gather, outputs counting as assignments. */
static bool scan_args(LowerUnit *u, FuncInfo *fi, const Node *n, int region)
{
    bool changed = false;
    int i = 0;
    for (const Node *a = n->kid[0]; a; a = a->next, i++)
        changed |= scan(u, fi, a, lower_arg_is_output(u, n, i), region);
    return changed;
}

static bool scan(LowerUnit *u, FuncInfo *fi, const Node *n, bool written, int region)
{
    bool changed = false;
    switch (n->kind) {
    case N_FUNCTION:
        return false;
    case N_IDENT:
        return n->sym && n->sym->kind != SYM_FUNC && uses_var(u, fi, n->sym, written, region);
    case N_ASSIGN:
        return scan(u, fi, n->kid[0], true, region) | scan(u, fi, n->kid[1], false, region);
    case N_INDEX:
        return scan(u, fi, n->kid[0], written, region) | scan(u, fi, n->kid[1], false, region);
    case N_CALL: {
        changed = scan_args(u, fi, n, region);
        FuncInfo *g = n->sym ? lower_func_info(u, n->sym) : NULL;
        for (int c = 0; g && c < g->ncaps; c++)
            changed |= uses_var(u, fi, g->caps[c].sym, g->caps[c].written, region);
        return changed;
    }
    case N_ILLUMINANCE: case N_ILLUMINATE: case N_SOLAR:
        return scan_list(u, fi, n->kid[0], region) | scan(u, fi, n->kid[1], false, n->kind);
    case N_GATHER:
        changed = scan_args(u, fi, n, region) | scan(u, fi, n->kid[1], false, region);
        return changed | (n->kid[2] && scan(u, fi, n->kid[2], false, region));
    default:
        for (int k = 0; k < 4; k++)
            changed |= scan_list(u, fi, n->kid[k], region);
        return changed;
    }
}

/* Captures flow from callees to callers; no recursion, but a function may
   call one declared before it anywhere in scope: iterate. */
static void find_captures(LowerUnit *u)
{
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < u->ninfos; i++)
            if (u->infos[i]->def->kind == N_FUNCTION && u->infos[i]->def->kid[1])
                again |= scan_list(u, u->infos[i], u->infos[i]->def->kid[1]->kid[0], 0);
    }
}

FuncInfo **lower_collect(LowerUnit *u, const Unit *unit, int *n)
{
    for (Node *d = unit->defs; d; d = d->next)
        if (d->kind == N_SHADER || d->kind == N_FUNCTION)
            collect(u, d, NULL);
    find_captures(u);
    *n = u->ninfos;
    return u->infos;
}

void lower_forget(LowerUnit *u)
{
    for (int i = 0; i < u->ninfos; i++) {
        free(u->infos[i]->caps);
        free(u->infos[i]);
    }
    free(u->infos);
    free(u->owners);
}
