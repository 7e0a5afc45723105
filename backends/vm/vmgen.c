/*
** vmgen.c: instruction selection for the VM, and linearisation of
** control flow for batch execution.
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
** host's lights; gather is reported as unsupported. User function calls
** must have been inlined. Builtin calls are vmcall.c's.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/builtins.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "backends/vm/vmgen_impl.h"
#include "runtime/strings.h"


/* ---- growing the function ------------------------------------------------ */

void *vg_grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(p, (size_t)n * size);
    if (!q) {
        perror("rslc");
        exit(1);
    }
    memset((char *)q + (size_t)*cap * size, 0, (size_t)(n - *cap) * size);
    *cap = n;
    return q;
}

int vg_new_reg(Gen *g, bool varying, unsigned width)
{
    MFunc *mf = g->mf;
    mf->regs = vg_grow(mf->regs, &mf->capregs, mf->nregs + 1, sizeof *mf->regs);
    mf->regs[mf->nregs] = (MReg){ varying, width, false, 0, NULL, false, -1, -1, 0, -1 };
    return mf->nregs++;
}

static int new_label(Gen *g)
{
    MFunc *mf = g->mf;
    int cap = mf->nlabels;
    mf->label_at = vg_grow(mf->label_at, &cap, mf->nlabels + 1, sizeof *mf->label_at);
    mf->label_at[mf->nlabels] = -1;
    return mf->nlabels++;
}

static void place(Gen *g, int label)
{
    g->mf->label_at[label] = g->mf->nins;
}

MIns *vg_emit(Gen *g, VmOp op, unsigned w, SrcLoc loc)
{
    MFunc *mf = g->mf;
    mf->ins = vg_grow(mf->ins, &mf->capins, mf->nins + 1, sizeof *mf->ins);
    MIns *i = &mf->ins[mf->nins++];
    *i = (MIns){ .op = op, .w = w, .a = { -1, 0 }, .b = { -1, 0 }, .c = { -1, 0 },
                 .d = { -1, 0 }, .label = -1, .loc = loc };
    return i;
}


void vg_emit3(Gen *g, VmOp op, unsigned w, MOpnd a, MOpnd b, MOpnd c, SrcLoc loc)
{
    MIns *i = vg_emit(g, op, w, loc);
    i->a = a, i->b = b, i->c = c;
}

static void emit_jump(Gen *g, VmOp op, int cond, int label, SrcLoc loc)
{
    MIns *i = vg_emit(g, op, 0, loc);
    i->a = R(cond);
    i->label = label;
}

/* ---- values ---------------------------------------------------------------- */

unsigned vg_kind_width(IrKind k)
{
    return k == IRT_MATRIX ? 16 : ir_is_triple(k) ? 3 : 1;
}

unsigned vg_type_width(IrType t)
{
    return vg_kind_width(t.kind) * (unsigned)(t.arraylen ? t.arraylen : 1);
}

VmType vg_vm_type(IrKind k)
{
    switch (k) {
    case IRT_COLOR: return VM_T_COLOR;
    case IRT_POINT: return VM_T_POINT;
    case IRT_VECTOR: return VM_T_VECTOR;
    case IRT_NORMAL: return VM_T_NORMAL;
    case IRT_MATRIX: return VM_T_MATRIX;
    case IRT_STRING: return VM_T_STRING;
    default: return VM_T_FLOAT;
    }
}

static int string_index(Gen *g, const char *s)
{
    MFunc *mf = g->mf;
    for (int i = 0; i < mf->nstrings; i++)
        if (strcmp(mf->strings[i], s) == 0)
            return i;
    int cap = mf->nstrings;
    mf->strings = vg_grow(mf->strings, &cap, mf->nstrings + 1, sizeof *mf->strings);
    mf->strings[mf->nstrings] = s;
    return mf->nstrings++;
}

/* A uniform register preloaded with n values. */
int vg_const_reg(Gen *g, const float *vals, unsigned n)
{
    int r = vg_new_reg(g, false, n);
    float *init = calloc(n, sizeof *init);
    if (!init) {
        perror("rslc");
        exit(1);
    }
    if (vals)
        memcpy(init, vals, n * sizeof *init);
    g->mf->regs[r].init = init;
    g->mf->regs[r].owns_init = true;
    return r;
}

