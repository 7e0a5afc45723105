/*
** linearize.c: the VM back end's control flow: block layout, and the
** linearisation of varying control flow for batch execution.
**
** The VM runs every instruction over a batch of shading points, so a
** varying branch cannot jump: both sides run, each under the mask of the
** lanes that take it. Linearisation follows whole-function vectorisation
** (Karrenberg and Hack 2011), specialised to reducible CFGs:
**
** - Blocks are laid out in reverse postorder with every loop contiguous,
**   its header first.
** - Each block B has a mask register m_B, exact (zero outside B's lanes
**   for the current iteration). Entry runs on all requested lanes. A block
**   ORs its outgoing edge masks (m_B & c, m_B & !c) into its successors'
**   masks, then clears m_B, so a loop body starts each iteration clean.
** - A block starts with "JNONE m_B, skip" and "MASK m_B": an empty block
**   costs two instructions. An empty loop header leaves the loop; the
**   loop's last block jumps back to its header.
** - Phis become masked moves on each incoming edge, under that edge's mask.
**   Writes to varying registers only touch masked lanes, which is what
**   keeps each lane's value apart.
**
** A function without varying branches needs none of this: blocks jump as
** in scalar code and phis are plain moves (the common case for shaders
** whose only loops run over uniform counts).
**
** Regions (illuminance, illuminate, solar) become counted loops over the
** host's lights (illuminance's category goes to the host's light call,
** which skips the lights outside it); gather into a counted loop over
** the host's rays, its misses to the else branch. Each block's body is
** vmgen.c's (vg_select_ins).
*/
#include <stdlib.h>
#include <string.h>

#include "backends/vm/vmgen_impl.h"
#include "rslc/builtins.h"
#include "rslc/diag.h"
#include "runtime/builtins.h"

/* ---- labels and jumps ------------------------------------------------------ */

static int new_label(Gen *g)
{
    MFunc *mf = g->mf;
    mf->label_at = vg_grow(mf->label_at, &mf->caplabels, mf->nlabels + 1, sizeof *mf->label_at);
    mf->label_at[mf->nlabels] = -1;
    return mf->nlabels++;
}

static void place(Gen *g, int label)
{
    g->mf->label_at[label] = g->mf->nins;
}

static void emit_jump(Gen *g, VmOp op, int cond, int label, SrcLoc loc)
{
    MIns *i = vg_emit(g, op, 0, loc);
    i->a = R(cond);
    i->label = label;
}

/* The region whose header is b, or -1. */
static int region_header(Gen *g, const IrBlock *b)
{
    for (int r = 0; r < g->fn->nregions; r++)
        if (g->fn->regions[r].header == b)
            return r;
    return -1;
}

/* ---- layout ------------------------------------------------------------------------ */

static bool has_varying_branch(const IrFunc *fn)
{
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0 && b->last && b->last->op == IR_br && b->last->args[0]->varying)
            return true;
    return false;
}

/* Reverse postorder with each loop contiguous after its header: a natural
   loop's blocks already follow the header in RPO (it dominates them), so
   the blocks in between that are not in the loop move after its end.
   requires rpo, dominators; fills order, loop_end, region_of, label, masked */
