/*
** specialize.c: instance specialisation. A renderer knows, for one
** instance of a shader, the values of parameters that no primitive
** overrides: the RIB's constants and the defaults it leaves. Reads of
** such a parameter become its constant before the optimiser runs, so
** folding, SCCP and DCE take the instance's dead branches and constant
** arithmetic away (a light whose shadowname is "" loses its shadow()).
**
** Only inputs are folded: an output parameter is the shader's result.
** The parameter stays in the function's list, so the object's register
** layout, the instance's bindings and message passing (which read the
** registers) are as in the generic code.
**
** requires: ssa, before prepared defaults (pipeline.h); preserves: cfg,
** dom, loops, regions.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/pass.h"

/* The constant of spec entry e for a parameter of type t, or NULL when
   the two disagree. */
static IrVal *constant_of(IrFunc *fn, const IrSpecParam *e, IrType t)
{
    if (e->kind != t.kind || e->arraylen != t.arraylen)
        return NULL;
    if (t.kind == IRT_STRING)
        return t.arraylen || !e->s ? NULL : &ir_const_string(fn, e->s)->val;
    if (!e->f)
        return NULL;
    if (t.arraylen)
        return &ir_const_array(fn, t, e->f)->val;
    switch (t.kind) {
    case IRT_FLOAT: return &ir_const_float(fn, e->f[0])->val;
    case IRT_MATRIX: return &ir_const_matrix(fn, e->f)->val;
    case IRT_COLOR: case IRT_POINT: case IRT_VECTOR: case IRT_NORMAL:
        return &ir_const_triple(fn, t.kind, e->f[0], e->f[1], e->f[2])->val;
    default: return NULL;
    }
}

/* The constant spec gives input parameter p of fn, or NULL. */
static IrVal *folded(IrFunc *fn, int p, const IrSpec *spec)
{
    const IrParam *par = &fn->params[p];
    if (par->output)
        return NULL;
    for (int k = 0; k < spec->n; k++)
        if (!strcmp(spec->p[k].name, par->name))
            return constant_of(fn, &spec->p[k], par->type);
    return NULL;
}

static bool specialize_func(IrFunc *fn, const IrSpec *spec)
{
    IrVal **val = calloc((size_t)fn->nparams + 1, sizeof *val);
    if (!val) {
        perror("rslc");
        exit(1);
    }
    for (int p = 0; p < fn->nparams; p++)
        val[p] = folded(fn, p, spec);
    bool changed = false;
    for (IrBlock *b = fn->entry; b; b = b->next)
        for (IrIns *i = b->first, *next; i; i = next) {
            next = i->next;
            if (i->op == IR_param && i->imm >= 0 && i->imm < fn->nparams && val[i->imm]) {
                opt_replace(i, val[i->imm]);
                changed = true;
            }
        }
    free(val);
    return changed;
}

bool pass_specialize(IrModule *m, const IrSpec *spec)
{
    bool changed = false;
    for (int i = 0; spec && i < m->nfuncs; i++)
        if (m->funcs[i]->kind != SHADER_FUNCTION)
            changed |= specialize_func(m->funcs[i], spec);
    return changed;
}
