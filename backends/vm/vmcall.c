/*
** vmcall.c: builtin calls in the VM back end. A call becomes CALLB of a
** callee (vm/vm.h): the call's row in runtime/builtins.def and the types
** it passes, which the runtime binds by row. The implicit arguments (the
** shading point for lighting, derivatives for Deriv, area, filterstep and
** texture lookups) are already the call's last arguments, lowered from
** the row's implicit column. A call with output arguments
** returns a tuple (vm/vm.h), which callouts read at fixed offsets. Du, Dv,
** normalize and inversesqrt have instructions of their own.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/builtins.h"
#include "rslc/diag.h"
#include "backends/vm/vmgen_impl.h"

char vg_type_letter(IrType t)
{
    static const char letters[] = { [IRT_VOID] = 'x', [IRT_BOOL] = 'b', [IRT_FLOAT] = 'f',
                                    [IRT_COLOR] = 'c', [IRT_POINT] = 'p', [IRT_VECTOR] = 'v',
                                    [IRT_NORMAL] = 'n', [IRT_MATRIX] = 'm', [IRT_STRING] = 's',
                                    [IRT_TUPLE] = 't' };
    return letters[t.kind];
}

static bool same_callee(const VmCallee *a, const VmCallee *b)
{
    return a->row == b->row && a->result == b->result && a->nargs == b->nargs
        && memcmp(a->type, b->type, a->nargs) == 0
        && memcmp(a->arraylen, b->arraylen, a->nargs * sizeof *a->arraylen) == 0;
}

int vg_callee_index(Gen *g, const VmCallee *c)
{
    MFunc *mf = g->mf;
    for (int i = 0; i < mf->ncallees; i++)
        if (same_callee(&mf->callees[i], c))
            return i;
    int cap = mf->ncallees;
    mf->callees = vg_grow(mf->callees, &cap, mf->ncallees + 1, sizeof *mf->callees);
    mf->callees[mf->ncallees] = *c;
    return mf->ncallees++;
}

/* The overload a call resolved to, decoded. */
static void row_sig(const IrIns *ins, BuiltinSig *sig)
{
    const char *code = builtin_rows[ins->imm].sig;
    builtin_sig_next(&code, sig);
}

/* The call's own arguments: the rest are its row's implicit ones. */
static int own_args(const IrIns *ins)
{
    return ins->nargs - builtin_implicit_count(builtin_rows[ins->imm].implicit);
}

static char ret_letter(const BuiltinSig *sig)
{
    static const char letters[TY_NBASE] = { [TY_VOID] = 'x', [TY_FLOAT] = 'f', [TY_COLOR] = 'c',
                                            [TY_POINT] = 'p', [TY_VECTOR] = 'v', [TY_NORMAL] = 'n',
                                            [TY_MATRIX] = 'm', [TY_STRING] = 's', [TY_BOOL] = 'b' };
    return letters[sig->ret.base];
}

/* The array row of spline for the variadic row `row` ("cfcccc." gives
   "cfc[]", "csfcccc." gives "csfc[]"), or -1. */
static int spline_array_row(int row)
{
    const char *sig = builtin_rows[row].sig;
    size_t n = strlen(sig);
    if (builtin_rows[row].fn != BI_SPLINE || n < 2 || sig[n - 1] != '.')
        return -1;
    char want[16];
    size_t keep = sig[1] == 's' ? 4 : 3;
    memcpy(want, sig, keep);
    memcpy(want + keep, "[]", 3);
    for (int r = 0; r < BO_COUNT; r++)
        if (builtin_rows[r].fn == BI_SPLINE && strcmp(builtin_rows[r].sig, want) == 0)
            return r;
    return -1;
}

void vmgen_legalize(IrFunc *fn)
{
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first, *next; i; i = next) {
            next = i->next;
            int arow = i->op == IR_intrin && i->nargs > VM_MAX_ARGS ? spline_array_row(i->imm) : -1;
            if (arow < 0)
                continue;
            int first = builtin_rows[i->imm].sig[1] == 's' ? 2 : 1; /* the first knot */
            IrType et = i->args[first]->type;
            IrVal *arr = ir_undef(fn, (IrType){ et.kind, i->nargs - first });
            for (int k = first; k < i->nargs; k++) {
                IrIns *set = ir_ins_new(fn, IR_aset, arr->type, i->loc);
                ir_ins_add_arg(set, arr);
                ir_ins_add_arg(set, &ir_const_float(fn, (float)(k - first))->val);
                ir_ins_add_arg(set, i->args[k]);
                set->val.varying = arr->varying || i->args[k]->varying;
                ir_insert_before(i, set);
                arr = &set->val;
            }
            IrIns *call = ir_ins_new(fn, IR_intrin, i->val.type, i->loc);
            call->imm = arow;
            call->val.varying = i->val.varying;
            for (int k = 0; k < first; k++)
                ir_ins_add_arg(call, i->args[k]);
            ir_ins_add_arg(call, arr);
            ir_insert_before(i, call);
            ir_replace_uses(&i->val, &call->val);
            ir_ins_delete(i);
        }
}

