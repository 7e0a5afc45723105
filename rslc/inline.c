/*
** inline.c: inlining of user functions into their callers.
**
** A call is inlined when the callee is small (at most INLINE_SIZE
** instructions) or called from one place only, and never when the callee
** can reach the caller through calls (recursion, direct or not). The
** caller's block is split after the call; the callee's blocks are copied
** between the halves with its parameters replaced by the call's arguments;
** each `ret` jumps to the second half, where a phi merges the returned
** values when there are several returns. The call's result and its
** callouts (output arguments) take the returned values. Callees holding
** regions are left as calls: a region belongs to one function's table.
**
** Copies keep the callee's source locations (the debugger steps into the
** inlined body), and run in a new frame of the caller (ir.h) whose parent
** is the call's: the callee's own frames and source variables are copied
** below it, and a parameter's name passes to the argument's value. A copied value is varying when it was in the callee or
** the call is: the call's arguments or its context may vary.
**
** Output arguments: the callee's `ret` carries the return value first
** (when the function returns one), then the final value of each output
** parameter in parameter order; `callout i` of the call reads the value of
** output parameter i.
**
** requires: nothing; preserves: regions; breaks: rpo, dom, loops.
*/
#include <stdlib.h>

#include "rslc/diag.h"
#include "rslc/pass.h"

enum { INLINE_SIZE = 40, INLINE_ROUNDS = 4 };

static int size(const IrFunc *fn)
{
    int n = 0;
    for (const IrBlock *b = fn->entry; b; b = b->next)
        for (const IrIns *i = b->first; i; i = i->next)
            n++;
    return n;
}

/* Does some call chain from `from` lead to `to`? (A function in a cycle
   of calls reaches itself: such a function is never inlined anywhere.) */
static bool reaches(const IrModule *m, const IrFunc *from, const IrFunc *to)
{
    bool *seen = calloc((size_t)m->nfuncs, sizeof *seen), found = false;
    PtrVec work = { 0 };
    vec_push(&work, (void *)from);
    while (work.n && !found) {
        const IrFunc *f = work.p[--work.n];
        for (const IrBlock *b = f->entry; b; b = b->next)
            for (const IrIns *i = b->first; i; i = i->next) {
                if (i->op != IR_call || !i->callee)
                    continue;
                found |= i->callee == to;
                for (int k = 0; k < m->nfuncs; k++)
                    if (m->funcs[k] == i->callee && !seen[k]) {
                        seen[k] = true;
                        vec_push(&work, i->callee);
                    }
            }
    }
    free(seen);
    vec_free(&work);
    return found;
}

static int call_sites(const IrModule *m, const IrFunc *callee)
{
    int n = 0;
    for (int k = 0; k < m->nfuncs; k++)
        for (const IrBlock *b = m->funcs[k]->entry; b; b = b->next)
            for (const IrIns *i = b->first; i; i = i->next)
                n += i->op == IR_call && i->callee == callee;
    return n;
}

/* Can g's body be copied? Not without a return to continue from. */
static bool copyable(const IrFunc *g)
{
    bool returns = false;
    if (!g->entry || g->entry->npreds)
        return false;
    for (const IrBlock *b = g->entry; b; b = b->next)
        for (const IrIns *i = b->first; i; i = i->next)
            returns |= i->op == IR_ret;
    return returns;
}

typedef struct Copy {
    IrFunc *fn, *g;
    IrIns *call;
    IrVal **val;               /* by callee value id */
    IrBlock **blk;             /* by callee block id */
    IrBlock **orig;            /* by caller block id: the callee block copied */
    int region0;               /* the caller's index of the callee's region 0 */
    PtrVec rets;               /* copied blocks that returned */
    PtrVec retins;             /* their callee ret instructions */
    int *frame;                /* by callee frame: the caller's copy */
    int *var;                  /* by callee debug variable: the caller's */
} Copy;

/* The callee's frames and debug variables, copied under a new frame for
   the call. */
static void copy_debug(Copy *c)
{
    IrFunc *fn = c->fn, *g = c->g;
    int nf = g->nframes ? g->nframes : 1;
    c->frame = calloc((size_t)nf, sizeof *c->frame);
    c->var = calloc((size_t)g->ndbgvars + 1, sizeof *c->var);
    ir_frame_add(fn, NULL, c->call->loc, -1);
    c->frame[0] = ir_frame_add(fn, g->name, c->call->loc, c->call->loc.inl);
    for (int k = 1; k < nf; k++) {
        SrcLoc at = g->frames[k].call;
        at.inl = c->frame[at.inl];
        c->frame[k] = ir_frame_add(fn, g->frames[k].func, at, c->frame[g->frames[k].parent]);
    }
    for (int k = 0; k < g->ndbgvars; k++)
        c->var[k] = ir_dbgvar_add(fn, g->dbgvars[k].name, g->dbgvars[k].type,
                                  c->frame[g->dbgvars[k].frame]);
}

