/*
** vmcall.c: builtin calls in the VM back end. A call becomes CALLB of a
** builtin named by its signature ("noise(p)f", vm/builtins.h), which the
** runtime binds. Beyond the call's own arguments the back end passes
** what the runtime needs and the shader did not say: the shading point
** for lighting, Ng for faceforward(N, I), and derivatives (DERIV over the
** batch's neighbours) for Deriv, area, calculatenormal, filterstep and
** texture lookups at one coordinate. A call with output arguments
** returns a tuple (vm/vm.h), which callouts read at fixed offsets. Du, Dv,
** normalize and inversesqrt have instructions of their own.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/builtins.h"
#include "rslc/check.h"
#include "rslc/diag.h"
#include "backends/vm/vmgen_impl.h"

static char type_letter(IrType t)
{
    static const char letters[] = { [IRT_VOID] = 'x', [IRT_BOOL] = 'b', [IRT_FLOAT] = 'f',
                                    [IRT_COLOR] = 'c', [IRT_POINT] = 'p', [IRT_VECTOR] = 'v',
                                    [IRT_NORMAL] = 'n', [IRT_MATRIX] = 'm', [IRT_STRING] = 's',
                                    [IRT_TUPLE] = 't' };
    return letters[t.kind];
}

int vg_name_index(Gen *g, const char *name)
{
    MFunc *mf = g->mf;
    for (int i = 0; i < mf->nbuiltins; i++)
        if (strcmp(mf->builtins[i], name) == 0)
            return i;
    int cap = mf->nbuiltins;
    mf->builtins = vg_grow(mf->builtins, &cap, mf->nbuiltins + 1, sizeof *mf->builtins);
    mf->builtins[mf->nbuiltins] = strdup(name);
    return mf->nbuiltins++;
}

/* The overload of a call with output arguments (its tuple's layout):
   which arguments are outputs, and its return type. */
static bool tuple_sig(const IrIns *ins, BuiltinSig *sig)
{
    const Builtin *b = &builtin_table[ins->imm];
    for (int r = b->first; builtin_overload_next(b, &r, sig);)
        if (sig->nparams == ins->nargs)
            return true;
    return false;
}

static char ret_letter(const BuiltinSig *sig)
{
    static const char letters[TY_NBASE] = { [TY_VOID] = 'x', [TY_FLOAT] = 'f', [TY_COLOR] = 'c',
                                            [TY_POINT] = 'p', [TY_VECTOR] = 'v', [TY_NORMAL] = 'n',
                                            [TY_MATRIX] = 'm', [TY_STRING] = 's', [TY_BOOL] = 'b' };
    return letters[sig->ret.base];
}

/* The mangled name: one letter per argument, "[N]" for an array, "&" for
   an output of a call that returns a tuple (builtins.h). */
static int builtin_index(Gen *g, const IrIns *ins, const char *extra)
{
    BuiltinSig sig;
    bool tuple = ins->val.type.kind == IRT_TUPLE && tuple_sig(ins, &sig);
    char name[512];
    int n = snprintf(name, sizeof name, "%s(", builtin_table[ins->imm].name);
    for (int i = 0; i < ins->nargs && n < (int)sizeof name - 32; i++) {
        IrType t = ins->args[i]->type;
        n += snprintf(name + n, sizeof name - (size_t)n, "%c", type_letter(t));
        if (t.arraylen)
            n += snprintf(name + n, sizeof name - (size_t)n, "[%d]", t.arraylen);
        if (tuple && sig.param[i].output)
            n += snprintf(name + n, sizeof name - (size_t)n, "&");
    }
    snprintf(name + n, sizeof name - (size_t)n, "%s)%c", extra,
             tuple ? ret_letter(&sig) : type_letter(ins->val.type));
    return vg_name_index(g, name);
}

/* Where a callout's value sits in its call's tuple: after the result's
   floats (callout -1 is the result), each argument at its full width. */
