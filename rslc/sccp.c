/*
** sccp.c: sparse conditional constant propagation (Wegman and Zadeck,
** "Constant Propagation with Conditional Branches", 1991).
**
** Values move down the lattice top (no evidence yet) -> constant ->
** bottom (varies); blocks become executable only through edges whose
** branch can go that way. Phis meet only over executable edges, so a
** constant that survives a loop or a dead arm is found. Then constant
** values are replaced, branches with one live edge become jumps, and the
** blocks never reached are deleted.
**
** Undef: as a phi operand it is ignored (the phi takes the other value,
** which undef may as well be); as any other operand it is bottom. A branch
** on a phi of undefs alone takes its first edge.
**
** requires: ssa; preserves: regions; breaks: rpo, dom, loops.
*/
#include <stdlib.h>

#include "rslc/pass.h"

enum { TOP, CONST, BOT, UNDEF };

typedef struct Sccp {
    IrFunc *fn;
    char *state;               /* by value id */
    IrConst **cval;
    bool *exec;                /* by block id */
    bool (*feas)[2];           /* by block id: its successor edges */
    PtrVec blocks, insns;      /* work lists */
} Sccp;

static int lattice(const Sccp *s, IrVal *v, IrConst **c)
{
    switch (v->kind) {
    case IRV_CONST: *c = (IrConst *)v; return CONST;
    case IRV_UNDEF: return UNDEF;
    default: *c = s->cval[v->id]; return s->state[v->id];
    }
}

static void lower(Sccp *s, IrIns *i, int state, IrConst *c)
{
    int id = i->val.id;
    if (state == CONST && s->state[id] == CONST && s->cval[id] != c)
        state = BOT;
    if (state <= s->state[id])
        return;
    s->state[id] = (char)state;
    s->cval[id] = c;
    for (int u = 0; u < i->val.nuses; u++)
        vec_push(&s->insns, i->val.uses[u].user);
}

static void reach(Sccp *s, IrBlock *to)
{
    if (!s->exec[to->id]) {
        s->exec[to->id] = true;
        vec_push(&s->blocks, to);
    } else {
        for (IrIns *p = to->first; p && p->op == IR_phi; p = p->next)
            vec_push(&s->insns, p);
    }
}

static void mark_edge(Sccp *s, IrBlock *b, int slot)
{
    if (s->feas[b->id][slot])
        return;
    s->feas[b->id][slot] = true;
    reach(s, opt_term(b)->succ[slot]);
}

static bool edge_feasible(const Sccp *s, const IrBlock *from, const IrBlock *to)
{
    const IrIns *t = opt_term(from);
    return s->exec[from->id] && ((t->succ[0] == to && s->feas[from->id][0])
                                 || (t->succ[1] == to && s->feas[from->id][1]));
}

static void visit_phi(Sccp *s, IrIns *p)
{
    int state = TOP;
    IrConst *c = NULL;
    for (int k = 0; k < p->nargs && state != BOT; k++) {
        IrConst *ck = NULL;
        if (!edge_feasible(s, p->block->preds[k], p->block))
            continue;
        int sk = lattice(s, p->args[k], &ck);
        if (sk == BOT || (sk == CONST && state == CONST && ck != c))
            state = BOT;
        else if (sk == CONST)
            state = CONST, c = ck;
    }
    lower(s, p, state, c);
}

static void visit_term(Sccp *s, IrIns *t)
{
    IrConst *c;
    bool b;
    if (t->op != IR_br) {
        for (int k = 0; k < 2; k++)
            if (t->succ[k])
                mark_edge(s, t->block, k);
        /* Gather's miss body is entered by the region, not by an edge. */
        if (t->op == IR_region && s->fn->regions[t->imm].miss)
            reach(s, s->fn->regions[t->imm].miss);
        return;
    }
    int st = lattice(s, t->args[0], &c);
    if (st == CONST && opt_const_bool(&c->val, &b)) {
        mark_edge(s, t->block, b ? 0 : 1);
    } else if (st != TOP) {
        mark_edge(s, t->block, 0);
        mark_edge(s, t->block, 1);
    }
}

