/*
** compile.c: the whole compile pipeline to a VM object (compile.h): the
** target-free stages of rslc/pipeline.h, then the bytecode back end
** (backends/vm): selection, scheduling, allocation and emission.
*/
#include <stdlib.h>
#include <string.h>

#include "backends/compile.h"
#include "backends/vm/vmgen.h"
#include "rslc/diag.h"
#include "rslc/pass.h"

/* The object of one shader of m: inlining, the computed defaults, then
   selection, scheduling, allocation and emission. */
static VmObject *object_of(RslcCtx *rc, IrModule *m, IrFunc *shader, int level, bool debug)
{
    /* The VM has no calls: everything inlines, then the copies clean up. */
    bool changed;
    rslc_prepare_defaults(m);
    if (!pass_inline_into(rc, m, shader, &changed))
        return NULL;
    if (changed && level > 0)
        passes_run_pipeline(m, level);
    vmgen_legalize(shader);
    MFunc *mf = vmgen_select(rc, shader);
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

VmObject *backend_vm_object(RslcCtx *rc, IrModule *m, int level, const char *path, bool debug)
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
        diag_error(rc, where, "no shader to compile: the file defines only functions");
        return NULL;
    }
    if (nshaders > 1) {
        diag_error(rc, where, "%d shaders in one file: an object holds one", nshaders);
        return NULL;
    }
    return object_of(rc, m, shader, level, debug);
}

VmObject *backend_vm_call_object(RslcCtx *rc, IrModule *m, const char *name, int nargs,
                                 int level, const char *path, bool debug)
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
        diag_error(rc, where, "no function '%s' taking %d argument%s", name, nargs,
                   nargs == 1 ? "" : "s");
        return NULL;
    }
    return object_of(rc, m, rslc_call_wrapper(m, callee), level, debug);
}

VmObject *backend_compile_file(RslcCtx *rc, const char *path, int level, const char *call,
                               int nargs, bool debug)
{
    return backend_compile_file_cpp(rc, path, NULL, level, call, nargs, debug);
}

VmObject *backend_compile_file_cpp(RslcCtx *rc, const char *path, const CppOptions *cpp,
                                   int level, const char *call, int nargs, bool debug)
{
    CppOptions none = { 0 };
    diag_reset(rc);
    Unit *unit = rslc_front_end(rc, path, cpp ? cpp : &none);
    IrModule *m = unit ? rslc_middle_end(rc, unit, level, NULL) : NULL;
    VmObject *o = !m    ? NULL
                  : call ? backend_vm_call_object(rc, m, call, nargs, level, path, debug)
                         : backend_vm_object(rc, m, level, path, debug);
    ir_module_free(m);
    rslc_compile_done(rc);
    return o;
}
