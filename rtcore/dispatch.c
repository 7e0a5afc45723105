/*
** dispatch.c: picks the kernel table for a device from the CPU's features
** (cpuid through __builtin_cpu_supports), so one binary runs on any
** x86-64 with SSE4.2 and uses AVX2 or AVX-512 where they are there.
*/
#include "config.h"
#include "rtcore/dispatch.h"

#include <string.h>

const RtKernels *rt_pick_kernels(const char *isa, RTError *err)
{
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    int sse42 = __builtin_cpu_supports("sse4.2");
    int avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                 __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    *err = RT_ERROR_NONE;
    if (!strcmp(isa, "auto")) {
        if (avx512)
            return &rt_kernels_avx512;
        if (avx2)
            return &rt_kernels_avx2;
        if (sse42)
            return &rt_kernels_sse42;
    } else if (!strcmp(isa, "avx512")) {
        if (avx512)
            return &rt_kernels_avx512;
    } else if (!strcmp(isa, "avx2")) {
        if (avx2)
            return &rt_kernels_avx2;
    } else if (!strcmp(isa, "sse4.2")) {
        if (sse42)
            return &rt_kernels_sse42;
    } else {
        *err = RT_ERROR_INVALID_ARGUMENT;
        return NULL;
    }
    *err = RT_ERROR_UNSUPPORTED_CPU;
    return NULL;
}
