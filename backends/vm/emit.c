/*
** emit.c: the last step of the VM back end. Registers become operands
** (slot + offset, varying bit), labels become instruction indices, moves
** that allocation made into a slot onto itself disappear, the constants
** and defaults fill the initial uniform file, and a line table records
** where each source line's code starts. The object owns copies of every
** name, so it outlives the compilation.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/diag.h"
#include "backends/vm/vmgen.h"
#include "vm/verify.h"

typedef struct Emitter {
    const MFunc *mf;
    VmObject *o;
    bool nomem;
} Emitter;

static const char *copy_str(Emitter *e, const char *s)
{
    char *c = vm_object_own(e->o, strlen(s) + 1);
    if (!c) {
        e->nomem = true;
        return "";
    }
    return strcpy(c, s);
}

static void *own(Emitter *e, size_t n)
{
    void *p = vm_object_own(e->o, n);
    e->nomem |= p == NULL;
    return p;
}

static unsigned operand(const MFunc *mf, MOpnd o)
{
    if (o.reg < 0)
        return 0;
    const MReg *r = &mf->regs[o.reg];
    return ((unsigned)r->slot + o.off) | (r->varying ? VM_V : 0);
}

/* Instructions that do nothing: a move onto itself (coalescing makes
   them) or a NOP left by fusion. */
static bool self_move(const MFunc *mf, const MIns *i)
{
    return i->op == VM_OP_NOP || (i->op == VM_OP_MOV && operand(mf, i->a) == operand(mf, i->b));
}

/* Words an instruction takes: itself and its X words. */
static uint32_t words(const MIns *i)
{
    switch (i->op) {
    case VM_OP_SEL:
    case VM_OP_AGET:
    case VM_OP_ASET:
        return 2;
    case VM_OP_CALLB:
        return 1 + (uint32_t)i->nargs;
    default:
        return 1;
    }
}

static void encode(const MFunc *mf, const MIns *i, const uint32_t *pc_of, VmIns *out)
{
    unsigned a = operand(mf, i->a), b = operand(mf, i->b), c = operand(mf, i->c);
    unsigned d = operand(mf, i->d);
    switch (i->op) {
    case VM_OP_JMP:
    case VM_OP_JZ:
    case VM_OP_JNZ:
    case VM_OP_JNONE:
        out[0] = vm_jump(i->op, a, pc_of[mf->label_at[i->label]]);
        return;
    case VM_OP_SEL:
        out[0] = vm_ins(i->op, i->w, a, b, c);
        out[1] = vm_ins(VM_OP_X, 0, d, 0, 0);
        return;
    case VM_OP_AGET:
        out[0] = vm_ins(i->op, i->w, a, b, c);
        out[1] = vm_ins(VM_OP_X, 0, i->imm, 0, 0);
        return;
    case VM_OP_ASET:
        out[0] = vm_ins(i->op, i->w, a, b, c);
        out[1] = vm_ins(VM_OP_X, 0, d, i->imm, 0);
        return;
    case VM_OP_DERIV:
        out[0] = vm_ins(i->op, i->w, a, b, i->imm);
        return;
    case VM_OP_CALLB:
        out[0] = vm_ins(i->op, i->w, a, i->imm, (unsigned)i->nargs);
        for (int k = 0; k < i->nargs; k++)
            out[1 + k] = vm_ins(VM_OP_X, 0, operand(mf, i->args[k]), i->argw[k], 0);
        return;
    default:
        out[0] = vm_ins(i->op, i->w, a, b, c);
    }
}

static VmVar *vars(Emitter *e, const MVar *v, int n)
{
    VmVar *out = own(e, sizeof *out * (size_t)n);
    for (int i = 0; out && i < n; i++) {
        out[i] = v[i].var;
        out[i].name = copy_str(e, v[i].var.name);
        out[i].reg = operand(e->mf, (MOpnd){ v[i].reg, 0 });
    }
    return out;
}

/* ---- debug information (rslc -g) -------------------------------------------- */