unsigned vg_tuple_offset(const IrIns *call, int which)
{
    BuiltinSig sig;
    if (which < 0 || !tuple_sig(call, &sig))
        return 0;
    char r = ret_letter(&sig);
    unsigned at = r == 'x' ? 0 : r == 'm' ? 16 : strchr("cpvn", r) ? 3 : 1;
    for (int i = 0; i < which; i++)
        at += vg_type_width(call->args[i]->type);
    return at;
}

/* Arguments the back end passes after a builtin's own; the mangled name
   lists them after a '|'. */
typedef struct Extras {
    int n;
    int reg[10];
    unsigned w[10];
    char letters[12];
} Extras;

static void add_extra(Extras *x, int reg, IrType t)
{
    x->reg[x->n] = reg;
    x->w[x->n] = vg_type_width(t);
    x->letters[x->n + 1] = type_letter(t);
    x->letters[++x->n + 1] = '\0';
}

static int global_reg(Gen *g, const char *name, IrKind kind)
{
    const GlobalVar *gv = global_lookup(name);
    bool varying = !gv || gv->detail == DETAIL_VARYING;
    return vg_add_var(g, &g->mf->globals, &g->mf->nglobals, name, ir_type(kind), varying,
                   VM_VAR_READ);
}

static void add_global(Gen *g, Extras *x, const char *name, IrKind kind)
{
    add_extra(x, global_reg(g, name, kind), ir_type(kind));
}

/* dv/du (dir 0) or dv/dv (dir 1) of register r into a new register: zero
   for a uniform value, which does not vary over the surface. */
static int derivative_of(Gen *g, int r, bool varying, IrType t, unsigned dir, SrcLoc loc)
{
    unsigned w = vg_type_width(t);
    if (!varying)
        return vg_const_reg(g, NULL, w);
    int d = vg_new_reg(g, true, w);
    vg_emit3(g, VM_OP_DERIV, w, R(d), R(r), R(-1), loc);
    g->mf->ins[g->mf->nins - 1].imm = dir;
    return d;
}

static int derivative(Gen *g, IrVal *v, unsigned dir, SrcLoc loc)
{
    return derivative_of(g, vg_reg_of(g, v), v->varying, v->type, dir, loc);
}

/* Du and Dv of a value, as two extras. */
static void add_derivatives(Gen *g, Extras *x, int r, bool varying, IrType t, SrcLoc loc)
{
    for (unsigned dir = 0; dir < 2; dir++)
        add_extra(x, derivative_of(g, r, varying, t, dir, loc), t);
}

/* A texture lookup at one coordinate (not the four corners of a region)
   gets the coordinate's derivatives and du, dv, from which the runtime
   makes the filter region; texture(name) without coordinates reads s
   and t first. */
static void texture_extras(Gen *g, const IrIns *ins, Extras *x, BuiltinId id)
{
    int ncoord = 0;
    while (1 + ncoord < ins->nargs && ins->args[1 + ncoord]->type.kind != IRT_STRING)
        ncoord++;
    if (ncoord == 8 || ncoord == 4 || (id != BI_TEXTURE && ncoord != 1))
        return;
    if (id == BI_TEXTURE && ncoord == 0) {
        add_global(g, x, "s", IRT_FLOAT);
        add_global(g, x, "t", IRT_FLOAT);
        for (int k = 0; k < 2; k++)
            add_derivatives(g, x, x->reg[k], true, ir_type(IRT_FLOAT), ins->loc);
    } else {
        for (int i = 1; i <= ncoord; i++)
            add_derivatives(g, x, vg_reg_of(g, ins->args[i]), ins->args[i]->varying,
                            ins->args[i]->type, ins->loc);
    }
    add_global(g, x, "du", IRT_FLOAT);
    add_global(g, x, "dv", IRT_FLOAT);
}

