/*
** mathlib.h: the one C implementation of RSL's pure math, shared by
** the optimiser's constant folder and the VM's runtime library, so that a
** folded sin(0.3) is bit-for-bit what the shader would compute at run time.
**
** Values are float arrays in single precision: 1 component for float, 3
** for the triples, 16 (row major) for matrices. Nothing here knows about
** the IR; NaN and infinity propagate as IEEE says (the folder declines to
** fold results that are not finite, see fold.c).
*/
#ifndef RSL_MATHLIB_H
#define RSL_MATHLIB_H

#include <stdbool.h>

/* A pure builtin resolved once, for calls that follow (the VM binds each
   call site's entry when it loads the program). */
typedef struct MathFn RslMathFn;

/* The entry for `name` taking nargs arguments, or NULL. */
const RslMathFn *rsl_builtin_find(const char *name, int nargs);
/* An entry's place in the table, and the entry at a place (NULL past
   the end): code compiled for a GPU, where looking up by name costs the
   whole table, carries the place its compiler found (backends/llvm). */
int rsl_builtin_index(const RslMathFn *fn);
const RslMathFn *rsl_builtin_at(int index);
/* rsl_builtin_eval with the entry already found. */
bool rsl_builtin_apply(const RslMathFn *fn, int nargs, const float *const *args,
                       const int *argn, float *out, int outn);

/* A math row's call as the VM and native code make it: rsl_builtin_apply,
   and zeros where the shapes do not fit. */
void rsl_math_lane(const RslMathFn *fn, int nargs, const float *const *args, const int *argn,
                   float *out, int outn);
/* rsl_math_lane by the entry's place (rsl_builtin_index). Native shaders
   link this file as bitcode (backends/llvm/bitcode.c) and call it with a
   constant index and shapes: once inlined, the table's function pointer
   and shape fold away, leaving the entry's own arithmetic for LLVM to
   vectorise. */
void rsl_math_lane_at(int index, int nargs, const float *const *args, const int *argn,
                      float *out, int outn);

/* Evaluates the pure builtin `name` on nargs arguments, args[i] holding
   argn[i] components, into out (outn components). Componentwise builtins
   broadcast float arguments over triples. Returns false if name is not a
   pure math builtin known here or the argument shapes do not fit. */
bool rsl_builtin_eval(const char *name, int nargs, const float *const *args,
                      const int *argn, float *out, int outn);

/* The arithmetic the operators need beyond +, -, * on components. */
float rsl_dot(const float a[3], const float b[3]);
float rsl_inversesqrt(float x);
/* a / length(a): NaN components for a zero vector, as the division says. */
void rsl_normalize(const float a[3], float out[3]);
void rsl_cross(const float a[3], const float b[3], float out[3]);
void rsl_matmul(const float a[16], const float b[16], float out[16]);
/* Returns false (out zero) for a singular matrix. */
bool rsl_matinv(const float m[16], float out[16]);
float rsl_determinant(const float m[16]);

/* fresnel(I, N, eta, Kr, Kt): the reflected and transmitted fractions of
   unpolarised light at a dielectric boundary (the Fresnel equations),
   eta being the ratio of the indices of refraction as for refract. The
   lengths of I and N do not matter; total internal reflection gives
   Kr = 1, Kt = 0. */
void rsl_fresnel(const float I[3], const float N[3], float eta, float *Kr, float *Kt);

/* filterstep's kernels, resolved from their names once (when a shader is
   loaded or compiled), not per point. */
typedef enum RslFilter {
    RSL_FILTER_CATMULL_ROM, RSL_FILTER_BOX, RSL_FILTER_TRIANGLE, RSL_FILTER_GAUSSIAN
} RslFilter;

/* The filter called name ("box", "triangle", "gaussian"); catmull-rom,
   the default, for any other name. */
RslFilter rsl_filter(const char *name);

/* step(edge, x) averaged over x in [lo, hi] with the filter's kernel
   stretched across the interval: filterstep's value. An empty interval
   gives step(edge, lo). */
float rsl_filterstep(float edge, float lo, float hi, RslFilter filter);

#endif /* RSL_MATHLIB_H */
