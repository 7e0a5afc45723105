/*
** optutil.c: what the optimisation passes share: instruction properties,
** constants, and the CFG edits that keep preds, phi operands and regions
** consistent together.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/builtins.h"
#include "rslc/pass.h"

/* ---- properties ----------------------------------------------------------------- */

const char *opt_builtin_name(int row)
{
    return builtin_fn_names[builtin_rows[row].fn];
}

/* Builtins with effects must stay; the others may go when unused. Only the
   pure ones may also move or merge: derivatives and area depend on the
   neighbouring shading points (and so on the execution mask), lighting and
   renderer queries on the scene. */
bool opt_removable(const IrIns *ins)
{
    unsigned f = ir_op_flags(ins->op);
    if (ins->op == IR_intrin)
        return builtin_rows[ins->imm].cls != BC_SIDE;
    return !(f & (OP_TERM | OP_SIDE));
}

bool opt_movable(const IrIns *ins)
{
    if (ins->op == IR_intrin)
        return builtin_rows[ins->imm].cls == BC_PURE;
    return (ir_op_flags(ins->op) & OP_PURE) && ins->op != IR_phi && ins->op != IR_light
        && ins->op != IR_nop;
}

/* A pure builtin with a string argument looks a name up when it runs (a
   coordinate system, colour space or spline basis), and an unknown name
   stops the run; so it may be merged with an equal call that dominates
   it, but never run for points whose path does not reach it. */
bool opt_speculable(const IrIns *ins)
{
    if (ins->op == IR_intrin && strchr(builtin_rows[ins->imm].sig + 1, 's'))
        return false;
    return opt_movable(ins);
}

IrConst *opt_const(const IrVal *v)
{
    return v->kind == IRV_CONST ? (IrConst *)v : NULL;
}

bool opt_const_bool(const IrVal *v, bool *out)
{
    if (v->kind != IRV_CONST || v->type.kind != IRT_BOOL)
        return false;
    *out = ((const IrConst *)v)->f[0] != 0;
    return true;
}

int opt_ncomp(IrKind k)
{
    switch (k) {
    case IRT_BOOL: case IRT_FLOAT: return 1;
    case IRT_MATRIX: return 16;
    default: return ir_is_triple(k) ? 3 : 0;
    }
}

/* ---- instructions ------------------------------------------------------------------ */

void opt_replace(IrIns *ins, IrVal *v)
{
    ir_replace_uses(&ins->val, v);
    ir_ins_delete(ins);
}

static void drop_args(IrIns *ins)
{
    for (int k = 0; k < ins->nargs; k++)
        if (ins->args[k]->kind == IRV_INS)
            ir_ins_set_arg(ins, k, ir_undef(ins->block->fn, ins->args[k]->type));
}

void opt_delete_all(IrIns **dead, int n)
{
    for (int i = 0; i < n; i++)
        drop_args(dead[i]);
    for (int i = 0; i < n; i++)
        ir_ins_delete(dead[i]);
}

static void unlink_ins(IrIns *ins)
{
    IrBlock *b = ins->block;
    *(ins->prev ? &ins->prev->next : &b->first) = ins->next;
    *(ins->next ? &ins->next->prev : &b->last) = ins->prev;
    ins->prev = ins->next = NULL;
}

void opt_move_before(IrIns *ins, IrIns *pos)
{
    unlink_ins(ins);
    ins->block = pos->block;
    ins->next = pos;
    ins->prev = pos->prev;
    *(pos->prev ? &pos->prev->next : &pos->block->first) = ins;
    pos->prev = ins;
}

/* ---- blocks and edges ------------------------------------------------------------- */

bool opt_region_block(const IrFunc *fn, const IrBlock *b)
{
    for (int r = 0; r < fn->nregions; r++) {
        const IrRegion *g = &fn->regions[r];
        if (b == g->header || b == g->body || b == g->miss || b == g->exit)
            return true;
    }
    return false;
}

