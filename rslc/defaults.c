/*
** defaults.c: shader parameters whose defaults are expressions of other
** parameters ("float b = a * 3"). Lowering computes them in a function
** SHADER.defaults (lower.c). An object stores each default as a value, so
** the back end evaluates them at compile time from the other parameters'
** declared defaults: the defaults function's parameter reads become
** those constants, the folding passes run to a fixpoint, and what it
** returns becomes each default. One that does not fold to a constant (it
** reads a global such as u, or asks the renderer) is an error naming the
** parameter.
*/
#include <string.h>

#include "rslc/compile.h"
#include "rslc/diag.h"
#include "rslc/pass.h"

/* k as a constant of fn's pool. */
static IrVal *constant_in(IrFunc *fn, const IrConst *k)
{
    IrType t = k->val.type;
    if (t.arraylen)
        return &ir_const_array(fn, t, k->fa)->val;
    switch (t.kind) {
    case IRT_BOOL: return &ir_const_bool(fn, k->f[0] != 0)->val;
    case IRT_FLOAT: return &ir_const_float(fn, k->f[0])->val;
    case IRT_MATRIX: return &ir_const_matrix(fn, k->f)->val;
    case IRT_STRING: return &ir_const_string(fn, k->s)->val;
    default: return &ir_const_triple(fn, t.kind, k->f[0], k->f[1], k->f[2])->val;
    }
}

static IrIns *find_ret(IrFunc *fn)
{
    for (IrBlock *b = fn->entry; b; b = b->next)
        if (b->last && b->last->op == IR_ret)
            return b->last;
    return NULL;
}

/* Folds shader's computed defaults from dfn, its defaults function. */
static bool fold_into(IrFunc *shader, IrFunc *dfn)
{
    for (IrBlock *b = dfn->entry; b; b = b->next)
        for (IrIns *i = b->first; i; i = i->next)
            if (i->op == IR_param && shader->params[i->imm].def)
                ir_replace_uses(&i->val, constant_in(dfn, shader->params[i->imm].def));
    for (int round = 0; round < 50; round++) {
        bool changed = pass_copy(dfn) | pass_fold(dfn) | pass_sccp(dfn) | pass_phisimp(dfn)
                     | pass_cfgclean(dfn) | pass_dce(dfn);
        if (!changed)
            break;
    }
    IrIns *ret = find_ret(dfn);
    bool ok = ret && ret->nargs == shader->nparams;
    for (int p = 0; ok && p < shader->nparams; p++) {
        IrParam *q = &shader->params[p];
        if (q->def)
            continue;
        if (ret->args[p]->kind != IRV_CONST) {
            diag_error(shader->loc, "the default of parameter '%s' does not reduce to a "
                       "constant: it may use only constants and other parameters' defaults",
                       q->name);
            ok = false;
        } else {
            q->def = (IrConst *)constant_in(shader, (const IrConst *)ret->args[p]);
        }
    }
    return ok;
}

bool rslc_fold_defaults(IrModule *m)
{
    bool ok = true;
    for (int i = 0; i < m->nfuncs; i++) {
        IrFunc *dfn = m->funcs[i];
        const char *dot = strrchr(dfn->name, '.');
        if (!dot || strcmp(dot, ".defaults"))
            continue;
        for (int j = 0; j < m->nfuncs; j++) {
            IrFunc *s = m->funcs[j];
            if (s->kind != SHADER_FUNCTION && strlen(s->name) == (size_t)(dot - dfn->name)
                && !strncmp(s->name, dfn->name, (size_t)(dot - dfn->name)))
                ok &= fold_into(s, dfn);
        }
    }
    return ok;
}