static int const_value(Gen *g, const IrVal *v)
{
    const IrConst *k = (const IrConst *)v;
    unsigned n = vg_type_width(v->type);
    if (v->kind == IRV_UNDEF) /* undef is zero (ir.h) */
        return vg_const_reg(g, NULL, n);
    if (v->type.kind == IRT_STRING) {
        uint32_t idx = (uint32_t)string_index(g, k->s ? k->s : "");
        float bits;
        memcpy(&bits, &idx, sizeof bits);
        return vg_const_reg(g, &bits, 1);
    }
    return vg_const_reg(g, v->type.arraylen ? k->fa : k->f, n);
}

/* Records that register r holds the source variables v is named after. */
static void name_reg(Gen *g, const IrVal *v, int r)
{
    MFunc *mf = g->mf;
    const IrIns *i = (const IrIns *)v;
    for (int k = 0; v->kind == IRV_INS && k < i->ndbg; k++) {
        mf->dbg = vg_grow(mf->dbg, &mf->capdbg, mf->ndbg + 1, sizeof *mf->dbg);
        mf->dbg[mf->ndbg++] = (MDbg){ r, i->dbg[k] };
    }
}

/* The register of an operand value: instruction results get one when first
   seen, each distinct constant (they are interned) one. */
int vg_reg_of(Gen *g, IrVal *v)
{
    if (v->kind != IRV_INS) {
        for (int i = 0; i < g->nk; i++)
            if (g->kval[i] == v)
                return g->kreg[i];
        int cap = g->capk;
        g->kval = vg_grow(g->kval, &cap, g->nk + 1, sizeof *g->kval);
        g->kreg = vg_grow(g->kreg, &g->capk, g->nk + 1, sizeof *g->kreg);
        g->kval[g->nk] = v;
        return g->kreg[g->nk++] = const_value(g, v);
    }
    if (g->vreg[v->id] < 0) {
        g->vreg[v->id] = vg_new_reg(g, v->varying, vg_type_width(v->type));
        name_reg(g, v, g->vreg[v->id]);
    }
    return g->vreg[v->id];
}

void vg_unsupported(Gen *g, const IrIns *ins, const char *what)
{
    diag_error(ins->loc, "the bytecode VM does not support %s yet", what);
    g->failed = true;
}

/* ---- the shader's interface ---------------------------------------------------- */

int vg_add_var(Gen *g, MVar **list, int *n, const char *name, IrType t, bool varying,
                   unsigned flags)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i].var.name, name) == 0) {
            (*list)[i].var.flags |= flags;
            g->mf->regs[(*list)[i].reg].iface_flags |= flags;
            return (*list)[i].reg;
        }
    int cap = *n;
    *list = vg_grow(*list, &cap, *n + 1, sizeof **list);
    int r = vg_new_reg(g, varying, vg_type_width(t));
    g->mf->regs[r].iface = true;
    g->mf->regs[r].iface_flags = flags;
    (*list)[*n] = (MVar){ { name, vg_vm_type(t.kind), flags | (varying ? VM_VAR_VARYING : 0),
                            (unsigned)t.arraylen, 0 }, r };
    (*n)++;
    return r;
}

static void add_params(Gen *g)
{
    for (int i = 0; i < g->fn->nparams; i++) {
        const IrParam *p = &g->fn->params[i];
        int r = vg_add_var(g, &g->mf->params, &g->mf->nparams, p->name, p->type, p->varying,
                        VM_VAR_READ | (p->output ? VM_VAR_OUTPUT : 0));
        if (p->def && p->type.kind == IRT_STRING && !p->type.arraylen) {
            /* the default's register holds its index in the string table */
            float *init = malloc(sizeof *init);
            if (!init) {
                perror("rslc");
                exit(1);
            }
            *init = vm_string_value((uint32_t)string_index(g, p->def->s ? p->def->s : ""));
            g->mf->regs[r].init = init;
            g->mf->regs[r].owns_init = true;
        } else if (p->def) {
            g->mf->regs[r].init = p->type.arraylen ? p->def->fa : p->def->f;
        }
    }
}

/* ---- selection -------------------------------------------------------------------- */

/* Builds a value from scalar parts: triple(a, b, c), matrix(16 floats),
   or a float splatted onto a matrix's diagonal. */
static void select_parts(Gen *g, IrIns *ins, int dst)
{
    if (ins->op == IR_splat) {
        static const float zero[16];
        vg_emit3(g, VM_OP_MOV, 16, R(dst), R(vg_const_reg(g, zero, 16)), R(-1), ins->loc);
        int a = vg_reg_of(g, ins->args[0]);
        for (unsigned k = 0; k < 4; k++)
            vg_emit3(g, VM_OP_MOV, 1, RO(dst, 5 * k), R(a), R(-1), ins->loc);
        return;
    }
    for (int k = 0; k < ins->nargs; k++)
        vg_emit3(g, VM_OP_MOV, 1, RO(dst, (unsigned)k), R(vg_reg_of(g, ins->args[k])), R(-1), ins->loc);
}