int opt_pred_index(const IrBlock *to, const IrBlock *from, int k)
{
    for (int i = 0; i < to->npreds; i++)
        if (to->preds[i] == from && k-- == 0)
            return i;
    return -1;
}

/* Makes `to`'s predecessor entries for `from` name `by` instead. */
static void rename_pred(IrBlock *to, IrBlock *from, IrBlock *by)
{
    for (int i = 0; i < to->npreds; i++)
        if (to->preds[i] == from)
            to->preds[i] = by;
}

/* The terminator's edges disappear without touching its targets' preds
   (the caller has dealt with them); then it can be deleted. */
static void delete_term(IrIns *t)
{
    t->succ[0] = t->succ[1] = NULL;
    ir_ins_delete(t);
}

void opt_br_to_jmp(IrIns *br, int keep)
{
    IrBlock *b = br->block;
    IrIns *j = ir_ins_new(b->fn, IR_jmp, ir_type(IRT_VOID), br->loc);
    ir_remove_pred(br->succ[!keep], b);
    ir_insert_before(br, j);
    j->succ[0] = br->succ[keep];
    delete_term(br);
}

void opt_retarget(IrIns *term, int slot, IrBlock *to, IrVal *const *vals)
{
    IrBlock *from = term->block;
    ir_remove_pred(term->succ[slot], from);
    term->succ[slot] = NULL;
    ir_set_succ(term, slot, to);
    int k = to->npreds - 1, i = 0;
    for (IrIns *p = to->first; p && p->op == IR_phi; p = p->next, i++)
        if (p->nargs < to->npreds)
            ir_ins_add_arg(p, vals[i]);
        else
            ir_ins_set_arg(p, k, vals[i]);
}

/* Moves ins and everything after it in its block to the end of dst; the
   successors of a moved terminator learn their new predecessor. */
static void move_tail(IrIns *ins, IrBlock *dst)
{
    IrBlock *src = ins->block;
    while (ins) {
        IrIns *next = ins->next;
        unlink_ins(ins);
        ins->block = dst;
        ins->prev = dst->last;
        *(dst->last ? &dst->last->next : &dst->first) = ins;
        dst->last = ins;
        if (ir_op_flags(ins->op) & OP_TERM)
            for (int s = 0; s < 2; s++)
                if (ins->succ[s])
                    rename_pred(ins->succ[s], src, dst);
        ins = next;
    }
}

void opt_merge_blocks(IrBlock *b, IrBlock *s)
{
    while (s->first && s->first->op == IR_phi)
        opt_replace(s->first, s->first->args[0]);
    ir_remove_pred(s, b);
    delete_term(opt_term(b));
    move_tail(s->first, b);
    ir_block_delete(s);
}

IrBlock *opt_split_block(IrIns *ins)
{
    IrBlock *b = ins->block, *nb = ir_block_new_after(b);
    move_tail(ins, nb);
    return nb;
}

