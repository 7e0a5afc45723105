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

static FuncInfo **infos;
static int ninfos, capinfos;

/* Which function or shader declares each variable. */
static struct Owner { const Symbol *sym; FuncInfo *fi; } *owners;
static int nowners, capowners;

FuncInfo *lower_func_info(const Symbol *fn)
{
    for (int i = 0; i < ninfos; i++)
        if (infos[i]->def->sym == fn)
            return infos[i];
    return NULL;
}

FuncInfo *lower_owner(const Symbol *sym)
{
    for (int i = 0; i < nowners; i++)
        if (owners[i].sym == sym)
            return owners[i].fi;
    return NULL;
}

static void own(const Node *d, FuncInfo *fi)
{
    if (!d->sym || d->spec.is_extern)
        return;
    owners = lower_grow(owners, &capowners, nowners + 1, sizeof *owners);
    owners[nowners].sym = d->sym;
    owners[nowners++].fi = fi;
}

/* Collects def and the functions nested in it (those first, so callees
   precede callers in the module) and the variables each declares. */
static void collect(Node *def, FuncInfo *owner);

static void collect_stmts(Node *n, FuncInfo *fi)
{
    for (; n; n = n->next) {
        if (n->kind == N_FUNCTION) {
            collect(n, fi);
            continue;
        }
        if (n->kind == N_VARDECL)
            own(n, fi);
        for (int i = 0; i < 4; i++)
            if (n->kid[i] && n->kind != N_VARDECL)
                collect_stmts(n->kid[i], fi);
    }
}

static void collect(Node *def, FuncInfo *owner)
{
    FuncInfo *fi = lower_alloc(sizeof *fi);
    fi->def = def;
    fi->owner = owner;
    fi->ret_param = -1;
    for (Node *f = def->kid[0]; f; f = f->next)
        own(f, fi);
    if (def->kid[1])
        collect_stmts(def->kid[1]->kid[0], fi);
    infos = lower_grow(infos, &capinfos, ninfos + 1, sizeof *infos);
    infos[ninfos++] = fi;
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

static bool uses_var(FuncInfo *fi, Symbol *sym, bool written, int region)
{
    if (sym->kind == SYM_GLOBAL)
        return !from_region(sym, region) && add_capture(fi, sym, written);
    if (sym->kind == SYM_VAR && lower_owner(sym) != fi)
        return add_capture(fi, sym, written);
    return false;
}


/* Finds what node n (scan) or list n (scan_list) of fi's body uses from
   outside; true if something was new. */
static bool scan(FuncInfo *fi, const Node *n, bool written, int region);

static bool scan_list(FuncInfo *fi, const Node *n, int region)
{
    bool changed = false;
    for (; n; n = n->next)
        changed |= scan(fi, n, false, region);
    return changed;
}

/* The arguments of a call or gather, outputs counting as assignments. */
static bool scan_args(FuncInfo *fi, const Node *n, int region)
{
    bool changed = false;
    int i = 0;
    for (const Node *a = n->kid[0]; a; a = a->next, i++)
        changed |= scan(fi, a, lower_arg_is_output(n, i), region);
    return changed;
}

static bool scan(FuncInfo *fi, const Node *n, bool written, int region)
{
    bool changed = false;
    switch (n->kind) {
    case N_FUNCTION:
        return false;
    case N_IDENT:
        return n->sym && n->sym->kind != SYM_FUNC && uses_var(fi, n->sym, written, region);
    case N_ASSIGN:
        return scan(fi, n->kid[0], true, region) | scan(fi, n->kid[1], false, region);
    case N_INDEX:
        return scan(fi, n->kid[0], written, region) | scan(fi, n->kid[1], false, region);
    case N_CALL: {
        changed = scan_args(fi, n, region);
        FuncInfo *g = n->sym ? lower_func_info(n->sym) : NULL;
        for (int c = 0; g && c < g->ncaps; c++)
            changed |= uses_var(fi, g->caps[c].sym, g->caps[c].written, region);
        return changed;
    }
    case N_ILLUMINANCE: case N_ILLUMINATE: case N_SOLAR:
        return scan_list(fi, n->kid[0], region) | scan(fi, n->kid[1], false, n->kind);
    case N_GATHER:
        changed = scan_args(fi, n, region) | scan(fi, n->kid[1], false, region);
        return changed | (n->kid[2] && scan(fi, n->kid[2], false, region));
    default:
        for (int k = 0; k < 4; k++)
            changed |= scan_list(fi, n->kid[k], region);
        return changed;
    }
}

/* Captures flow from callees to callers; no recursion, but a function may
   call one declared before it anywhere in scope: iterate. */
static void find_captures(void)
{
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < ninfos; i++)
            if (infos[i]->def->kind == N_FUNCTION && infos[i]->def->kid[1])
                again |= scan_list(infos[i], infos[i]->def->kid[1]->kid[0], 0);
    }
}

FuncInfo **lower_collect(const Unit *unit, int *n)
{
    ninfos = nowners = 0;
    for (Node *d = unit->defs; d; d = d->next)
        if (d->kind == N_SHADER || d->kind == N_FUNCTION)
            collect(d, NULL);
    find_captures();
    *n = ninfos;
    return infos;
}

void lower_forget(void)
{
    for (int i = 0; i < ninfos; i++) {
        free(infos[i]->caps);
        free(infos[i]);
    }
    free(infos);
    free(owners);
    infos = NULL, owners = NULL;
    ninfos = capinfos = nowners = capowners = 0;
}