/* Is frame f the frame `anc` or inside it? */
static void build_frames(Emitter *e, VmDebug *d, const uint32_t *pc_of)
{
    const MFunc *mf = e->mf;
    const IrFunc *fn = mf->ir;
    uint32_t ncode = e->o->prog.ncode;
    d->nframes = fn->nframes ? (uint32_t)fn->nframes : 1;
    d->frames = own(e, sizeof *d->frames * d->nframes);
    d->pc_frame = own(e, sizeof *d->pc_frame * (ncode + 1));
    if (!d->frames || !d->pc_frame)
        return;
    for (uint32_t f = 0; f < d->nframes; f++) {
        const IrFrame *x = fn->nframes ? &fn->frames[f] : NULL;
        d->frames[f] = (VmFrame){ copy_str(e, x ? x->func : fn->name),
                                  copy_str(e, x && x->call.file ? x->call.file : ""),
                                  x ? (uint32_t)x->call.line : 0,
                                  x && x->parent >= 0 ? (uint32_t)x->parent : VM_NO_FRAME, ncode };
    }
    for (int p = 0; p < mf->nins; p++) {
        uint32_t f = (uint32_t)mf->ins[p].loc.inl < d->nframes ? (uint32_t)mf->ins[p].loc.inl : 0;
        for (uint32_t pc = pc_of[p]; pc < pc_of[p + 1]; pc++)
            d->pc_frame[pc] = f;
        /* A frame starts where the first code of it, or of a call
           inlined in it, does: f and its ancestors. A frame's entry is
           never after its children's, so the walk up stops at the first
           that starts earlier already. */
        for (int g = (int)f; g >= 0 && pc_of[p] < pc_of[p + 1] && pc_of[p] < d->frames[g].entry;
             g = fn->nframes && g < fn->nframes ? fn->frames[g].parent : -1)
            d->frames[g].entry = pc_of[p];
    }
}

/* Each source variable with the ranges of the registers that hold it. */
static void build_vars(Emitter *e, VmDebug *d, const uint32_t *pc_of)
{
    const MFunc *mf = e->mf;
    const IrFunc *fn = mf->ir;
    uint32_t ncode = e->o->prog.ncode;
    d->vars = own(e, sizeof *d->vars * ((size_t)fn->ndbgvars + 1));
    d->ranges = own(e, sizeof *d->ranges * ((size_t)mf->ndbg + 1));
    if (!d->vars || !d->ranges)
        return;
    /* The entries of mf->dbg grouped by variable, in their order: start[v]
       to start[v + 1] in byvar. */
    int *start = calloc((size_t)fn->ndbgvars + 2, sizeof *start);
    int *byvar = malloc(((size_t)mf->ndbg + 1) * sizeof *byvar);
    if (!start || !byvar) {
        free(start);
        free(byvar);
        e->nomem = true;
        return;
    }
    for (int k = 0; k < mf->ndbg; k++)
        if (mf->dbg[k].var >= 0 && mf->dbg[k].var < fn->ndbgvars)
            start[mf->dbg[k].var + 2]++;
    for (int v = 0; v < fn->ndbgvars; v++)
        start[v + 2] += start[v + 1];
    for (int k = 0; k < mf->ndbg; k++)
        if (mf->dbg[k].var >= 0 && mf->dbg[k].var < fn->ndbgvars)
            byvar[start[mf->dbg[k].var + 1]++] = k;
    for (int v = 0; v < fn->ndbgvars; v++) {
        const IrDbgVar *x = &fn->dbgvars[v];
        VmDbgVar *out = &d->vars[d->nvars++];
        *out = (VmDbgVar){ copy_str(e, x->name), vg_vm_type(x->type.kind),
                           (unsigned)x->type.arraylen, (uint32_t)x->frame, d->ranges + d->nranges, 0 };
        for (int j = start[v]; j < start[v + 1]; j++) {
            int k = byvar[j];
            const MReg *r = &mf->regs[mf->dbg[k].reg];
            if (r->slot < 0 || r->dbg_lo > r->dbg_hi
                || r->width < vm_type_slots(out->type, out->arraylen))
                continue;
            uint32_t lo = pc_of[r->dbg_lo > mf->nins ? mf->nins : r->dbg_lo];
            uint32_t hi = r->dbg_hi >= mf->nins ? ncode : pc_of[r->dbg_hi];
            if (lo <= hi)
                d->ranges[d->nranges++] = (VmDbgRange){ lo, hi,
                                                        operand(mf, (MOpnd){ mf->dbg[k].reg, 0 }) };
        }
        out->nranges = (uint32_t)(d->ranges + d->nranges - out->ranges);
    }
    free(start);
    free(byvar);
}

static void build_debug(Emitter *e, const uint32_t *pc_of)
{
    VmDebug *d = own(e, sizeof *d);
    if (!d)
        return;
    build_frames(e, d, pc_of);
    if (!e->nomem)
        build_vars(e, d, pc_of);
    e->o->debug = d;
}

