/*
** pipeline.c: the target-free stages of compiling, one call each
** (pipeline.h): preprocess, parse and check; lower and optimise; the
** wrapper rslvm --call runs a function through.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/check.h"
#include "rslc/diag.h"
#include "rslc/parse.h"
#include "rslc/pass.h"
#include "rslc/pipeline.h"

Unit *rslc_front_end(RslcCtx *rc, const char *path, const CppOptions *cpp)
{
    size_t len;
    char *text = cpp_run(path, cpp, &len);
    if (!text)
        return NULL;
    cpp_index(rc, text, len);
    Unit *unit = parse_rsl(rc, text, len, path);
    if (unit && !check_unit(rc, unit))
        unit = NULL;
    /* The index still points into text: diagnostics are all printed. */
    cpp_reset(rc);
    free(text);
    return unit;
}

IrModule *rslc_middle_end(RslcCtx *rc, const Unit *unit, int level,
                          const PassOptions *passes)
{
    IrModule *m = ir_lower_unit(rc, unit);
    if (m && !passes_run_pipeline_opts(m, level, passes)) {
        ir_module_free(m);
        m = NULL;
    }
    return m;
}

IrFunc *rslc_call_wrapper(IrModule *m, IrFunc *callee)
{
    IrFunc *w = ir_func_new(m, "__call", SHADER_SURFACE, ir_type(IRT_VOID));
    SrcLoc loc = callee->loc;
    bool tuple = false, ret = callee->ret.kind != IRT_VOID;
    w->loc = loc;
    w->params = calloc((size_t)callee->nparams + 1, sizeof *w->params);
    if (!w->params) {
        perror("rslc");
        exit(1);
    }
    for (int p = 0; p < callee->nparams; p++) {
        w->params[p] = callee->params[p];
        w->params[p].name = ir_intern(w, callee->params[p].name);
        w->params[p].varying = true;
        w->params[p].def = NULL;
        tuple |= callee->params[p].output;
    }
    w->nparams = callee->nparams;
    if (ret && !tuple)
        w->params[w->nparams++] = (IrParam){ ir_intern(w, "result"), callee->ret, true, true,
                                             NULL };
    IrBlock *b = ir_block_new(w);
    IrIns *call = ir_ins_new(w, IR_call, tuple ? ir_type(IRT_TUPLE) : callee->ret, loc);
    call->sym = callee->name;
    call->callee = callee;
    call->val.varying = true;
    for (int p = 0; p < callee->nparams; p++) {
        IrIns *in = ir_ins_new(w, IR_param, callee->params[p].type, loc);
        in->imm = p;
        in->val.varying = true;
        ir_append(b, in);
        ir_ins_add_arg(call, &in->val);
    }
    ir_append(b, call);
    for (int p = 0; p < w->nparams; p++) {
        if (!w->params[p].output)
            continue;
        IrVal *v = &call->val;
        if (tuple) {
            IrIns *o = ir_ins_new(w, IR_callout, callee->params[p].type, loc);
            o->imm = p;
            o->val.varying = true;
            ir_ins_add_arg(o, &call->val);
            ir_append(b, o);
            v = &o->val;
        }
        IrIns *set = ir_ins_new(w, IR_pset, ir_type(IRT_VOID), loc);
        set->imm = p;
        ir_ins_add_arg(set, v);
        ir_append(b, set);
    }
    ir_append(b, ir_ins_new(w, IR_ret, ir_type(IRT_VOID), loc));
    return w;
}

void rslc_compile_done(RslcCtx *rc)
{
    check_free(rc);
    ast_free_all(rc);
    diag_forget_source(rc);
}
