/*
** defaults.c: shader parameters whose defaults are expressions of other
** parameters ("float b = a * 3", "point from = point "shader" (0,0,0)").
** Lowering computes them in a function SHADER.defaults (lower.c).
**
** A default that folds to a constant without reading any parameter
** ("float k = sin(0.3)") is stored as a value like any other: a function
** SHADER.defaults.fold calls the defaults function with every parameter
** undefined, and after inlining, folding reduces what it returns.
**
** The others (they read parameters, or coordinate systems) are computed
** when the shader runs, from the parameters as the instance binds them:
** a prologue calls the defaults function and, for each such parameter,
** takes its value unless the instance gave one. Whether it did is a
** hidden uniform parameter "__given_NAME" that the renderer (or rslvm
** --set) sets to 1 (vm_param_given).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/pipeline.h"
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

static IrIns *add(IrBlock *b, IrOp op, IrType t, IrVal *x, IrVal *y, SrcLoc loc)
{
    IrIns *i = ir_ins_new(b->fn, op, t, loc);
    if (x)
        ir_ins_add_arg(i, x);
    if (y)
        ir_ins_add_arg(i, y);
    ir_append(b, i);
    return i;
}

/* A call of dfn in block b with args; the callouts of every parameter.
   uniform: a call for the uniform parameters only, which cannot depend
   on varying ones: those get undef, and the call stays uniform (the
   inlined copy of a varying call is varying throughout). */
static IrIns *call_defaults(IrBlock *b, IrFunc *dfn, IrVal **args, IrVal **outs, SrcLoc loc,
                            bool uniform)
{
    IrIns *call = ir_ins_new(b->fn, IR_call, ir_type(IRT_TUPLE), loc);
    call->sym = dfn->name;
    call->callee = dfn;
    for (int p = 0; p < dfn->nparams; p++)
        ir_ins_add_arg(call, uniform && args[p]->varying ? ir_undef(b->fn, args[p]->type)
                                                         : args[p]);
    ir_append(b, call);
    for (int p = 0; p < dfn->nparams; p++) {
        IrIns *o = add(b, IR_callout, dfn->params[p].type, &call->val, NULL, loc);
        o->imm = p;
        o->val.varying = dfn->params[p].varying;
        if (!uniform)
            call->val.varying |= o->val.varying;
        outs[p] = &o->val;
    }
    return call;
}

/* SHADER.defaults.fold: returns what dfn computes with every parameter
   undefined, so that what folds to a constant depends on none. */
static IrFunc *fold_func(IrModule *m, IrFunc *shader, IrFunc *dfn)
{
    char name[512];
    snprintf(name, sizeof name, "%s.fold", dfn->name);
    IrFunc *f = ir_func_new(m, ir_intern(shader, name), SHADER_FUNCTION, ir_type(IRT_VOID));
    f->loc = shader->loc;
    int n = shader->nparams;
    IrVal **args = calloc((size_t)n + 1, sizeof *args), **outs = calloc((size_t)n + 1, sizeof *outs);
    IrBlock *b = ir_block_new(f);
    for (int p = 0; p < n; p++)
        args[p] = ir_undef(f, shader->params[p].type);
    call_defaults(b, dfn, args, outs, f->loc, false);
    IrIns *ret = add(b, IR_ret, ir_type(IRT_VOID), NULL, NULL, f->loc);
    for (int p = 0; p < n; p++)
        ir_ins_add_arg(ret, outs[p]);
    free(args);
    free(outs);
    return f;
}

/* After inlining: folds f and takes every constant it returns as the
   shader's default. */
static void take_constants(IrFunc *shader, IrFunc *f)
{
    for (int round = 0; round < 50; round++)
        if (!(pass_copy(f) | pass_fold(f) | pass_sccp(f) | pass_phisimp(f) | pass_cfgclean(f)
              | pass_dce(f)))
            break;
    IrIns *ret = NULL;
    for (IrBlock *b = f->entry; b; b = b->next)
        if (b->last && b->last->op == IR_ret)
            ret = b->last;
    for (int p = 0; ret && p < shader->nparams && p < ret->nargs; p++)
        if (!shader->params[p].def && ret->args[p]->kind == IRV_CONST)
            shader->params[p].def = (IrConst *)constant_in(shader, (IrConst *)ret->args[p]);
}

/* A new first block for fn, falling through to the old one. */
static IrBlock *new_entry(IrFunc *fn)
{
    IrBlock *old = fn->entry, *b = ir_block_new(fn);
    b->prev->next = NULL;
    b->prev = NULL;
    b->next = old;
    old->prev = b;
    fn->entry = b;
    return b;
}