static void copy_names(Copy *c, const IrIns *from, IrVal *to)
{
    for (int k = 0; k < from->ndbg; k++)
        ir_dbg_name(to, c->var[from->dbg[k]]);
}

static IrVal *map(Copy *c, IrVal *v)
{
    const IrConst *k = opt_const(v);
    if (v->kind == IRV_INS)
        return c->val[v->id];
    if (v->kind == IRV_UNDEF)
        return ir_undef(c->fn, v->type);
    if (v->type.arraylen)
        return &ir_const_array(c->fn, v->type, k->fa)->val;
    switch (v->type.kind) {
    case IRT_BOOL: return &ir_const_bool(c->fn, k->f[0] != 0)->val;
    case IRT_FLOAT: return &ir_const_float(c->fn, k->f[0])->val;
    case IRT_STRING: return &ir_const_string(c->fn, k->s)->val;
    case IRT_MATRIX: return &ir_const_matrix(c->fn, k->f)->val;
    default: return &ir_const_triple(c->fn, v->type.kind, k->f[0], k->f[1], k->f[2])->val;
    }
}

/* Copies the instructions of every callee block (operands come later:
   they may be defined further down). */
static void copy_blocks(Copy *c, IrBlock *after)
{
    for (IrBlock *b = c->g->entry; b; b = b->next) {
        IrBlock *nb = opt_block_after(after);
        after = c->blk[b->id] = nb;
        c->orig[nb->id] = b;
        for (IrIns *i = b->first; i; i = i->next) {
            if (i->op == IR_param) {
                c->val[i->val.id] = c->call->args[i->imm];
                copy_names(c, i, c->call->args[i->imm]);
                continue;
            }
            bool ret = i->op == IR_ret;
            SrcLoc loc = i->loc;
            loc.inl = c->frame[loc.inl];
            IrIns *n = ir_ins_new(c->fn, ret ? IR_jmp : i->op,
                                  ret ? ir_type(IRT_VOID) : i->val.type, loc);
            copy_names(c, i, &n->val);
            n->imm = i->op == IR_region ? i->imm + c->region0 : i->imm;
            n->sym = i->sym;
            n->callee = i->callee;
            n->val.varying = i->val.varying || c->call->val.varying;
            ir_append(nb, n);
            if (i->val.type.kind != IRT_VOID)
                c->val[i->val.id] = &n->val;
            if (ret) {
                vec_push(&c->rets, nb);
                vec_push(&c->retins, i);
            }
        }
    }
}

/* The callee's regions, over the copied blocks, at the end of the
   caller's table. */
static void copy_regions(Copy *c)
{
    IrFunc *fn = c->fn, *g = c->g;
    if (!g->nregions)
        return;
    fn->regions = realloc(fn->regions, (size_t)(fn->nregions + g->nregions) * sizeof *fn->regions);
    if (!fn->regions)
        diag_die("out of memory");
    for (int r = 0; r < g->nregions; r++) {
        const IrRegion *from = &g->regions[r];
        IrRegion *to = &fn->regions[c->region0 + r];
        to->kind = from->kind;
        to->header = c->blk[from->header->id];
        to->body = c->blk[from->body->id];
        to->miss = from->miss ? c->blk[from->miss->id] : NULL;
        to->exit = from->exit ? c->blk[from->exit->id] : NULL;
        to->category = from->category ? ir_intern(fn, from->category) : NULL;
    }
    fn->nregions += g->nregions;
}

static void wire(Copy *c, IrBlock *cont)
{
    for (IrBlock *b = c->g->entry; b; b = b->next) {
        IrIns *t = opt_term(b), *nt = opt_term(c->blk[b->id]);
        for (int s = 0; s < 2; s++)
            if (t->succ[s])
                ir_set_succ(nt, s, c->blk[t->succ[s]->id]);
        if (t->op == IR_ret)
            ir_set_succ(nt, 0, cont);
    }
    for (IrBlock *b = c->g->entry; b; b = b->next) {
        IrBlock *nb = c->blk[b->id];
        IrIns *n = nb->first;
        for (IrIns *i = b->first; i; i = i->next) {
            if (i->op == IR_param || i->op == IR_ret)
                continue;
            for (int j = 0; i->op == IR_phi && j < nb->npreds; j++) {
                /* The j-th copied edge is the k-th from its block. */
                int k = 0;
                for (int e = 0; e < j; e++)
                    k += nb->preds[e] == nb->preds[j];
                int from = opt_pred_index(b, c->orig[nb->preds[j]->id], k);
                IrVal *v = map(c, i->args[from]);
                if (j < n->nargs)
                    ir_ins_set_arg(n, j, v);
                else
                    ir_ins_add_arg(n, v);
            }
            for (int k = 0; i->op != IR_phi && k < i->nargs; k++)
                ir_ins_add_arg(n, map(c, i->args[k]));
            n = n->next;
        }
    }
}