void vg_layout(Gen *g)
{
    const IrFunc *fn = g->fn;
    int n = 0;
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0)
            n++;
    g->order = calloc((size_t)n + 1, sizeof *g->order);
    g->loop_end = malloc(((size_t)fn->next_block_id + 1) * sizeof *g->loop_end);
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0)
            g->order[b->rpo] = b;
    g->region_of = malloc(((size_t)fn->next_block_id + 1) * sizeof *g->region_of);
    for (int i = 0; i < fn->next_block_id; i++)
        g->loop_end[i] = g->region_of[i] = -1;
    g->norder = n;
    for (int i = 0; i < n; i++) {
        IrBlock *h = g->order[i];
        bool header = false;
        for (int p = 0; p < h->npreds; p++)
            header |= ir_dominates(h, h->preds[p]);
        if (!header)
            continue;
        /* The loop: blocks that reach a latch without passing h. */
        bool *in = calloc((size_t)fn->next_block_id + 1, sizeof *in);
        IrBlock **work = calloc((size_t)n + 1, sizeof *work);
        int nw = 0;
        in[h->id] = true;
        for (int p = 0; p < h->npreds; p++)
            if (ir_dominates(h, h->preds[p]) && !in[h->preds[p]->id])
                in[h->preds[p]->id] = true, work[nw++] = h->preds[p];
        while (nw) {
            IrBlock *b = work[--nw];
            for (int p = 0; p < b->npreds; p++)
                if (b->preds[p]->rpo >= 0 && !in[b->preds[p]->id])
                    in[b->preds[p]->id] = true, work[nw++] = b->preds[p];
        }
        /* Stable partition of order[i+1..]: loop blocks first. */
        IrBlock **tmp = calloc((size_t)n + 1, sizeof *tmp);
        int k = 0;
        for (int j = i + 1; j < n; j++)
            if (in[g->order[j]->id])
                tmp[k++] = g->order[j];
        int last = i + k;
        for (int j = i + 1; j < n; j++)
            if (!in[g->order[j]->id])
                tmp[k++] = g->order[j];
        memcpy(g->order + i + 1, tmp, (size_t)(n - i - 1) * sizeof *tmp);
        g->loop_end[h->id] = last;
        /* Inner loops come later and overwrite: the innermost region wins. */
        int r = region_header(g, h);
        for (int j = 0; r >= 0 && j < fn->next_block_id; j++)
            if (in[j] && j != h->id)
                g->region_of[j] = r;
        free(tmp);
        free(work);
        free(in);
    }
    for (int i = 0; i < g->norder; i++)
        g->label[g->order[i]->id] = new_label(g);
    /* Region bodies run for the lanes each light reaches: masks. */
    g->masked = has_varying_branch(fn) || fn->nregions > 0;
}

/* ---- control flow ------------------------------------------------------------------- */

/* The moves of edge pred -> s's phis, as a parallel copy: through
   temporaries when a phi's destination is another's source. */