IrBlock *opt_preheader(IrFunc *fn, IrBlock *h, const bool *inloop, bool *created)
{
    PtrVec out = { 0 };
    *created = false;
    for (int k = 0; k < h->npreds; k++)
        if (!inloop[h->preds[k]->id]) {
            IrIns *t = opt_term(h->preds[k]);
            if (t->op != IR_jmp && t->op != IR_br) {
                vec_free(&out);
                return NULL;
            }
            vec_push(&out, h->preds[k]);
        }
    IrBlock *only = out.n == 1 ? out.p[0] : NULL;
    if (!out.n || (only && opt_term(only)->op == IR_jmp)) {
        vec_free(&out);
        return only;
    }
    /* A new block: the outside edges move to it, and each phi of h gets
       the outside operands merged there (by a phi if they differ). */
    IrBlock *pre = ir_block_new_after(h->prev);
    IrIns *j = ir_ins_new(fn, IR_jmp, ir_type(IRT_VOID), h->first->loc);
    ir_append(pre, j);
    int nphi = 0;
    for (IrIns *p = h->first; p && p->op == IR_phi; p = p->next)
        nphi++;
    IrVal **merged = calloc((size_t)nphi + 1, sizeof *merged);
    IrVal **vals = calloc((size_t)nphi + 1, sizeof *vals);
    PtrVec prephis = { 0 };
    int i = 0;
    for (IrIns *p = h->first; p && p->op == IR_phi; p = p->next, i++) {
        IrVal *same = NULL;
        bool differ = false;
        for (int k = 0; k < h->npreds; k++)
            if (!inloop[h->preds[k]->id]) {
                differ |= same && same != p->args[k];
                same = p->args[k];
            }
        merged[i] = same;
        if (differ) {
            IrIns *q = ir_ins_new(fn, IR_phi, p->val.type, p->loc);
            q->val.varying = p->val.varying;
            ir_insert_before(j, q);
            vec_push(&prephis, q);
            merged[i] = &q->val;
        }
    }
    while (out.n) {
        IrBlock *pb = out.p[--out.n];
        IrIns *t = opt_term(pb);
        int slot = t->succ[0] == h ? 0 : 1, k = opt_pred_index(h, pb, 0), n = 0;
        i = 0;
        for (IrIns *p = h->first; p && p->op == IR_phi; p = p->next, i++)
            if (merged[i] && merged[i]->kind == IRV_INS
                && ((IrIns *)merged[i])->block == pre)
                vals[n++] = p->args[k];
        opt_retarget(t, slot, pre, vals);
        if (t->succ[!slot] == h)
            vec_push(&out, pb);
    }
    ir_set_succ(j, 0, h);
    i = 0;
    for (IrIns *p = h->first; p && p->op == IR_phi; p = p->next, i++)
        if (p->nargs < h->npreds)
            ir_ins_add_arg(p, merged[i]);
        else
            ir_ins_set_arg(p, h->npreds - 1, merged[i]);
    free(merged);
    free(vals);
    vec_free(&prephis);
    vec_free(&out);
    *created = true;
    return pre;
}

static void reach(IrFunc *fn, IrBlock *b, bool *seen)
{
    PtrVec work = { 0 };
    vec_push(&work, b);
    while (work.n) {
        b = work.p[--work.n];
        if (seen[b->id])
            continue;
        seen[b->id] = true;
        IrIns *t = opt_term(b);
        for (int s = 0; s < 2; s++)
            if (t->succ[s])
                vec_push(&work, t->succ[s]);
        if (t->op == IR_region && fn->regions[t->imm].miss)
            vec_push(&work, fn->regions[t->imm].miss);
    }
    vec_free(&work);
}

bool opt_remove_unreachable(IrFunc *fn)
{
    bool *seen = calloc((size_t)fn->next_block_id, sizeof *seen);
    PtrVec dead = { 0 };
    reach(fn, fn->entry, seen);
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (!seen[b->id])
            vec_push(&dead, b);
    for (int d = 0; d < dead.n; d++) {
        IrBlock *b = dead.p[d];
        IrIns *t = opt_term(b);
        for (int s = 0; s < 2; s++)
            if (t->succ[s])
                ir_remove_pred(t->succ[s], b);
        t->succ[0] = t->succ[1] = NULL;
        for (IrIns *i = b->first; i; i = i->next)
            drop_args(i);
    }
    for (int r = 0; r < fn->nregions; r++) {
        IrRegion *g = &fn->regions[r];
        if (g->header && !seen[g->header->id])
            g->header = g->body = g->miss = g->exit = NULL;
    }
    for (int d = 0; d < dead.n; d++)
        ir_block_delete(dead.p[d]);
    bool changed = dead.n > 0;
    vec_free(&dead);
    free(seen);
    return changed;
}

/* ---- vectors --------------------------------------------------------------------- */

void vec_push(PtrVec *v, void *x)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->p = realloc(v->p, (size_t)v->cap * sizeof *v->p);
    }
    v->p[v->n++] = x;
}

void vec_free(PtrVec *v)
{
    free(v->p);
    *v = (PtrVec){ 0 };
}
