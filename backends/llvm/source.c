/*
** source.c: from a .sl file to its VM object and native code in one pass
** through rslc (native.h), as rslvm and rtrender take shader source.
** Native code is compiled against the object, so both come from the same
** optimised IR, which lives only for this pass; an instance's constants
** (spec) are folded into that IR, so the two agree on them too.
*/
#include "backends/llvm/native.h"
#include "rslc/diag.h"

NativeShader *native_compile_file_cpp(RslcCtx *rc, RslcCtx *nrc, const char *path,
                                      const CppOptions *cpp, const IrSpec *spec,
                                      const NativeOptions *opt, NativeKnown *known, void *data,
                                      VmObject **obj)
{
    CppOptions none = { 0 };
    diag_reset(rc);
    Unit *unit = rslc_front_end(rc, path, cpp ? cpp : &none);
    PassOptions passes = { .spec = spec };
    IrModule *m = unit ? rslc_middle_end(rc, unit, opt->level, &passes) : NULL;
    *obj = m ? backend_vm_object(rc, m, opt->level, path, false) : NULL;
    IrFunc *shader = NULL;
    for (int i = 0; *obj && i < m->nfuncs; i++)
        if (m->funcs[i]->kind != SHADER_FUNCTION)
            shader = m->funcs[i];
    NativeShader *ns = shader && known ? known(*obj, data) : NULL;
    if (shader && !ns)
        ns = native_compile(nrc, shader, *obj, opt);
    ir_module_free(m);
    rslc_compile_done(rc);
    if (nrc != rc)
        rslc_compile_done(nrc);
    return ns;
}

NativeShader *native_compile_file(RslcCtx *rc, const char *path, const NativeOptions *opt,
                                  VmObject **obj)
{
    NativeShader *ns = native_compile_file_cpp(rc, rc, path, NULL, NULL, opt, NULL, NULL, obj);
    if (!ns) {
        vm_object_free(*obj);
        *obj = NULL;
    }
    return ns;
}
