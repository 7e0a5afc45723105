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
** callouts (output arguments) take the returned values. A callee's
** regions (illuminance, illuminate, solar, gather) are copied with its
** blocks to the end of the caller's region table (copy_regions).
**
** Copies keep the callee's source locations (the debugger steps into the
** inlined body), and run in a new frame of the caller (ir.h) whose parent
** is the call's: the callee's own frames and source variables are copied
** below it, and a parameter's name passes to the argument's value. A
** copied value is varying when it was in the callee or the call is: the
** call's arguments or its context may vary.
**
** Output arguments: the callee's `ret` carries the return value first
** (when the function returns one), then the final value of each output
** parameter in parameter order; `callout i` of the call reads the value of
** output parameter i.
**
** Cost: the call graph (callgraph.c) answers which functions are
** recursive and how often each is called, once per round. Within a round
** a function is copied only as it was when the round began: a callee
** that has had calls inlined into it this round waits for the next. (In
** one round, each function of a chain copying its already grown callee
** made the chain's total size quadratic.) The VM's inlining of
** everything (pass_inline_into) works top-down on the one function it
** flattens and first adds up the size that would come out, refusing
** past RSLC_MAX_INLINED_SIZE: a tree of calls can double with each level.
**
** requires: nothing; preserves: regions; breaks: rpo, dom, loops.
*/
#include <limits.h>
#include <stdlib.h>

#include "rslc/diag.h"
#include "rslc/pass.h"

enum { INLINE_SIZE = 40, INLINE_ROUNDS = 4 };

/* fn's instruction count, counted up to `cap` at most. */
static long size(const IrFunc *fn, long cap)
{
    long n = 0;
    for (const IrBlock *b = fn->entry; b && n < cap; b = b->next)
        for (const IrIns *i = b->first; i && n < cap; i = i->next)
            n++;
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
    IrBlock **orig;            /* by caller block id - base: the callee block
                                  copied (only copies are asked for) */
    int base;                  /* the first copy's block id */
    PtrVec *calls;             /* gets the calls copied, if not NULL */
    int region0;               /* the caller's index of the callee's region 0 */
    PtrVec rets;               /* copied blocks that returned */
    PtrVec retins;             /* their callee ret instructions */
    int *frame;                /* by callee frame: the caller's copy */
    int *var;                  /* by callee debug variable: the caller's */
    int var_base;              /* the first of those */
} Copy;

/* The callee's frames and debug variables, copied under a new frame for
   the call. */
static void copy_debug(Copy *c)
{
    IrFunc *fn = c->fn, *g = c->g;
    int nf = g->nframes ? g->nframes : 1;
    c->frame = calloc((size_t)nf, sizeof *c->frame);
    c->var = calloc((size_t)g->ndbgvars + 1, sizeof *c->var);
    c->var_base = fn->ndbgvars;
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

/* Names `to` after the copies of from's variables. A value may already
   carry thousands of names (an argument passed to as many inlined
   copies), so the check for a duplicate looks only at this copy's
   variables, which are the newest and so at the end of its list. */
static void copy_names(Copy *c, const IrIns *from, IrVal *to)
{
    const IrIns *t = to->kind == IRV_INS ? (const IrIns *)to : NULL;
    for (int k = 0; k < from->ndbg; k++) {
        int var = c->var[from->dbg[k]];
        bool dup = false;
        for (int j = t ? t->ndbg - 1 : -1; j >= 0 && t->dbg[j] >= c->var_base && !dup; j--)
            dup = t->dbg[j] == var;
        if (!dup)
            ir_dbg_name_fresh(to, var);
    }
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
        IrBlock *nb = ir_block_new_after(after);
        after = c->blk[b->id] = nb;
        c->orig[nb->id - c->base] = b;
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
            n->pin = i->pin;
            n->val.varying = i->val.varying || c->call->val.varying;
            ir_append(nb, n);
            if (i->val.type.kind != IRT_VOID)
                c->val[i->val.id] = &n->val;
            if (i->op == IR_call && c->calls)
                vec_push(c->calls, n);
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
                int from = opt_pred_index(b, c->orig[nb->preds[j]->id - c->base], k);
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

/* Inlines call into fn; the calls it copies go to calls if not NULL. */
static void inline_call(IrFunc *fn, IrIns *call, PtrVec *calls)
{
    IrFunc *g = call->callee;
    IrBlock *b = call->block, *cont = opt_split_block(call->next);
    Copy c = { .fn = fn, .g = g, .call = call,
               .val = calloc((size_t)g->next_val_id, sizeof(IrVal *)),
               .blk = calloc((size_t)g->next_block_id, sizeof(IrBlock *)),
               .orig = calloc((size_t)g->next_block_id + 1, sizeof(IrBlock *)),
               .base = fn->next_block_id, .calls = calls, .region0 = fn->nregions };
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

/* Can call be inlined: a call of a function whose body can be copied,
   with every argument, that does not reach itself? */
static bool inlinable(const CallGraph *cg, const IrIns *call)
{
    const IrFunc *g = call->callee;
    int k = call->op == IR_call ? callgraph_index(cg, g) : -1;
    return k >= 0 && !cg->cyclic[k] && copyable(g) && call->nargs >= g->nparams;
}

/* One round of -O2's inlining: small callees, and those called once,
   each as it was when the round began (see the top). */
static bool inline_round(IrModule *m)
{
    CallGraph cg;
    callgraph_build(&cg, m);
    bool *grown = calloc((size_t)m->nfuncs + 1, sizeof *grown), any = false;
    for (int f = 0; f < m->nfuncs; f++) {
        IrFunc *fn = m->funcs[f];
        PtrVec calls = { 0 }, copied = { 0 };
        for (IrBlock *b = fn->entry; b; b = b->next)
            for (IrIns *i = b->first; i; i = i->next) {
                if (!inlinable(&cg, i))
                    continue;
                int k = callgraph_index(&cg, i->callee);
                if (!grown[k]
                    && (cg.sites[k] == 1 || size(i->callee, INLINE_SIZE + 1) <= INLINE_SIZE))
                    vec_push(&calls, i);
            }
        for (int k = 0; k < calls.n; k++) {
            IrIns *call = calls.p[k];
            cg.sites[callgraph_index(&cg, call->callee)]--;
            inline_call(fn, call, &copied);
        }
        /* The copies are calls too: later callers count them. */
        for (int k = 0; k < copied.n; k++)
            cg.sites[callgraph_index(&cg, ((IrIns *)copied.p[k])->callee)]++;
        grown[f] = calls.n > 0;
        any |= calls.n > 0;
        vec_free(&calls);
        vec_free(&copied);
    }
    free(grown);
    callgraph_free(&cg);
    return any;
}

bool pass_inline(IrModule *m)
{
    bool changed = false;
    for (int round = 0; round < INLINE_ROUNDS && inline_round(m); round++)
        changed = true;
    return changed;
}

/* A function of size n after a call in it is replaced by a body of size
   g, saturating at LONG_MAX / 2. */
static long grow(long n, long g)
{
    return n > LONG_MAX / 2 - g ? LONG_MAX / 2 : n + g - 1;
}

/* The size of each function of cg once everything it calls is inlined:
   its own size plus, for each inlinable call, the callee's flattened size
   less the call. Post-order over the calls from fn, iteratively (chains
   can be long). */
static long flat_size(const CallGraph *cg, const IrFunc *fn, long *flat)
{
    PtrVec stack = { 0 };
    vec_push(&stack, (void *)fn);
    while (stack.n) {
        const IrFunc *f = stack.p[stack.n - 1];
        int fk = callgraph_index(cg, f);
        if (flat[fk] >= 0) {
            stack.n--;
            continue;
        }
        bool ready = true;
        long total = size(f, LONG_MAX);
        for (const IrBlock *b = f->entry; b; b = b->next)
            for (const IrIns *i = b->first; i; i = i->next) {
                if (!inlinable(cg, i))
                    continue;
                long g = flat[callgraph_index(cg, i->callee)];
                if (g < 0) {
                    ready = false;
                    vec_push(&stack, i->callee);
                } else {
                    total = grow(total, g);
                }
            }
        if (ready) {
            flat[fk] = total;
            stack.n--;
        }
    }
    vec_free(&stack);
    return flat[callgraph_index(cg, fn)];
}

/* The error for the call at which fn's size would cross the limit. The
   -O2 inliner may have copied the call from a function that fn calls:
   then the call in the source of fn is the outermost inlined frame's. */
static void report(RslcCtx *rc, const IrFunc *fn, const IrIns *call, long size)
{
    const char *name = call->callee->name;
    SrcLoc at = call->loc;
    int k = call->loc.inl;
    while (k > 0 && k < fn->nframes && fn->frames[k].parent > 0)
        k = fn->frames[k].parent;
    if (k > 0 && k < fn->nframes)
        name = fn->frames[k].func, at = fn->frames[k].call;
    diag_error(rc, at, "inlining '%s' would make the shader %ld instructions, over the limit of %d",
               name, size, (int)RSLC_MAX_INLINED_SIZE);
}

bool pass_inline_into(RslcCtx *rc, IrModule *m, IrFunc *fn, bool *changed)
{
    CallGraph cg;
    callgraph_build(&cg, m);
    long *flat = malloc(((size_t)m->nfuncs + 1) * sizeof *flat);
    for (int k = 0; k <= m->nfuncs; k++)
        flat[k] = -1;
    *changed = false;
    bool ok = flat_size(&cg, fn, flat) <= RSLC_MAX_INLINED_SIZE;
    PtrVec work = { 0 };
    /* Over the limit: name the call at which the running total crosses
       it, with the total up to there. */
    long running = size(fn, LONG_MAX);
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next) {
            if (!inlinable(&cg, i))
                continue;
            vec_push(&work, i);
            long g = flat[callgraph_index(&cg, i->callee)];
            running = grow(running, g);
            if (!ok && running > RSLC_MAX_INLINED_SIZE && rc) {
                report(rc, fn, i, running);
                rc = NULL;
            }
        }
    /* In order, the copied calls after those already there, as rounds
       over the function would go: the debugger's frames keep that order. */
    for (int k = 0; ok && k < work.n; k++) {
        IrIns *call = work.p[k];
        if (inlinable(&cg, call)) {
            inline_call(fn, call, &work);
            *changed = true;
        }
    }
    vec_free(&work);
    free(flat);
    callgraph_free(&cg);
    return ok;
}