/* The implicit arguments: lighting builtins see the lights from P;
   faceforward(N, I) is faceforward(N, I, Ng); derivative builtins get
   the derivatives of what they differentiate along u and v (Deriv: of
   both arguments), and area and filterstep the steps du and dv; texture
   lookups as texture_extras says. */
static void extras(Gen *g, const IrIns *ins, Extras *x)
{
    const Builtin *b = &builtin_table[ins->imm];
    x->n = 0;
    x->letters[0] = '|';
    x->letters[1] = '\0';
    if (builtin_row(b)->cls == BC_LIGHT)
        add_global(g, x, "P", IRT_POINT);
    if (b->id == BI_FACEFORWARD && ins->nargs == 2)
        add_global(g, x, "Ng", IRT_NORMAL);
    if (b->id == BI_TEXTURE || b->id == BI_ENVIRONMENT || b->id == BI_SHADOW)
        texture_extras(g, ins, x, b->id);
    if (builtin_row(b)->cls != BC_DERIV)
        return;
    bool filter_interval = b->id == BI_FILTERSTEP && ins->nargs >= 3
                        && ins->args[2]->type.kind == IRT_FLOAT;
    if (filter_interval)
        return;
    int which = b->id == BI_FILTERSTEP ? 1 : 0, last = b->id == BI_DERIV ? 1 : which;
    for (int i = which; i <= last; i++)
        add_derivatives(g, x, vg_reg_of(g, ins->args[i]), ins->args[i]->varying,
                        ins->args[i]->type, ins->loc);
    if (b->id == BI_AREA || b->id == BI_FILTERSTEP) {
        add_global(g, x, "du", IRT_FLOAT);
        add_global(g, x, "dv", IRT_FLOAT);
    }
}

void vg_select_intrin(Gen *g, IrIns *ins, int dst)
{
    const Builtin *b = &builtin_table[ins->imm];
    /* The two the VM has instructions for (mathlib.c's, per lane). */
    if (b->id == BI_NORMALIZE && ins->nargs == 1) {
        vg_emit3(g, VM_OP_NORM, 3, R(dst), R(vg_reg_of(g, ins->args[0])), R(-1), ins->loc);
        return;
    }
    if (b->id == BI_INVERSESQRT && ins->nargs == 1) {
        vg_emit3(g, VM_OP_RSQRT, 1, R(dst), R(vg_reg_of(g, ins->args[0])), R(-1), ins->loc);
        return;
    }
    if (b->id == BI_DU || b->id == BI_DV) { /* one instruction, no call */
        int d = derivative(g, ins->args[0], b->id == BI_DV, ins->loc);
        vg_emit3(g, VM_OP_MOV, vg_type_width(ins->val.type), R(dst), R(d), R(-1), ins->loc);
        return;
    }
    Extras x;
    extras(g, ins, &x);
    int nargs = ins->nargs + x.n;
    MOpnd *args = calloc((size_t)nargs + 1, sizeof *args);
    unsigned *argw = calloc((size_t)nargs + 1, sizeof *argw);
    for (int i = 0; i < ins->nargs; i++) {
        args[i] = R(vg_reg_of(g, ins->args[i]));
        argw[i] = vg_type_width(ins->args[i]->type);
    }
    for (int i = 0; i < x.n; i++) {
        args[ins->nargs + i] = R(x.reg[i]);
        argw[ins->nargs + i] = x.w[i];
    }
    unsigned w = dst >= 0 ? vg_type_width(ins->val.type) : 1;
    if (ins->val.type.kind == IRT_TUPLE) {
        w = vg_tuple_offset(ins, ins->nargs);
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
    unsigned idx = (unsigned)builtin_index(g, ins, x.n ? x.letters : "");
    MIns *m = vg_emit(g, VM_OP_CALLB, w, ins->loc);
    m->a = R(dst);
    m->imm = idx;
    m->nargs = nargs;
    m->args = args;
    m->argw = argw;
}

