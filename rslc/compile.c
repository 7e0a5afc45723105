/*
** compile.c: the compilation pipeline, stage by stage (compile.h).
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/check.h"
#include "rslc/compile.h"
#include "rslc/diag.h"
#include "rslc/parse.h"
#include "rslc/pass.h"
#include "rslc/vmgen.h"

Unit *rslc_front_end(const char *path, const CppOptions *cpp)
{
    size_t len;
    char *text = cpp_run(path, cpp, &len);
    if (!text)
        return NULL;
    cpp_index(text, len);
    Unit *unit = parse_rsl(text, len, path);
    if (unit && !check_unit(unit))
        unit = NULL;
    /* The index still points into text: diagnostics are all printed. */
    cpp_reset();
    free(text);
    return unit;
}

IrModule *rslc_middle_end(const Unit *unit, int level, const PassOptions *passes)
{
    IrModule *m = ir_lower_unit(unit);
    if (m && !passes_run_pipeline_opts(m, level, passes)) {
        ir_module_free(m);
        m = NULL;
    }
    return m;
}

/* The object of one shader of m: inlining, the computed defaults, then
   selection, scheduling, allocation and emission. */
static VmObject *object_of(IrModule *m, IrFunc *shader, int level, bool debug)
{
    /* The VM has no calls: everything inlines, then the copies clean up. */
    rslc_prepare_defaults(m);
    if (pass_inline_all(m) && level > 0)
        passes_run_pipeline(m, level);
    MFunc *mf = vmgen_select(shader);
    if (!mf)
        return NULL;
    mf->debug = debug;
    mf->keep_vars = debug && level == 0;
    if (level > 0)
        vmgen_schedule(mf);
    unsigned nu, nv;
    vmgen_allocate(mf, &nu, &nv);
    VmObject *obj = vmgen_emit(mf, nu, nv);
    mfunc_free(mf);
    return obj;
}

VmObject *rslc_vm_object(IrModule *m, int level, const char *path, bool debug)
{
    SrcLoc where = { path, 0, 0, 0 };
    IrFunc *shader = NULL;
    int nshaders = 0;
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->kind != SHADER_FUNCTION) {
            shader = m->funcs[i];
            nshaders++;
        }
    if (nshaders == 0) {
        diag_error(where, "no shader to compile: the file defines only functions");
        return NULL;
    }
    if (nshaders > 1) {
        diag_error(where, "%d shaders in one file: an object holds one", nshaders);
        return NULL;
    }
    return object_of(m, shader, level, debug);
}

/* A surface shader "__call" that calls callee once: its parameters are
   the callee's (outputs stay outputs), plus an output "result" for the
   returned value. */
static IrFunc *call_wrapper(IrModule *m, IrFunc *callee)
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

VmObject *rslc_vm_call_object(IrModule *m, const char *name, int nargs, int level,
                              const char *path, bool debug)
{
    SrcLoc where = { path, 0, 0, 0 };
    IrFunc *callee = NULL;
    for (int i = 0; i < m->nfuncs && !callee; i++) {
        IrFunc *f = m->funcs[i];
        const char *dot = strchr(f->name, '.');
        size_t len = dot ? (size_t)(dot - f->name) : strlen(f->name);
        /* The caller passes every parameter but the "return" slot, or
           only the inputs (outputs then start at zero). */
        int own = 0, inputs = 0;
        for (int p = 0; p < f->nparams; p++) {
            own += strcmp(f->params[p].name, "return") != 0;
            inputs += !f->params[p].output;
        }
        if (f->kind == SHADER_FUNCTION && len == strlen(name) && !strncmp(f->name, name, len)
            && !strstr(f->name, ".defaults") && (own == nargs || inputs == nargs))
            callee = f;
    }
    if (!callee) {
        diag_error(where, "no function '%s' taking %d argument%s", name, nargs,
                   nargs == 1 ? "" : "s");
        return NULL;
    }
    return object_of(m, call_wrapper(m, callee), level, debug);
}

void rslc_compile_done(void)
{
    check_free();
    ast_free_all();
}

VmObject *rslc_compile_file(const char *path, int level, const char *call, int nargs,
                            bool debug)
{
    CppOptions cpp = { 0 };
    diag_reset();
    Unit *unit = rslc_front_end(path, &cpp);
    IrModule *m = unit ? rslc_middle_end(unit, level, NULL) : NULL;
    VmObject *o = !m    ? NULL
                  : call ? rslc_vm_call_object(m, call, nargs, level, path, debug)
                         : rslc_vm_object(m, level, path, debug);
    ir_module_free(m);
    rslc_compile_done();
    return o;
}