static void befriend(Gen *g, int a, int b)
{
    MReg *r = g->mf->regs;
    if (r[a].friend < 0 && r[a].varying == r[b].varying && r[a].width == r[b].width)
        r[a].friend = b;
    if (r[b].friend < 0 && r[a].varying == r[b].varying && r[a].width == r[b].width)
        r[b].friend = a;
}

static void select_ins(Gen *g, IrIns *ins)
{
    static const VmOp arith[] = { [IR_add] = VM_OP_ADD, [IR_sub] = VM_OP_SUB,
                                  [IR_mul] = VM_OP_MUL, [IR_div] = VM_OP_DIV };
    IrOp op = ins->op;
    if (op == IR_phi || op == IR_nop)
        return;
    int dst = ins->val.type.kind == IRT_VOID ? -1 : vg_reg_of(g, &ins->val);
    #define ARG(i) R(vg_reg_of(g, ins->args[i]))
    unsigned w = dst >= 0 ? vg_type_width(ins->val.type) : 0;
    switch (op) {
    case IR_copy:
    case IR_retype:
        vg_emit3(g, VM_OP_MOV, w, R(dst), ARG(0), R(-1), ins->loc);
        befriend(g, dst, vg_reg_of(g, ins->args[0]));
        break;
    case IR_add:
    case IR_sub:
    case IR_mul:
    case IR_div: {
        VmOp vop = arith[op];
        if (ins->val.type.kind == IRT_MATRIX && op == IR_mul)
            vop = VM_OP_MULM;
        else if (ins->val.type.kind == IRT_MATRIX && op == IR_div)
            vop = VM_OP_DIVM;
        vg_emit3(g, vop, w, R(dst), ARG(0), ARG(1), ins->loc);
        break;
    }
    case IR_neg:
        vg_emit3(g, VM_OP_NEG, w, R(dst), ARG(0), R(-1), ins->loc);
        break;
    case IR_dot:
    case IR_cross:
        vg_emit3(g, op == IR_dot ? VM_OP_DOT : VM_OP_CROSS, op == IR_dot ? 1 : 3, R(dst), ARG(0),
              ARG(1), ins->loc);
        break;
    case IR_lt:
    case IR_le:
        vg_emit3(g, op == IR_lt ? VM_OP_LT : VM_OP_LE, 1, R(dst), ARG(0), ARG(1), ins->loc);
        break;
    case IR_gt:
    case IR_ge: /* a > b is b < a */
        vg_emit3(g, op == IR_gt ? VM_OP_LT : VM_OP_LE, 1, R(dst), ARG(1), ARG(0), ins->loc);
        break;
    case IR_eq:
    case IR_ne: {
        IrType t = ins->args[0]->type;
        vg_emit3(g, op == IR_eq ? VM_OP_EQ : VM_OP_NE, t.kind == IRT_STRING ? 0 : vg_type_width(t),
              R(dst), ARG(0), ARG(1), ins->loc);
        break;
    }
    case IR_and:
    case IR_or:
        vg_emit3(g, op == IR_and ? VM_OP_AND : VM_OP_OR, 1, R(dst), ARG(0), ARG(1), ins->loc);
        break;
    case IR_not:
        vg_emit3(g, VM_OP_NOT, 1, R(dst), ARG(0), R(-1), ins->loc);
        break;
    case IR_select: {
        MOpnd a0 = ARG(0), a1 = ARG(1), a2 = ARG(2);
        vg_emit3(g, VM_OP_SEL, w, R(dst), a0, a1, ins->loc);
        g->mf->ins[g->mf->nins - 1].d = a2;
        break;
    }
    case IR_splat:
        if (ins->val.type.kind == IRT_MATRIX)
            select_parts(g, ins, dst);
        else
            vg_emit3(g, VM_OP_SPLAT, w, R(dst), ARG(0), R(-1), ins->loc);
        break;
    case IR_triple:
    case IR_matrix:
        select_parts(g, ins, dst);
        break;
    case IR_aget:
    case IR_aset: {
        IrType arr = ins->args[0]->type;
        unsigned ew = vg_kind_width(arr.kind);
        MOpnd b = ARG(0), c = ARG(1), d = op == IR_aset ? ARG(2) : R(-1);
        vg_emit3(g, op == IR_aget ? VM_OP_AGET : VM_OP_ASET, ew, R(dst), b, c, ins->loc);
        MIns *m = &g->mf->ins[g->mf->nins - 1];
        m->d = d;
        m->imm = (unsigned)arr.arraylen;
        break;
    }
    case IR_param: /* the parameter's own register */
        g->vreg[ins->val.id] = g->mf->params[ins->imm].reg;
        name_reg(g, &ins->val, g->vreg[ins->val.id]);
        break;
    case IR_gget:
        g->vreg[ins->val.id] = vg_add_var(g, &g->mf->globals, &g->mf->nglobals, ins->sym,
                                       ins->val.type, ins->val.varying, VM_VAR_READ);
        name_reg(g, &ins->val, g->vreg[ins->val.id]);
        break;
    case IR_gset: {
        IrVal *v = ins->args[0];
        const GlobalVar *gv = global_lookup(ins->sym);
        int r = vg_add_var(g, &g->mf->globals, &g->mf->nglobals, ins->sym, v->type,
                        gv ? gv->detail == DETAIL_VARYING : v->varying, VM_VAR_OUTPUT);
        vg_emit3(g, VM_OP_MOV, vg_type_width(v->type), R(r), ARG(0), R(-1), ins->loc);
        befriend(g, r, vg_reg_of(g, v));
        break;
    }
    case IR_pset:
        vg_emit3(g, VM_OP_MOV, vg_type_width(ins->args[0]->type), R(g->mf->params[ins->imm].reg),
              ARG(0), R(-1), ins->loc);
        break;
    case IR_intrin:
        vg_select_intrin(g, ins, dst);
        break;
    case IR_call:
        diag_error(ins->loc, "call of '%s' could not be inlined (it is recursive or holds "
                   "illuminance, illuminate, solar or gather), and the bytecode VM has no "
                   "calls", ins->callee ? ins->callee->name : ins->sym);
        g->failed = true;
        break;
    case IR_callout: { /* user calls are inlined: only builtins return tuples */
        const IrIns *call = (const IrIns *)ins->args[0];
        vg_emit3(g, VM_OP_MOV, w, R(dst), RO(vg_reg_of(g, ins->args[0]), vg_tuple_offset(call, ins->imm)),
              R(-1), ins->loc);
        break;
    }
    case IR_light: {
        int r = g->region_of[ins->block->id];
        if (r < 0 || g->light_val[r] < 0 || ins->imm > 2) {
            vg_unsupported(g, ins, "this light value");
            break;
        }
        vg_emit3(g, VM_OP_MOV, 3, R(dst), RO(g->light_val[r], 3 * (unsigned)ins->imm), R(-1),
              ins->loc);
        break;
    }
    default: /* terminators: see the block walk */
        break;
    }
    #undef ARG
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

/* Reverse postorder with each loop contiguous after its header: a natural
   loop's blocks already follow the header in RPO (it dominates them), so
   the blocks in between that are not in the loop move after its end. */
static void layout(Gen *g)
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
        befriend(g, dst[n], src[n]);
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
    if (kind == IRR_GATHER || (illuminance && t->nargs != 1 && t->nargs != 3)
        || (kind == IRR_ILLUMINATE && t->nargs != 1 && t->nargs != 3)
        || (kind == IRR_SOLAR && t->nargs != 0 && t->nargs != 2)) {
        vg_unsupported(g, t, "gather");
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
    int nargs = 1 + t->nargs, a = 0;
    MOpnd *args = calloc((size_t)nargs, sizeof *args);
    unsigned *argw = calloc((size_t)nargs, sizeof *argw);
    if (illuminance)
        args[a] = R(cnt), argw[a++] = 1;
    for (int k = 0; k < t->nargs; k++) {
        args[a] = R(vg_reg_of(g, t->args[k]));
        argw[a++] = vg_type_width(t->args[k]->type);
    }
    if (!illuminance) {
        args[a] = R(vg_add_var(g, &g->mf->globals, &g->mf->nglobals, "Ps", ir_type(IRT_POINT),
                            true, VM_VAR_READ));
        argw[a++] = 3;
    }
    static const BuiltinRowId rows[3][2] = {
        { BO_LIGHT_mfp, BO_LIGHT_mfpvf },
        { BO_ILLUMINATE_mpp, BO_ILLUMINATE_mpvfp },
        { BO_SOLAR_mp, BO_SOLAR_mvfp },
    };
    /* The argument types are the row's own letters. */
    VmCallee callee = { .row = rows[kind][t->nargs > 1], .result = 'm', .nargs = (uint8_t)nargs };
    memcpy(callee.type, builtin_rows[callee.row].sig + 1, (size_t)nargs);
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
    int e[2] = { body, out };
    for (int k = 0; k < 2; k++) {
        IrBlock *s = t->succ[k];
        vg_emit3(g, VM_OP_OR, 1, R(g->mask[s->id]), R(g->mask[s->id]), R(e[k]), loc);
        if (has_phis(s)) {
            vg_emit3(g, VM_OP_MASK, 0, R(e[k]), R(-1), R(-1), loc);
            phi_moves(g, t->block, s, 0, loc);
            vg_emit(g, VM_OP_MASKALL, 0, loc);
        }
    }
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

static bool has_varying_branch(const IrFunc *fn)
{
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->rpo >= 0 && b->last && b->last->op == IR_br && b->last->args[0]->varying)
            return true;
    return false;
}

static void walk(Gen *g)
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
                select_ins(g, ins);
            else if (g->masked)
                masked_terminator(g, ins, m);
            else
                plain_terminator(g, i, ins);
        if (skip >= 0)
            place(g, skip);
        /* The last block of a loop goes back to its header, innermost
           loop first; leaving a loop lands after its back jump. */
        for (int h = i; g->masked && h >= 0; h--) {
            IrBlock *hb = g->order[h];
            if (g->loop_end[hb->id] != i)
                continue;
            emit_jump(g, VM_OP_JMP, -1, g->label[hb->id], loc);
            place(g, g->loop_exit[hb->id]);
        }
    }
    if (g->masked || !g->mf->nins || g->mf->ins[g->mf->nins - 1].op != VM_OP_RET)
        vg_emit(g, VM_OP_RET, 0, loc);
}