static void phi_moves(Gen *g, IrBlock *pred, IrBlock *s, int k, SrcLoc loc)
{
    int idx = -1, seen = 0;
    for (int p = 0; p < s->npreds; p++)
        if (s->preds[p] == pred && seen++ == k)
            idx = p;
    if (idx < 0)
        return;
    int nphi = 0;
    for (IrIns *i = s->first; i && i->op == IR_phi; i = i->next)
        nphi++;
    if (!nphi)
        return;
    int *src = calloc((size_t)nphi, sizeof *src), *dst = calloc((size_t)nphi, sizeof *dst);
    unsigned *w = calloc((size_t)nphi, sizeof *w);
    bool clash = false;
    int n = 0;
    for (IrIns *i = s->first; i && i->op == IR_phi; i = i->next, n++) {
        dst[n] = vg_reg_of(g, &i->val);
        src[n] = vg_reg_of(g, i->args[idx]);
        w[n] = vg_type_width(i->val.type);
        vg_befriend(g, dst[n], src[n]);
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            clash |= a != b && src[a] == dst[b];
    for (int a = 0; a < n; a++) {
        if (!clash || src[a] == dst[a])
            continue;
        int t = vg_new_reg(g, g->mf->regs[dst[a]].varying, w[a]);
        vg_emit3(g, VM_OP_MOV, w[a], R(t), R(src[a]), R(-1), loc);
        src[a] = t;
    }
    for (int a = 0; a < n; a++)
        if (src[a] != dst[a])
            vg_emit3(g, VM_OP_MOV, w[a], R(dst[a]), R(src[a]), R(-1), loc);
    free(src);
    free(dst);
    free(w);
}

static bool has_phis(const IrBlock *b)
{
    return b->first && b->first->op == IR_phi;
}

/* Scalar-style control flow: the function branches only on uniforms. */
static void plain_terminator(Gen *g, int at, IrIns *t)
{
    IrBlock *b = t->block, *next = at + 1 < g->norder ? g->order[at + 1] : NULL;
    if (t->op == IR_ret) {
        vg_emit(g, VM_OP_RET, 0, t->loc);
        return;
    }
    if (t->op == IR_jmp) {
        phi_moves(g, b, t->succ[0], 0, t->loc);
        if (t->succ[0] != next)
            emit_jump(g, VM_OP_JMP, -1, g->label[t->succ[0]->id], t->loc);
        return;
    }
    /* br: each edge gets its moves; "else" is reached by JZ. */
    int c = vg_reg_of(g, t->args[0]);
    IrBlock *s0 = t->succ[0], *s1 = t->succ[1];
    int k1 = s0 == s1; /* the second edge to the same block */
    if (!has_phis(s0) && !has_phis(s1) && s0 == next) {
        emit_jump(g, VM_OP_JZ, c, g->label[s1->id], t->loc);
        return;
    }
    /* The else edge needs a block of its own (a landing pad) only to hold
       its phi moves; otherwise JZ goes straight to s1. */
    bool pad = has_phis(s1);
    int other = pad ? new_label(g) : g->label[s1->id];
    emit_jump(g, VM_OP_JZ, c, other, t->loc);
    phi_moves(g, b, s0, 0, t->loc);
    if (pad || s0 != next)
        emit_jump(g, VM_OP_JMP, -1, g->label[s0->id], t->loc);
    if (pad) {
        place(g, other);
        phi_moves(g, b, s1, k1, t->loc);
        if (s1 != next)
            emit_jump(g, VM_OP_JMP, -1, g->label[s1->id], t->loc);
    }
}

/* A region header's two edges: the lanes in mask body into the body,
   those in mask out to the exit, each with its phi moves. */
static void region_edges(Gen *g, IrIns *t, int body, int out)
{
    int e[2] = { body, out };
    for (int k = 0; k < 2; k++) {
        IrBlock *s = t->succ[k];
        vg_emit3(g, VM_OP_OR, 1, R(g->mask[s->id]), R(g->mask[s->id]), R(e[k]), t->loc);
        if (has_phis(s)) {
            vg_emit3(g, VM_OP_MASK, 0, R(e[k]), R(-1), R(-1), t->loc);
            phi_moves(g, t->block, s, 0, t->loc);
            vg_emit(g, VM_OP_MASKALL, 0, t->loc);
        }
    }
}

/* Is argument k of a gather region (a name, k >= 5 odd from 5) one whose
   value the loop fetches from each hit? */
bool vg_gather_output(const IrIns *t, int k)
{
    const IrVal *v = t->args[k];
    if (v->kind != IRV_CONST || v->type.kind != IRT_STRING)
        return false;
    const BuiltinOption *o = builtin_option(OPTS_GATHER, ((const IrConst *)v)->s);
    return o && o->output;
}

/* A gather header: a loop of `samples` rays (a uniform count) with a
   uniform counter. Each pass asks __gather for ray `counter` at every
   lane (vm/hostlanes.c): out[0] 1 on a hit, then the fetched values in
   pair order (vmgen.c's IR_light reads them). Lanes with a hit run the
   body; the others run the else branch, or without one wait for the
   next ray; when the rays run out every lane leaves. */
static int gather_terminator(Gen *g, IrIns *t, int m)
{
    SrcLoc loc = t->loc;
    int r = t->imm;
    IrBlock *miss = g->fn->regions[r].miss;
    if (t->nargs < 5 || (t->nargs - 5) % 2 || t->args[0]->type.kind != IRT_STRING) {
        diag_error(g->mf->rc, loc, "gather needs a category, a position, a direction, an angle "
                   "and a sample count, then name/value pairs");
        g->failed = true;
        return -1;
    }
    if (t->args[4]->varying) {
        diag_error(g->mf->rc, loc, "gather's sample count must be uniform in the bytecode VM");
        g->failed = true;
        return -1;
    }
    int fetched = 0;
    for (int k = 5; k + 1 < t->nargs; k += 2)
        if (vg_gather_output(t, k))
            fetched += vg_type_width(t->args[k + 1]->type);
    if (fetched > 15 || (miss && has_phis(miss))) {
        diag_error(g->mf->rc, loc, fetched > 15 ? "gather fetches more than 15 floats per hit"
                                                : "gather's else branch starts with a merge");
        g->failed = true;
        return -1;
    }
    static const float one[1] = { 1 };
    int cnt = g->light_cnt[r], lv = g->light_val[r];
    int more = vg_new_reg(g, false, 1);
    vg_emit3(g, VM_OP_LT, 1, R(more), R(cnt), R(vg_reg_of(g, t->args[4])), loc);
    int nargs = 1 + t->nargs, a = 0;
    MOpnd *args = calloc((size_t)nargs, sizeof *args);
    unsigned *argw = calloc((size_t)nargs, sizeof *argw);
    VmCallee callee = { .row = BO_GATHER_mfpvffsv, .result = 'm', .nargs = (uint8_t)nargs };
    callee.type[a] = 'f', args[a] = R(cnt), argw[a++] = 1;
    static const int order[4] = { 1, 2, 3, 4 };
    for (int i = 0; i < 4; i++) {
        IrVal *v = t->args[order[i]];
        callee.type[a] = vg_type_letter(v->type);
        args[a] = R(vg_reg_of(g, v)), argw[a++] = vg_type_width(v->type);
    }
    for (int k = 0; k < t->nargs; k = k ? k + 1 : 5) {
        IrVal *v = t->args[k];
        callee.type[a] = vg_type_letter(v->type);
        args[a] = R(vg_reg_of(g, v)), argw[a++] = vg_type_width(v->type);
    }
    MIns *c = vg_emit(g, VM_OP_CALLB, 16, loc);
    c->a = R(lv), c->imm = (unsigned)vg_callee_index(g, &callee);
    c->nargs = nargs, c->args = args, c->argw = argw;
    int live = vg_new_reg(g, true, 1), body = vg_new_reg(g, true, 1), nohit = vg_new_reg(g, true, 1);
    int missed = vg_new_reg(g, true, 1), out = vg_new_reg(g, true, 1), done = vg_new_reg(g, false, 1);
    vg_emit3(g, VM_OP_AND, 1, R(live), R(m), R(more), loc);
    vg_emit3(g, VM_OP_AND, 1, R(body), R(live), RO(lv, 0), loc);
    vg_emit3(g, VM_OP_NOT, 1, R(nohit), RO(lv, 0), R(-1), loc);
    vg_emit3(g, VM_OP_AND, 1, R(missed), R(live), R(nohit), loc);
    vg_emit3(g, VM_OP_NOT, 1, R(done), R(more), R(-1), loc);
    vg_emit3(g, VM_OP_AND, 1, R(out), R(m), R(done), loc);
    vg_emit3(g, VM_OP_ADD, 1, R(cnt), R(cnt), R(vg_const_reg(g, one, 1)), loc);
    region_edges(g, t, body, out);
    if (!miss)
        return missed;      /* they wait for the next ray */
    vg_emit3(g, VM_OP_OR, 1, R(g->mask[miss->id]), R(g->mask[miss->id]), R(missed), loc);
    return -1;
}

void vmgen_light_callee(IrRegionKind kind, int given, bool category, VmCallee *c)
{
    static const BuiltinRowId rows[3][2] = {
        { BO_LIGHT_mfp, BO_LIGHT_mfpvf },
        { BO_ILLUMINATE_mpp, BO_ILLUMINATE_mpvfp },
        { BO_SOLAR_mp, BO_SOLAR_mvfp },
    };
    BuiltinRowId row = category ? (given > 1 ? BO_LIGHT_mfpvfs : BO_LIGHT_mfps) : rows[kind][given > 1];
    /* The argument types are the row's own letters. */
    const char *sig = builtin_rows[row].sig;
    *c = (VmCallee){ .row = row, .result = 'm', .nargs = (uint8_t)(strlen(sig) - 1) };
    memcpy(c->type, sig + 1, c->nargs);
}

/* An illuminance header: a loop over the host's lights with a uniform
   counter. Each pass fetches light `counter` at every lane (L, Cl, Ol and
   whether it takes part: inside the cone, not ambient); lanes it lights
   run the body, which comes back through `next`; the others wait in the
   header's mask for the next light; when the lights run out, every lane
   leaves. Returns the mask of the waiting lanes, which the caller ORs
   into the header's mask after clearing it. */
static int region_terminator(Gen *g, IrIns *t, int m)
{
    SrcLoc loc = t->loc;
    int r = t->imm;
    IrRegionKind kind = g->fn->regions[r].kind;
    bool illuminance = kind == IRR_ILLUMINANCE;
    if (kind == IRR_GATHER)
        return gather_terminator(g, t, m);
    /* illuminance("category", ...): the category goes last to __light. */
    int first = illuminance && t->nargs && t->args[0]->type.kind == IRT_STRING;
    int given = t->nargs - first;
    if ((kind != IRR_SOLAR && given != 1 && given != 3)
        || (kind == IRR_SOLAR && given != 0 && given != 2)) {
        diag_error(g->mf->rc, loc, "%s with %d arguments is not supported by the bytecode VM",
                   ir_region_kind_name(kind), t->nargs);
        g->failed = true;
        return -1;
    }
    static const float one[1] = { 1 };
    int cnt = g->light_cnt[r], lv = g->light_val[r];
    int n = vg_new_reg(g, false, 1), more = vg_new_reg(g, false, 1);
    MIns *c;
    if (illuminance) {
        c = vg_emit(g, VM_OP_CALLB, 1, loc);
        c->a = R(n);
        c->imm = (unsigned)vg_callee_index(g, &(VmCallee){ .row = BO_NLIGHTS_f, .result = 'f' });
    } else { /* a light shader's region runs once */
        vg_emit3(g, VM_OP_MOV, 1, R(n), R(vg_const_reg(g, one, 1)), R(-1), loc);
    }
    vg_emit3(g, VM_OP_LT, 1, R(more), R(cnt), R(n), loc);
    /* illuminance: light cnt seen from P; illuminate/solar: the point Ps
       as this light sees it. */
    int nargs = 1 + given + first, a = 0;
    MOpnd *args = calloc((size_t)nargs, sizeof *args);
    unsigned *argw = calloc((size_t)nargs, sizeof *argw);
    if (illuminance)
        args[a] = R(cnt), argw[a++] = 1;
    for (int k = first; k < t->nargs; k++) {
        args[a] = R(vg_reg_of(g, t->args[k]));
        argw[a++] = vg_type_width(t->args[k]->type);
    }
    if (first) {
        args[a] = R(vg_reg_of(g, t->args[0]));
        argw[a++] = vg_type_width(t->args[0]->type);
    }
    if (!illuminance) {
        args[a] = R(vg_add_var(g, &g->mf->globals, &g->mf->nglobals, "Ps", ir_type(IRT_POINT),
                            true, VM_VAR_READ));
        argw[a++] = 3;
    }
    VmCallee callee;
    vmgen_light_callee(kind, given, first, &callee);
    unsigned idx = (unsigned)vg_callee_index(g, &callee);
    c = vg_emit(g, VM_OP_CALLB, 16, loc);
    c->a = R(lv), c->imm = idx, c->nargs = nargs, c->args = args, c->argw = argw;
    int live = vg_new_reg(g, true, 1), body = vg_new_reg(g, true, 1), nlit = vg_new_reg(g, true, 1);
    int wait = vg_new_reg(g, true, 1), out = vg_new_reg(g, true, 1), done = vg_new_reg(g, false, 1);
    vg_emit3(g, VM_OP_AND, 1, R(live), R(m), R(more), loc);
    vg_emit3(g, VM_OP_AND, 1, R(body), R(live), RO(lv, 9), loc);
    if (!illuminance) {
        /* The renderer reads the light's L where the region runs, whether
           or not the body does; a body that sets L overrides it. */
        int L = vg_add_var(g, &g->mf->globals, &g->mf->nglobals, "L", ir_type(IRT_VECTOR), true,
                           VM_VAR_OUTPUT);
        vg_emit3(g, VM_OP_MASK, 0, R(body), R(-1), R(-1), loc);
        vg_emit3(g, VM_OP_MOV, 3, R(L), R(lv), R(-1), loc);
        vg_emit(g, VM_OP_MASKALL, 0, loc);
    }
    vg_emit3(g, VM_OP_NOT, 1, R(nlit), RO(lv, 9), R(-1), loc);
    vg_emit3(g, VM_OP_AND, 1, R(wait), R(live), R(nlit), loc);
    vg_emit3(g, VM_OP_NOT, 1, R(done), R(more), R(-1), loc);
    vg_emit3(g, VM_OP_AND, 1, R(out), R(m), R(done), loc);
    vg_emit3(g, VM_OP_ADD, 1, R(cnt), R(cnt), R(vg_const_reg(g, one, 1)), loc);
    region_edges(g, t, body, out);
    return wait;
}

/* Masked control flow (see the top of the file). m is b's mask, or the
   constant one for the entry. */
static void masked_terminator(Gen *g, IrIns *t, int m)
{
    IrBlock *b = t->block;
    SrcLoc loc = t->loc;
    vg_emit(g, VM_OP_MASKALL, 0, loc);
    int again = -1;
    if (t->op == IR_region) {
        again = region_terminator(g, t, m);
    } else if (t->op == IR_jmp || t->op == IR_next) {
        IrBlock *s = t->succ[0];
        int r = region_header(g, s);
        if (r >= 0 && t->op == IR_jmp) { /* entering illuminance: the first light */
            static const float zero[1];
            vg_emit3(g, VM_OP_MOV, 1, R(g->light_cnt[r]), R(vg_const_reg(g, zero, 1)), R(-1), loc);
        }
        vg_emit3(g, VM_OP_OR, 1, R(g->mask[s->id]), R(g->mask[s->id]), R(m), loc);
        if (has_phis(s)) {
            if (b != g->fn->entry)
                vg_emit3(g, VM_OP_MASK, 0, R(m), R(-1), R(-1), loc);
            phi_moves(g, b, s, 0, loc);
            vg_emit(g, VM_OP_MASKALL, 0, loc);
        }
    } else if (t->op == IR_br) {
        int c = vg_reg_of(g, t->args[0]);
        int e[2] = { vg_new_reg(g, true, 1), vg_new_reg(g, true, 1) }, nc = vg_new_reg(g, true, 1);
        vg_emit3(g, VM_OP_AND, 1, R(e[0]), R(m), R(c), loc);
        vg_emit3(g, VM_OP_NOT, 1, R(nc), R(c), R(-1), loc);
        vg_emit3(g, VM_OP_AND, 1, R(e[1]), R(m), R(nc), loc);
        for (int k = 0; k < 2; k++) {
            IrBlock *s = t->succ[k];
            vg_emit3(g, VM_OP_OR, 1, R(g->mask[s->id]), R(g->mask[s->id]), R(e[k]), loc);
            if (has_phis(s)) {
                vg_emit3(g, VM_OP_MASK, 0, R(e[k]), R(-1), R(-1), loc);
                phi_moves(g, b, s, k && t->succ[0] == s, loc);
                vg_emit(g, VM_OP_MASKALL, 0, loc);
            }
        }
    }
    /* ret: the block's lanes are done and flow nowhere. */
    if (b != g->fn->entry) {
        static const float zero[1];
        vg_emit3(g, VM_OP_MOV, 1, R(m), R(vg_const_reg(g, zero, 1)), R(-1), loc);
    }
    if (again >= 0) /* lanes the light missed wait for the next one */
        vg_emit3(g, VM_OP_OR, 1, R(m), R(m), R(again), loc);
}

/* Emits the blocks in layout order, each body by vg_select_ins, with
   their control flow: plain jumps, or masks when g->masked.
   requires vg_layout, the regions' light registers; fills mask, loop_exit, one */
void vg_linearize(Gen *g)
{
    static const float zero[1], one[1] = { 1 };
    SrcLoc loc = g->fn->loc;
    if (g->masked) {
        int z = vg_const_reg(g, zero, 1);
        for (int i = 1; i < g->norder; i++) {
            g->mask[g->order[i]->id] = vg_new_reg(g, true, 1);
            vg_emit3(g, VM_OP_MOV, 1, R(g->mask[g->order[i]->id]), R(z), R(-1), loc);
        }
        g->one = vg_const_reg(g, one, 1);
    }
    for (int i = 0; i < g->norder; i++) {
        IrBlock *b = g->order[i];
        place(g, g->label[b->id]);
        int m = i == 0 ? g->one : g->mask[b->id], skip = -1;
        if (g->masked && i > 0) {
            /* An empty header leaves its loop; an empty block is skipped,
               landing before any back jump that follows it. */
            int to;
            if (g->loop_end[b->id] >= 0)
                to = g->loop_exit[b->id] = new_label(g);
            else
                to = skip = new_label(g);
            emit_jump(g, VM_OP_JNONE, m, to, b->first ? b->first->loc : loc);
            vg_emit3(g, VM_OP_MASK, 0, R(m), R(-1), R(-1), b->first ? b->first->loc : loc);
        }
        for (IrIns *ins = b->first; ins; ins = ins->next)
            if (!(ir_op_flags(ins->op) & OP_TERM))
                vg_select_ins(g, ins);
            else if (g->masked)
                masked_terminator(g, ins, m);
            else
                plain_terminator(g, i, ins);
        if (skip >= 0)
            place(g, skip);
        /* The last block of a loop goes back to its header, innermost
           loop first; leaving a loop lands after its back jump. The jump
           is where a runaway loop stops (the step budget is checked on
           back jumps), so it carries the loop's line: its header's test. */
        for (int h = i; g->masked && h >= 0; h--) {
            IrBlock *hb = g->order[h];
            if (g->loop_end[hb->id] != i)
                continue;
            emit_jump(g, VM_OP_JMP, -1, g->label[hb->id], hb->last ? hb->last->loc : loc);
            place(g, g->loop_exit[hb->id]);
        }
    }
    if (g->masked || !g->mf->nins || g->mf->ins[g->mf->nins - 1].op != VM_OP_RET)
        vg_emit(g, VM_OP_RET, 0, loc);
}

