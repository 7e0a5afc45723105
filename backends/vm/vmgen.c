/*
** vmgen.c: instruction selection for the VM (vmgen_select, the back
** end's entry): IR values become virtual registers and each IR
** instruction its VM instructions; builtin calls are vmcall.c's. The
** control flow around them, masked or plain, is linearize.c's: this file
** drives it and selects each block's body as linearize.c walks the
** blocks.
**
** Regions (illuminance, illuminate, solar) become counted loops over the
** host's lights (linearize.c); here a light's L, Cl and Ol are read from
** the region's light registers. User function calls must have been
** inlined.
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
    diag_error(g->mf->rc, ins->loc, "the bytecode VM does not support %s yet", what);
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

void vg_befriend(Gen *g, int a, int b)
{
    MReg *r = g->mf->regs;
    if (r[a].friend < 0 && r[a].varying == r[b].varying && r[a].width == r[b].width)
        r[a].friend = b;
    if (r[b].friend < 0 && r[a].varying == r[b].varying && r[a].width == r[b].width)
        r[b].friend = a;
}

void vg_select_ins(Gen *g, IrIns *ins)
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
        vg_befriend(g, dst, vg_reg_of(g, ins->args[0]));
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
    case IR_select: { /* arrays: element by element (SEL has widths 1, 3, 16) */
        IrType t = ins->val.type;
        unsigned ew = t.arraylen ? vg_kind_width(t.kind) : w;
        unsigned n = t.arraylen ? (unsigned)t.arraylen : 1;
        int c = vg_reg_of(g, ins->args[0]), a = vg_reg_of(g, ins->args[1]);
        int b = vg_reg_of(g, ins->args[2]);
        for (unsigned k = 0; k < n; k++) {
            vg_emit3(g, VM_OP_SEL, ew, RO(dst, k * ew), R(c), RO(a, k * ew), ins->loc);
            g->mf->ins[g->mf->nins - 1].d = RO(b, k * ew);
        }
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
        vg_befriend(g, r, vg_reg_of(g, v));
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
        diag_error(g->mf->rc, ins->loc, "call of '%s' could not be inlined (it is recursive or holds "
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
        if (r >= 0 && g->fn->regions[r].kind == IRR_GATHER) {
            /* Pair imm's value: after the hit flag and the earlier
               fetched values (linearize.c, gather_terminator). */
            const IrIns *t = g->fn->regions[r].header->last;
            unsigned at = 1;
            int pair = 0, k = 5;
            for (; k + 1 < t->nargs && pair < ins->imm; k += 2, pair++)
                if (vg_gather_output(t, k))
                    at += vg_type_width(t->args[k + 1]->type);
            if (k + 1 >= t->nargs || !vg_gather_output(t, k)) {
                vg_unsupported(g, ins, "this gather value");
                break;
            }
            vg_emit3(g, VM_OP_MOV, vg_type_width(ins->val.type), R(dst), RO(g->light_val[r], at),
                     R(-1), ins->loc);
            break;
        }
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

MFunc *vmgen_select(RslcCtx *rc, const IrFunc *fn)
{
    Gen g = { 0 };
    MFunc *mf = calloc(1, sizeof *mf);
    g.mf = mf;
    g.fn = fn;
    mf->rc = rc;
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
    vg_layout(&g);
    g.light_cnt = malloc(((size_t)fn->nregions + 1) * sizeof *g.light_cnt);
    g.light_val = malloc(((size_t)fn->nregions + 1) * sizeof *g.light_val);
    for (int r = 0; r < fn->nregions; r++) {
        g.light_cnt[r] = vg_new_reg(&g, false, 1);
        g.light_val[r] = vg_new_reg(&g, true, 16);
    }
    add_params(&g);
    vg_linearize(&g);
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
