/*
** devrt.c: the GPU's side of builtin calls in PTX (ptx.c's ABI), for the
** rows the runtime computes alone: pure maths (mathlib.c's evaluator, as
** the VM's math entry calls it, by its place in the table), the noise
** family (noise.c), and matrix division. Compiled only for nvptx64, by
** clang-19 with the runtime's sources, into the bitcode that ptx.c links
** into every shader and inlines; the rows whose entry needs the host
** (texture, lights, trace, strings, transforms ...) stay external, for
** the CUDA tracer to define.
*/
#include <string.h>

#include "runtime/builtins.h"
#include "runtime/mathlib.h"
#include "runtime/noise.h"

struct NativeGpuBatch;

/* strcmp, which mathlib.c calls (rsl_filter): neither libdevice nor
   LLVM has it on the GPU. */
int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

/* The arguments as the runtime takes them: a pointer to each one's floats
   (at most builtins.def's parameters plus its implicit ones). */
enum { MAX_ARGS = BUILTIN_MAX_PARAMS + BUILTIN_MAX_IMPLICIT };

static int split(const float *args, const int *argn, int nargs, const float **argp)
{
    if (nargs > MAX_ARGS)
        return 0;
    for (int i = 0, at = 0; i < nargs; at += argn[i++])
        argp[i] = args + at;
    return 1;
}

/* rsl_math_at: the pure maths builtin at index in mathlib's table, which
   the compiler found by name (devcalls.c); zero when the shapes do not
   fit, as the VM's math entry gives. A constant index folds the table
   away: only the entry called stays. */
void rsl_math_at(int index, float *out, int outn, const float *args, const int *argn, int nargs);
void rsl_math_at(int index, float *out, int outn, const float *args, const int *argn, int nargs)
{
    const float *argp[MAX_ARGS];
    const RslMathFn *fn = rsl_builtin_at(index);
    if (!fn || !split(args, argn, nargs, argp)
        || !rsl_builtin_apply(fn, nargs, argp, argn, out, outn))
        memset(out, 0, (size_t)outn * sizeof *out);
}

/* a / b for matrices (lower.c's matdiv), W = 1: a times b's inverse,
   zero when b is singular, as on the CPU. */
void native_rt_matdiv(const float *a, const float *b, float *out, int W);
void native_rt_matdiv(const float *a, const float *b, float *out, int W)
{
    float inv[16];
    rsl_matinv(b, inv);
    rsl_matmul(a, inv, out);
}

static void noise(RslNoiseKind kind, float *out, int outn, const float *args, const int *argn,
                  int nargs)
{
    const float *argp[MAX_ARGS];
    if (split(args, argn, nargs, argp))
        rsl_noise_args(out, outn, argp, argn, nargs, kind);
}

/* One device function per row of the entries above; none for the rest. */
#define DEVICE_FN(fn, row)                                                                   \
    void rsl_##fn##_##row(float *out, int outn, const float *args, const int *argn, int nargs, \
                          struct NativeGpuBatch *b, long point);                             \
    void rsl_##fn##_##row(float *out, int outn, const float *args, const int *argn, int nargs, \
                          struct NativeGpuBatch *b, long point)
#define ENTRY_math(fn, row) /* rsl_math_at */
#define ENTRY_noise(fn, row) DEVICE_FN(fn, row) { noise(RSL_NOISE, out, outn, args, argn, nargs); }
#define ENTRY_pnoise(fn, row) DEVICE_FN(fn, row) { noise(RSL_PNOISE, out, outn, args, argn, nargs); }
#define ENTRY_cellnoise(fn, row) \
    DEVICE_FN(fn, row) { noise(RSL_CELLNOISE, out, outn, args, argn, nargs); }
#define ENTRY_random(fn, row)
#define ENTRY_spline(fn, row)
#define ENTRY_setcomp(fn, row)
#define ENTRY_fresnel(fn, row)
#define ENTRY_deriv(fn, row)
#define ENTRY_area(fn, row)
#define ENTRY_calculatenormal(fn, row)
#define ENTRY_filterstep(fn, row)
#define ENTRY_ctransform(fn, row)
#define ENTRY_match(fn, row)
#define ENTRY_concat(fn, row)
#define ENTRY_format(fn, row)
#define ENTRY_printf(fn, row)
#define ENTRY_transform(fn, row)
#define ENTRY_depth(fn, row)
#define ENTRY_texture(fn, row)
#define ENTRY_textureinfo(fn, row)
#define ENTRY_ray(fn, row)
#define ENTRY_gather(fn, row)
#define ENTRY_query(fn, row)
#define ENTRY_rayinfo(fn, row)
#define ENTRY_shadername(fn, row)
#define ENTRY_caustic(fn, row)
#define ENTRY_light(fn, row)
#define ENTRY_specularbrdf(fn, row)
#define ENTRY_light_count(fn, row)
#define ENTRY_light_sample(fn, row)
#define ENTRY_light_illuminate(fn, row)
#define ENTRY_light_solar(fn, row)
#define ENTRY_instr(fn, row)
#define ENTRY_none(fn, row)

#define BUILTIN_FN(id, name, opts)
#define BUILTIN(fn, row, sig, cls, flags, imp, entry) ENTRY_##entry(fn, row)
#include "runtime/builtins.def"