/* A hidden uniform float parameter "__given_NAME", 0 by default. */
static int given_param(IrFunc *shader, const char *name)
{
    char buf[256];
    snprintf(buf, sizeof buf, "__given_%s", name);
    int g = shader->nparams;
    IrParam *ps = realloc(shader->params, (size_t)(g + 1) * sizeof *ps);
    if (!ps) {
        perror("rslc");
        exit(1);
    }
    shader->params = ps;
    ps[g] = (IrParam){ ir_intern(shader, buf), ir_type(IRT_FLOAT), false, false,
                       ir_const_float(shader, 0) };
    shader->nparams++;
    return g;
}

/* The prologue for the defaults that did not fold (see the top). */
static void add_prologue(IrFunc *shader, IrFunc *dfn)
{
    int n = shader->nparams, computed = 0;
    for (int p = 0; p < n; p++)
        computed += !shader->params[p].def;
    if (!computed)
        return;
    SrcLoc loc = shader->loc;
    IrBlock *old = shader->entry, *b = new_entry(shader);
    IrVal **cur = calloc((size_t)n + 1, sizeof *cur), **outs = calloc((size_t)n + 1, sizeof *outs);
    for (int p = 0; p < n; p++) {
        IrIns *in = add(b, IR_param, shader->params[p].type, NULL, NULL, loc);
        in->imm = p;
        in->val.varying = shader->params[p].varying;
        cur[p] = &in->val;
    }
    IrVal **uouts = calloc((size_t)n + 1, sizeof *uouts);
    if (call_defaults(b, dfn, cur, outs, loc, false)->val.varying)
        call_defaults(b, dfn, cur, uouts, loc, true);
    else
        memcpy(uouts, outs, (size_t)n * sizeof *uouts);
    for (int p = 0; p < n; p++) {
        if (shader->params[p].def)
            continue;
        if (!shader->params[p].varying)
            outs[p] = uouts[p];
        int g = given_param(shader, shader->params[p].name);
        const IrParam *q = &shader->params[p];
        IrIns *given = add(b, IR_param, ir_type(IRT_FLOAT), NULL, NULL, loc);
        given->imm = g;
        IrIns *yes = add(b, IR_ne, ir_type(IRT_BOOL), &given->val,
                         &ir_const_float(shader, 0)->val, loc);
        IrIns *sel = add(b, IR_select, q->type, &yes->val, cur[p], loc);
        ir_ins_add_arg(sel, outs[p]);
        sel->val.varying = q->varying;
        /* The body's reads of the parameter take the chosen value. */
        for (IrBlock *bb = old; bb; bb = bb->next)
            for (IrIns *i = bb->first; i; i = i->next)
                if (i->op == IR_param && i->imm == p)
                    ir_replace_uses(&i->val, &sel->val);
        /* The register holds the value too, for the host and debugger. */
        IrIns *set = add(b, IR_pset, ir_type(IRT_VOID), &sel->val, NULL, loc);
        set->imm = p;
    }
    free(cur);
    free(outs);
    free(uouts);
    IrIns *jmp = add(b, IR_jmp, ir_type(IRT_VOID), NULL, NULL, loc);
    ir_set_succ(jmp, 0, old);
}

void rslc_prepare_defaults(IrModule *m)
{
    int nfuncs = m->nfuncs;
    IrFunc **fold = calloc((size_t)nfuncs + 1, sizeof *fold), **shader = calloc((size_t)nfuncs + 1, sizeof *shader);
    for (int i = 0; i < nfuncs; i++) {
        IrFunc *dfn = m->funcs[i];
        const char *dot = strrchr(dfn->name, '.');
        if (!dot || strcmp(dot, ".defaults"))
            continue;
        for (int j = 0; j < nfuncs; j++) {
            IrFunc *s = m->funcs[j];
            if (s->kind != SHADER_FUNCTION && strlen(s->name) == (size_t)(dot - dfn->name)
                && !strncmp(s->name, dfn->name, (size_t)(dot - dfn->name))) {
                shader[i] = s;
                fold[i] = fold_func(m, s, dfn);
            }
        }
    }
    /* A fold function too large to flatten keeps its call: its defaults
       are then computed by the prologue, and inlining that into the
       shader reports the size. */
    for (int i = 0; i < nfuncs; i++) {
        bool changed;
        if (fold[i])
            pass_inline_into(NULL, m, fold[i], &changed);
    }
    for (int i = 0; i < nfuncs; i++)
        if (fold[i]) {
            take_constants(shader[i], fold[i]);
            add_prologue(shader[i], m->funcs[i]);
        }
    free(fold);
    free(shader);
}
