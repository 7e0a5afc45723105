/*
** compile.c: the compilation pipeline, stage by stage (compile.h).
*/
#include <stdlib.h>

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

VmObject *rslc_vm_object(IrModule *m, int level, const char *path)
{
    SrcLoc where = { path, 0, 0 };
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
    /* The VM has no calls: everything inlines, then the copies clean up. */
    if (pass_inline_all(m) && level > 0)
        passes_run_pipeline(m, level);
    if (!rslc_fold_defaults(m))
        return NULL;
    MFunc *mf = vmgen_select(shader);
    if (!mf)
        return NULL;
    if (level > 0)
        vmgen_schedule(mf);
    unsigned nu, nv;
    vmgen_allocate(mf, &nu, &nv);
    VmObject *obj = vmgen_emit(mf, nu, nv);
    mfunc_free(mf);
    return obj;
}

void rslc_compile_done(void)
{
    check_free();
    ast_free_all();
}
