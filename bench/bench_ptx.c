/*
** bench_ptx.c: what PTX costs the compiler (backends/llvm/ptx.c). For
** each shader given: the milliseconds of the whole compilation to a VM
** object (front end, optimiser, bytecode: the baseline), then of its PTX
** for sm_75 and sm_90 on top (lowering with W = 1, the device runtime and
** libdevice linked, LLVM -O2, NVPTX code generation), each the best of
** REPS in one run, the ratio PTX / baseline, and the PTX's lines. Times
** are the process's CPU time, which a busy machine disturbs less than
** the wall clock (the compiler runs on one thread).
** Usage: bench/bench_ptx SHADER.sl...
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/compile.h"
#include "backends/llvm/native.h"
#include "rslc/diag.h"

enum { REPS = 5 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* One compilation of path: the VM object's milliseconds into *vm_ms,
   then, with gpu, the PTX's into *ptx_ms and its lines into *lines.
   False if either fails. */
static bool compile_once(const char *path, const char *gpu, double *vm_ms, double *ptx_ms,
                         int *lines)
{
    CppOptions cpp = { 0 };
    RslcCtx rc = { 0 };
    FILE *quiet = fopen("/dev/null", "w");
    diag_set_output(&rc, quiet);
    double t0 = now_ms();
    Unit *unit = rslc_front_end(&rc, path, &cpp);
    IrModule *m = unit ? rslc_middle_end(&rc, unit, 2, NULL) : NULL;
    VmObject *o = m ? backend_vm_object(&rc, m, 2, path, false) : NULL;
    *vm_ms = now_ms() - t0;
    bool ok = o != NULL;
    if (ok && gpu) {
        NativeOptions opt = { .level = 2, .isa = NATIVE_ISA_AUTO };
        IrFunc *shader = NULL;
        for (int i = 0; i < m->nfuncs; i++)
            if (m->funcs[i]->kind != SHADER_FUNCTION)
                shader = m->funcs[i];
        t0 = now_ms();
        char *ptx = shader ? native_compile_ptx(&rc, shader, o, &opt, gpu) : NULL;
        *ptx_ms = now_ms() - t0;
        *lines = 0;
        for (const char *c = ptx; c && *c; c++)
            *lines += *c == '\n';
        ok = ptx != NULL;
        free(ptx);
    }
    vm_object_free(o);
    ir_module_free(m);
    rslc_ctx_free(&rc);
    if (quiet)
        fclose(quiet);
    return ok;
}

int main(int argc, char **argv)
{
    static const char gpus[][8] = { "sm_75", "sm_90" };
    printf("%-18s %9s %9s %9s %7s %7s %9s\n", "shader", "VM cpu ms", "sm_75 ms", "sm_90 ms",
           "75/VM", "90/VM", "PTX lines");
    for (int i = 1; i < argc; i++) {
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        double vm = 1e30, ptx[2] = { 1e30, 1e30 };
        int lines = 0;
        bool ok = true;
        for (int r = 0; r < REPS && ok; r++)
            for (int g = 0; g < 2 && ok; g++) {
                double v = 0, p = 0;
                ok = compile_once(argv[i], gpus[g], &v, &p, &lines);
                vm = v < vm ? v : vm;
                ptx[g] = p < ptx[g] ? p : ptx[g];
            }
        if (!ok) {
            printf("%-18s %9s   (no PTX: native code lacks a construct)\n", name, "-");
            continue;
        }
        printf("%-18s %9.2f %9.2f %9.2f %7.1f %7.1f %9d\n", name, vm, ptx[0], ptx[1], ptx[0] / vm,
               ptx[1] / vm, lines);
    }
    return 0;
}