MFunc *vmgen_select(const IrFunc *fn)
{
    Gen g = { 0 };
    MFunc *mf = calloc(1, sizeof *mf);
    g.mf = mf;
    g.fn = fn;
    mf->ir = fn;
    g.nvals = fn->next_val_id;
    g.vreg = malloc(((size_t)g.nvals + 1) * sizeof *g.vreg);
    g.label = malloc(((size_t)fn->next_block_id + 1) * sizeof *g.label);
    g.mask = malloc(((size_t)fn->next_block_id + 1) * sizeof *g.mask);
    g.loop_exit = malloc(((size_t)fn->next_block_id + 1) * sizeof *g.loop_exit);
    for (int i = 0; i < g.nvals; i++)
        g.vreg[i] = -1;
    ir_fill_rpo((IrFunc *)fn);
    ir_fill_dominators((IrFunc *)fn);
    layout(&g);
    for (int i = 0; i < g.norder; i++)
        g.label[g.order[i]->id] = new_label(&g);
    /* Region bodies run for the lanes each light reaches: masks. */
    g.masked = has_varying_branch(fn) || fn->nregions > 0;
    g.light_cnt = malloc(((size_t)fn->nregions + 1) * sizeof *g.light_cnt);
    g.light_val = malloc(((size_t)fn->nregions + 1) * sizeof *g.light_val);
    for (int r = 0; r < fn->nregions; r++) {
        g.light_cnt[r] = vg_new_reg(&g, false, 1);
        g.light_val[r] = vg_new_reg(&g, true, 16);
    }
    add_params(&g);
    walk(&g);
    free(g.vreg);
    free(g.label);
    free(g.mask);
    free(g.order);
    free(g.loop_end);
    free(g.loop_exit);
    free(g.region_of);
    free(g.light_cnt);
    free(g.light_val);
    free(g.kval);
    free(g.kreg);
    if (g.failed) {
        mfunc_free(mf);
        return NULL;
    }
    return mf;
}

void mfunc_free(MFunc *mf)
{
    if (!mf)
        return;
    for (int i = 0; i < mf->nins; i++) {
        free(mf->ins[i].args);
        free(mf->ins[i].argw);
    }
    for (int i = 0; i < mf->nregs; i++)
        if (mf->regs[i].owns_init)
            free((void *)mf->regs[i].init);
    free(mf->callees);
    free(mf->strings);
    free(mf->ins);
    free(mf->regs);
    free(mf->label_at);
    free(mf->params);
    free(mf->globals);
    free(mf->dbg);
    free(mf);
}