/* The value returned in slot `which` (see the header comment), merged
   over the returns by a phi at the start of cont. */
static IrVal *returned(Copy *c, IrBlock *cont, int which, bool vary)
{
    IrIns *r0 = c->retins.p[0];
    if (c->rets.n == 1)
        return map(c, r0->args[which]);
    IrIns *phi = ir_ins_new(c->fn, IR_phi, r0->args[which]->type, c->call->loc);
    phi->val.varying = vary;
    for (int j = 0; j < cont->npreds; j++) {
        int r = 0;
        while (c->rets.p[r] != cont->preds[j])
            r++;
        IrVal *v = map(c, ((IrIns *)c->retins.p[r])->args[which]);
        phi->val.varying |= v->varying;
        ir_ins_add_arg(phi, v);
    }
    if (cont->first)
        ir_insert_before(cont->first, phi);
    else
        ir_append(cont, phi);
    return &phi->val;
}

static bool any_varying_branch(const IrFunc *g)
{
    for (const IrBlock *b = g->entry; b; b = b->next)
        if (opt_term(b)->op == IR_br && opt_term(b)->args[0]->varying)
            return true;
    return false;
}

static void inline_call(IrFunc *fn, IrIns *call)
{
    IrFunc *g = call->callee;
    IrBlock *b = call->block, *cont = opt_split_block(call->next);
    Copy c = { .fn = fn, .g = g, .call = call,
               .val = calloc((size_t)g->next_val_id, sizeof(IrVal *)),
               .blk = calloc((size_t)g->next_block_id, sizeof(IrBlock *)),
               .orig = calloc((size_t)(fn->next_block_id + g->next_block_id + 1),
                              sizeof(IrBlock *)),
               .region0 = fn->nregions };
    copy_debug(&c);
    copy_blocks(&c, b);
    copy_regions(&c);
    IrIns *j = ir_ins_new(fn, IR_jmp, ir_type(IRT_VOID), call->loc);
    ir_append(b, j);
    ir_set_succ(j, 0, c.blk[g->entry->id]);
    wire(&c, cont);
    bool vary = call->val.varying || any_varying_branch(g);
    int first_out = g->ret.kind != IRT_VOID;
    while (call->val.nuses) {
        IrIns *user = call->val.uses[0].user;
        if (call->val.type.kind != IRT_TUPLE) {
            ir_replace_uses(&call->val, returned(&c, cont, 0, vary));
            continue;
        }
        int slot = first_out;
        for (int p = 0; p < user->imm; p++)
            slot += g->params[p].output;
        opt_replace(user, returned(&c, cont, slot, vary));
    }
    ir_ins_delete(call);
    free(c.val);
    free(c.blk);
    free(c.orig);
    free(c.frame);
    free(c.var);
    vec_free(&c.rets);
    vec_free(&c.retins);
}

/* all: every call that can be inlined is (the bytecode VM has no calls). */
static bool worth_inlining(const IrModule *m, const IrFunc *fn, const IrIns *call, bool all)
{
    const IrFunc *g = call->callee;
    return call->op == IR_call && g && copyable(g) && call->nargs >= g->nparams
        && (all || size(g) <= INLINE_SIZE || call_sites(m, g) == 1)
        && !reaches(m, g, g) && !reaches(m, g, fn);
}

static bool inline_calls(IrModule *m, bool all)
{
    bool changed = false, again = true;
    for (int round = 0; round < INLINE_ROUNDS && again; round++) {
        again = false;
        for (int f = 0; f < m->nfuncs; f++) {
            IrFunc *fn = m->funcs[f];
            PtrVec calls = { 0 };
            for (IrBlock *b = fn->entry; b; b = b->next)
                for (IrIns *i = b->first; i; i = i->next)
                    if (worth_inlining(m, fn, i, all))
                        vec_push(&calls, i);
            for (int k = 0; k < calls.n; k++)
                inline_call(fn, calls.p[k]);
            again |= calls.n > 0;
            vec_free(&calls);
        }
        changed |= again;
    }
    return changed;
}

bool pass_inline(IrModule *m)
{
    return inline_calls(m, false);
}

bool pass_inline_all(IrModule *m)
{
    bool changed = false;
    while (inline_calls(m, true))
        changed = true;
    return changed;
}