static void visit(Sccp *s, IrIns *i)
{
    IrConst *args[64], *c;
    if (i->op == IR_phi)
        return visit_phi(s, i);
    if (ir_op_flags(i->op) & OP_TERM)
        return visit_term(s, i);
    if (i->val.type.kind == IRT_VOID)
        return;
    unsigned flags = ir_op_flags(i->op);
    if (!((flags & OP_FOLD) || i->op == IR_intrin) || !opt_movable(i) || i->nargs > 64)
        return lower(s, i, BOT, NULL);
    bool cond;
    if (i->op == IR_select && lattice(s, i->args[0], &c) == CONST
        && opt_const_bool(&c->val, &cond)) {
        int st = lattice(s, i->args[cond ? 1 : 2], &c);
        return lower(s, i, st == UNDEF ? BOT : st, c);
    }
    int worst = CONST;
    for (int k = 0; k < i->nargs; k++) {
        int st = lattice(s, i->args[k], &args[k]);
        if (st == BOT || st == UNDEF)
            return lower(s, i, BOT, NULL);
        if (st == TOP)
            worst = TOP;
    }
    if (worst == TOP)
        return;
    c = fold_eval(s->fn, i, (IrVal *const *)args);
    lower(s, i, c ? CONST : BOT, c);
}

static void solve(Sccp *s)
{
    while (s->blocks.n || s->insns.n) {
        if (s->blocks.n) {
            IrBlock *b = s->blocks.p[--s->blocks.n];
            for (IrIns *i = b->first; i; i = i->next)
                visit(s, i);
        } else {
            IrIns *i = s->insns.p[--s->insns.n];
            if (s->exec[i->block->id])
                visit(s, i);
        }
    }
}

/* Branches still waiting on a value that only undef reaches. */
static bool resolve_undef(Sccp *s)
{
    IrConst *c;
    for (IrBlock *b = s->fn->entry; b; b = b->next) {
        IrIns *t = opt_term(b);
        if (s->exec[b->id] && t->op == IR_br && !s->feas[b->id][0]
            && !s->feas[b->id][1] && lattice(s, t->args[0], &c) == TOP) {
            mark_edge(s, b, 0);
            return true;
        }
    }
    return false;
}

static bool rewrite(Sccp *s)
{
    bool changed = false;
    for (IrBlock *b = s->fn->entry; b; b = b->next) {
        if (!s->exec[b->id])
            continue;
        for (IrIns *i = b->first, *next; i; i = next) {
            next = i->next;
            if (i->val.type.kind != IRT_VOID && s->state[i->val.id] == CONST
                && (i->op == IR_phi || opt_movable(i))) {
                opt_replace(i, &s->cval[i->val.id]->val);
                changed = true;
            }
        }
        IrIns *t = opt_term(b);
        bool *f = s->feas[b->id];
        if (t->op == IR_br && f[0] != f[1]) {
            opt_br_to_jmp(t, f[0] ? 0 : 1);
            changed = true;
        }
    }
    return opt_remove_unreachable(s->fn) || changed;
}

bool pass_sccp(IrFunc *fn)
{
    size_t nv = (size_t)fn->next_val_id, nb = (size_t)fn->next_block_id;
    Sccp s = { .fn = fn, .state = calloc(nv, 1), .cval = calloc(nv, sizeof(IrConst *)),
               .exec = calloc(nb, sizeof(bool)), .feas = calloc(nb, sizeof(bool[2])) };
    s.exec[fn->entry->id] = true;
    vec_push(&s.blocks, fn->entry);
    do
        solve(&s);
    while (resolve_undef(&s));
    bool changed = rewrite(&s);
    free(s.state);
    free(s.cval);
    free(s.exec);
    free(s.feas);
    vec_free(&s.blocks);
    vec_free(&s.insns);
    return changed;
}
