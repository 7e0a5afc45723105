/*
** ssa.c: SSA construction straight from the syntax tree, after Braun,
** Buchwald, Hack, Leißa, Mallon and Zwinkau, "Simple and Efficient
** Construction of Static Single Assignment Form" (CC 2013).
**
** Each source variable keeps its current definition per block. A read
** that finds none asks the predecessors: through a single predecessor
** directly, at a join through a phi. A block whose predecessors are not
** all known yet (a loop header before its back edges) is unsealed: reads
** there place incomplete phis, completed when the block is sealed. A phi
** whose operands are all one value (or itself) is trivial and is replaced
** by that value; its users may become trivial in turn. Removed phis are
** kept (unlinked from every use) until the function is done, since the
** current-definition tables may still name them: reads look through the
** forwarding table.
**
** Entry values: a read that reaches the entry block without a definition
** yields the variable's value on entry: undef for locals (ir.h: passes
** may assume anything, backends give zero), `param i` for parameters and
** captures, `gget` for shader globals. These go to the top of the entry
** block in the order they are first needed.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/lower_impl.h"

void *lower_alloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        diag_die("out of memory");
    return p;
}

void *lower_grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    p = realloc(p, (size_t)n * size);
    if (!p)
        diag_die("out of memory");
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    *cap = n;
    return p;
}

int var_get(Lower *L, const void *key, const char *name, IrType type, VarEntry entry,
            int param)
{
    for (int i = 0; i < L->nvars; i++)
        if (L->vars[i].key == key)
            return i;
    L->vars = lower_grow(L->vars, &L->capvars, L->nvars + 1, sizeof *L->vars);
    Var *v = &L->vars[L->nvars];
    v->key = key;
    v->name = name;
    v->type = type;
    v->entry = entry;
    v->param = param;
    /* The function's result slot is no source variable. */
    v->dbg = strcmp(name, "return") && type.kind != IRT_VOID && type.kind != IRT_TUPLE
                 ? ir_dbgvar_add(L->fn, name, type, 0) : -1;
    return L->nvars++;
}

static BlockState *state(Lower *L, const IrBlock *b)
{
    L->bs = lower_grow(L->bs, &L->capbs, b->id + 1, sizeof *L->bs);
    return &L->bs[b->id];
}

IrBlock *ssa_block(Lower *L)
{
    IrBlock *b = ir_block_new(L->fn);
    state(L, b);
    return b;
}

/* A value, seen through the phis removed as trivial. */
/* What v stands for once removed phis are followed. The path is
   compressed: in a deep nest of loops each removed phi forwards to the
   one outside it, and walking those chains on every read was cubic. */
static IrVal *resolve(Lower *L, IrVal *v)
{
    IrVal *root = v;
    while (root && root->kind == IRV_INS && root->id < L->capfwd && L->fwd[root->id])
        root = L->fwd[root->id];
    while (v != root) {
        IrVal *next = L->fwd[v->id];
        L->fwd[v->id] = root;
        v = next;
    }
    return root;
}

void ssa_write(Lower *L, int var, IrBlock *b, IrVal *v)
{
    Var *x = &L->vars[var];
    x->def = lower_grow(x->def, &x->capdef, b->id + 1, sizeof *x->def);
    x->def[b->id] = v;
    ir_dbg_name(v, x->dbg);
}

static IrVal *entry_value(Lower *L, Var *x, SrcLoc loc)
{
    IrIns *ins;
    switch (x->entry) {
    case VE_PARAM:
        ins = ir_ins_new(L->fn, IR_param, x->type, loc);
        ins->imm = x->param;
        break;
    case VE_GLOBAL:
        ins = ir_ins_new(L->fn, IR_gget, x->type, loc);
        ins->sym = ir_intern(L->fn, x->name);
        break;
    case VE_NOREGION:
        diag_error(L->u->rc, loc, "'%s' is read outside %s (through a function call)", x->name,
                   L->kind == SHADER_LIGHT ? "illuminate or solar" : "illuminance");
        x->entry = VE_UNDEF;
        return ir_undef(L->fn, x->type);
    default:
        return ir_undef(L->fn, x->type);
    }
    IrBlock *e = L->fn->entry;
    IrIns *pos = L->prologue ? L->prologue->next : e->first;
    if (pos)
        ir_insert_before(pos, ins);
    else
        ir_append(e, ins);
    L->prologue = ins;
    return &ins->val;
}

static IrIns *new_phi(Lower *L, Var *x, IrBlock *b, SrcLoc loc)
{
    IrIns *phi = ir_ins_new(L->fn, IR_phi, x->type, loc);
    if (b->first)
        ir_insert_before(b->first, phi);
    else
        ir_append(b, phi);
    return phi;
}