static void build(Emitter *e, unsigned nu, unsigned nv)
{
    const MFunc *mf = e->mf;
    VmObject *o = e->o;
    uint32_t *pc_of = own(e, sizeof *pc_of * ((size_t)mf->nins + 1));
    if (!pc_of)
        return;
    uint32_t pc = 0;
    for (int p = 0; p < mf->nins; p++) {
        pc_of[p] = pc;
        if (!self_move(mf, &mf->ins[p]))
            pc += words(&mf->ins[p]);
    }
    pc_of[mf->nins] = pc;
    VmIns *code = own(e, sizeof *code * pc);
    VmLine *lines = own(e, sizeof *lines * pc);
    float *uinit = own(e, sizeof *uinit * nu);
    if (!code || !lines || !uinit)
        return;
    uint32_t nlines = 0;
    for (int p = 0; p < mf->nins; p++) {
        const MIns *i = &mf->ins[p];
        if (self_move(mf, i))
            continue;
        encode(mf, i, pc_of, code + pc_of[p]);
        VmLine *prev = nlines ? &lines[nlines - 1] : NULL;
        if (i->loc.file && i->loc.line > 0
            && (!prev || prev->line != (uint32_t)i->loc.line || strcmp(prev->file, i->loc.file)))
            lines[nlines++] = (VmLine){ pc_of[p], (uint32_t)i->loc.line,
                                        copy_str(e, i->loc.file) };
    }
    uint32_t nvinit = 0;
    for (int r = 0; r < mf->nregs; r++) {
        const MReg *x = &mf->regs[r];
        if (x->init && !x->varying && x->slot >= 0)
            memcpy(uinit + x->slot, x->init, x->width * sizeof *uinit);
        else if (x->init && x->slot >= 0)
            nvinit += x->width;
    }
    VmInit *vinit = own(e, sizeof *vinit * (nvinit + 1));
    if (!vinit)
        return;
    nvinit = 0;
    for (int r = 0; r < mf->nregs; r++) {
        const MReg *x = &mf->regs[r];
        for (unsigned k = 0; x->init && x->varying && x->slot >= 0 && k < x->width; k++)
            vinit[nvinit++] = (VmInit){ (uint32_t)x->slot + k, x->init[k] };
    }
    const char **strings = own(e, sizeof *strings * ((size_t)mf->nstrings + 1));
    VmCallee *callees = own(e, sizeof *callees * ((size_t)mf->ncallees + 1));
    if (!strings || !callees)
        return;
    for (int i = 0; i < mf->nstrings; i++)
        strings[i] = copy_str(e, mf->strings[i]);
    if (mf->ncallees) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(callees, mf->callees, sizeof *callees * (size_t)mf->ncallees);
    static const VmShaderKind kinds[] = { [SHADER_SURFACE] = VM_SURFACE,
                                          [SHADER_LIGHT] = VM_LIGHT,
                                          [SHADER_DISPLACEMENT] = VM_DISPLACEMENT,
                                          [SHADER_VOLUME] = VM_VOLUME,
                                          [SHADER_IMAGER] = VM_IMAGER };
    o->name = copy_str(e, mf->ir->name);
    o->kind = kinds[mf->ir->kind];
    o->prog = (VmProgram){ code, pc, nu, nv, uinit, strings, (uint32_t)mf->nstrings, NULL,
                           (uint32_t)mf->ncallees, vinit, nvinit };
    o->callees = callees;
    o->params = vars(e, mf->params, mf->nparams);
    o->nparams = (uint32_t)mf->nparams;
    o->globals = vars(e, mf->globals, mf->nglobals);
    o->nglobals = (uint32_t)mf->nglobals;
    o->lines = lines;
    o->nlines = nlines;
    if (mf->debug)
        build_debug(e, pc_of);
}

VmObject *vmgen_emit(const MFunc *mf, unsigned nuniform, unsigned nvarying)
{
    if (mf->ir->kind == SHADER_FUNCTION) {
        diag_error(mf->rc, mf->ir->loc, "'%s' is a function: only shaders compile to objects",
                   mf->ir->name);
        return NULL;
    }
    if (nuniform > 0x7fff || nvarying > 0x7fff) {
        diag_error(mf->rc, mf->ir->loc, "shader '%s' needs %u uniform and %u varying register slots; "
                   "the VM has 32767 of each", mf->ir->name, nuniform, nvarying);
        return NULL;
    }
    Emitter e = { mf, vm_object_new(), false };
    if (!e.o) {
        diag_error(mf->rc, mf->ir->loc, "out of memory");
        return NULL;
    }
    build(&e, nuniform, nvarying);
    char msg[256];
    if (e.nomem) {
        diag_error(mf->rc, mf->ir->loc, "out of memory");
    } else if (vm_verify(&e.o->prog, msg, sizeof msg) != 0) {
        /* Our own output failed our own checks: a compiler bug, said so. */
        diag_internal(mf->rc, mf->ir->loc, "generated %s", msg);
    } else {
        return e.o;
    }
    vm_object_free(e.o);
    return NULL;
}
