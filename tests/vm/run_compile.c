/*
** run_compile.c: compiling a compile-run-verify case (run_compile.h).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_compile.h"
#include "rslc/diag.h"

VmObject *run_compile(RslcCtx *ctx, const char *src, int level, IrModule **mp)
{
    char path[] = "/tmp/check_run_XXXXXX.sl";
    int fd = mkstemps(path, 3);
    if (fd < 0 || write(fd, src, strlen(src)) != (ssize_t)strlen(src)) {
        perror(path);
        exit(1);
    }
    close(fd);
    const char *args[] = { "-I" TOP_SRCDIR "/shaders" };
    CppOptions cpp = { args, 1 };
    Unit *unit = rslc_front_end(ctx, path, &cpp);
    IrModule *m = unit ? rslc_middle_end(ctx, unit, level, NULL) : NULL;
    VmObject *o = m ? backend_vm_object(ctx, m, level, path, false) : NULL;
    unlink(path);
    if (mp)
        *mp = m;
    else
        ir_module_free(m);
    return o;
}

IrFunc *run_shader(IrModule *m)
{
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i]->kind != SHADER_FUNCTION)
            return m->funcs[i];
    return NULL;
}

bool run_close_ulp(float a, float b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    int32_t ia, ib;
    memcpy(&ia, &a, 4);
    memcpy(&ib, &b, 4);
    if (ia < 0)
        ia = INT32_MIN - ia;
    if (ib < 0)
        ib = INT32_MIN - ib;
    return llabs((long long)ia - ib) <= 2;
}