static IrVal *try_remove_trivial(Lower *L, IrIns *phi);

static IrVal *add_phi_operands(Lower *L, int var, IrIns *phi)
{
    IrBlock *b = phi->block;
    L->busy = lower_grow(L->busy, &L->capbusy, phi->val.id + 1, sizeof *L->busy);
    L->busy[phi->val.id] = true;
    for (int p = 0; p < b->npreds; p++)
        ir_ins_add_arg(phi, ssa_read(L, var, b->preds[p], phi->loc));
    L->busy[phi->val.id] = false;
    return try_remove_trivial(L, phi);
}

static IrVal *try_remove_trivial(Lower *L, IrIns *phi)
{
    IrVal *same = NULL, *self = &phi->val;
    if (phi->val.id < L->capbusy && L->busy[phi->val.id])
        return self;
    for (int k = 0; k < phi->nargs; k++) {
        IrVal *a = phi->args[k];
        if (a == same || a == self)
            continue;
        if (same)
            return self;
        same = a;
    }
    if (!same)   /* unreachable, or only itself: no value ever flows in */
        same = ir_undef(L->fn, phi->val.type);
    IrIns **users = lower_alloc((size_t)phi->val.nuses * sizeof *users);
    int nusers = 0;
    for (int u = 0; u < phi->val.nuses; u++)
        if (phi->val.uses[u].user != phi && phi->val.uses[u].user->op == IR_phi)
            users[nusers++] = phi->val.uses[u].user;
    ir_replace_uses(self, same);
    L->fwd = lower_grow(L->fwd, &L->capfwd, phi->val.id + 1, sizeof *L->fwd);
    L->fwd[phi->val.id] = same;
    L->dead = lower_grow(L->dead, &L->capdead, L->ndead + 1, sizeof *L->dead);
    L->dead[L->ndead++] = phi;
    for (int u = 0; u < nusers; u++)
        if (resolve(L, &users[u]->val) == &users[u]->val)
            try_remove_trivial(L, users[u]);
    free(users);
    return resolve(L, same);
}

IrVal *ssa_read(Lower *L, int var, IrBlock *b, SrcLoc loc)
{
    Var *x = &L->vars[var];
    if (b->id < x->capdef && x->def[b->id])
        return resolve(L, x->def[b->id]);
    BlockState *s = state(L, b);
    IrVal *v;
    if (!s->sealed) {
        IrIns *phi = new_phi(L, x, b, loc);
        s = state(L, b);
        s->iphi = lower_grow(s->iphi, &s->capiphi, s->niphi + 1, sizeof *s->iphi);
        s->ivar = realloc(s->ivar, (size_t)s->capiphi * sizeof *s->ivar);
        if (!s->ivar)
            diag_die("out of memory");
        s->iphi[s->niphi] = phi;
        s->ivar[s->niphi++] = var;
        v = &phi->val;
    } else if (b == L->fn->entry) {
        v = entry_value(L, x, loc);
    } else if (s->vpred) {
        v = ssa_read(L, var, s->vpred, loc);
    } else if (b->npreds == 1) {
        v = ssa_read(L, var, b->preds[0], loc);
    } else if (b->npreds == 0) {
        v = ir_undef(L->fn, x->type);
    } else {
        /* The phi is this block's definition while its operands are read,
           which ends the search around loops. */
        IrIns *phi = new_phi(L, x, b, loc);
        ssa_write(L, var, b, &phi->val);
        v = add_phi_operands(L, var, phi);
    }
    ssa_write(L, var, b, v);
    return v;
}

void ssa_seal(Lower *L, IrBlock *b)
{
    BlockState *s = state(L, b);
    if (s->sealed)
        return;
    /* add_phi_operands may add blocks and move the table: index it anew. */
    for (int i = 0; i < state(L, b)->niphi; i++) {
        s = state(L, b);
        add_phi_operands(L, s->ivar[i], s->iphi[i]);
    }
    s = state(L, b);
    s->sealed = true;
    free(s->iphi);
    free(s->ivar);
    s->iphi = NULL;
    s->ivar = NULL;
    s->niphi = s->capiphi = 0;
}

void ssa_finish(Lower *L)
{
    for (int i = 0; i < L->ndead; i++)
        ir_ins_delete(L->dead[i]);
    for (int i = 0; i < L->nvars; i++)
        free(L->vars[i].def);
    for (int i = 0; i < L->capbs; i++) {
        free(L->bs[i].iphi);
        free(L->bs[i].ivar);
    }
    free(L->vars);
    free(L->bs);
    free(L->fwd);
    free(L->busy);
    free(L->dead);
    free(L->jumps);
}