void vmgen_intrin_callee(const IrIns *ins, VmCallee *c)
{
    BuiltinSig sig;
    row_sig(ins, &sig);
    *c = (VmCallee){ 0 };
    c->row = (uint32_t)ins->imm;
    c->result = ins->val.type.kind == IRT_TUPLE ? ret_letter(&sig) : vg_type_letter(ins->val.type);
    c->nargs = (uint8_t)(ins->nargs < VM_MAX_ARGS ? ins->nargs : VM_MAX_ARGS);
    for (int i = 0; i < c->nargs; i++) {
        c->type[i] = vg_type_letter(ins->args[i]->type);
        c->arraylen[i] = (uint16_t)ins->args[i]->type.arraylen;
    }
}

/* The callee of an intrin (vmgen_intrin_callee), added on first use. */
static int builtin_index(Gen *g, const IrIns *ins)
{
    if (ins->nargs > VM_MAX_ARGS)
        vg_unsupported(g, ins, "a builtin call of more than 32 arguments");
    VmCallee c;
    vmgen_intrin_callee(ins, &c);
    return vg_callee_index(g, &c);
}

/* Where a callout's value sits in its call's tuple: after the result's
   floats (callout -1 is the result), each argument at its full width. */
unsigned vg_tuple_offset(const IrIns *call, int which)
{
    if (which < 0)
        return 0;
    BuiltinSig sig;
    row_sig(call, &sig);
    char r = ret_letter(&sig);
    unsigned at = r == 'x' ? 0 : r == 'm' ? 16 : strchr("cpvn", r) ? 3 : 1;
    for (int i = 0; i < which; i++)
        at += vg_type_width(call->args[i]->type);
    return at;
}

/* dv/du (dir 0) or dv/dv (dir 1) of v into a new register: zero for a
   uniform value, which does not vary over the surface. */
static int derivative(Gen *g, IrVal *v, unsigned dir, SrcLoc loc)
{
    unsigned w = vg_type_width(v->type);
    if (!v->varying)
        return vg_const_reg(g, NULL, w);
    int d = vg_new_reg(g, true, w);
    vg_emit3(g, VM_OP_DERIV, w, R(d), R(vg_reg_of(g, v)), R(-1), loc);
    g->mf->ins[g->mf->nins - 1].imm = dir;
    return d;
}

void vg_select_intrin(Gen *g, IrIns *ins, int dst)
{
    BuiltinId fn = builtin_rows[ins->imm].fn;
    /* The two the VM has instructions for (mathlib.c's, per lane). */
    if (fn == BI_NORMALIZE && ins->nargs == 1) {
        vg_emit3(g, VM_OP_NORM, 3, R(dst), R(vg_reg_of(g, ins->args[0])), R(-1), ins->loc);
        return;
    }
    if (fn == BI_INVERSESQRT && ins->nargs == 1) {
        vg_emit3(g, VM_OP_RSQRT, 1, R(dst), R(vg_reg_of(g, ins->args[0])), R(-1), ins->loc);
        return;
    }
    if (fn == BI_DU || fn == BI_DV) { /* one instruction, no call */
        int d = derivative(g, ins->args[0], fn == BI_DV, ins->loc);
        vg_emit3(g, VM_OP_MOV, vg_type_width(ins->val.type), R(dst), R(d), R(-1), ins->loc);
        return;
    }
    int nargs = ins->nargs;
    MOpnd *args = calloc((size_t)nargs + 1, sizeof *args);
    unsigned *argw = calloc((size_t)nargs + 1, sizeof *argw);
    for (int i = 0; i < nargs; i++) {
        args[i] = R(vg_reg_of(g, ins->args[i]));
        argw[i] = vg_type_width(ins->args[i]->type);
    }
    unsigned w = dst >= 0 ? vg_type_width(ins->val.type) : 1;
    if (ins->val.type.kind == IRT_TUPLE) {
        w = vg_tuple_offset(ins, own_args(ins));
        if (w > VM_MAX_VALUE) {
            vg_unsupported(g, ins, "a builtin call whose outputs exceed the VM's value width");
            w = 1;
        }
        g->mf->regs[dst].width = w;
    }
    if (dst < 0) { /* a void builtin still names a destination: a scratch,
                      varying when an argument is (it runs per lane) */
        bool varying = false;
        for (int i = 0; i < ins->nargs; i++)
            varying |= ins->args[i]->varying;
        dst = vg_new_reg(g, varying, 1);
    }
    unsigned idx = (unsigned)builtin_index(g, ins);
    MIns *m = vg_emit(g, VM_OP_CALLB, w, ins->loc);
    m->a = R(dst);
    m->imm = idx;
    m->nargs = nargs;
    m->args = args;
    m->argw = argw;
}

