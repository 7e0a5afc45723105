/*
** noise.h: RSL's noise family (RISpec 3.2 section 15.1): noise, pnoise,
** cellnoise and random. One definition, used by the VM's runtime, the
** native backends' runtime and the constant folder, so a shader computes
** the same pattern wherever it runs.
**
** Results are deterministic across runs and platforms: the lattice is
** hashed with 32-bit integer arithmetic and the gradients are fixed
** tables, so no libm transcendental decides a value.
**
** Positions have `dim` coordinates (1 to 4): noise(float) is 1,
** noise(float, float) 2, noise(point) 3, noise(point, float) 4.
** Multi-component results (noise returning a color, point or vector) take
** component c from an independent field: pass comp = 0, 1, 2.
*/
#ifndef RSL_NOISE_H
#define RSL_NOISE_H

#include <stdint.h>

enum { RSL_NOISE_MAXDIM = 4 };

/* Perlin gradient noise in [0,1]: 0.5 at every lattice point, smooth (C2)
   elsewhere, averaging 0.5. With period non-NULL it is pnoise: periodic in
   each coordinate with the period rounded to the nearest integer >= 1.
   Non-finite coordinates give 0.5. */
float rsl_noise(int dim, const float *p, const float *period, unsigned comp);

/* Constant over each unit cell (the floors of the coordinates), uniform
   in [0,1) from cell to cell. Non-finite coordinates give 0. */
float rsl_cellnoise(int dim, const float *p, unsigned comp);

/* The n-th random number of the stream `seed`, uniform in [0,1). The
   renderer seeds per shading point so that images do not depend on
   thread count or batch order. */
float rsl_random(uint32_t seed, uint32_t n);

/* The builtins noise, pnoise and cellnoise on their arguments as calls
   pass them (args[i] holding argn[i] floats): a position of a float, two
   floats, a triple, or a triple and a float; pnoise's periods follow, in
   the same shape. outn components, each from its own field. */
typedef enum RslNoiseKind { RSL_NOISE, RSL_PNOISE, RSL_CELLNOISE } RslNoiseKind;
void rsl_noise_args(float *out, int outn, const float *const *args, const int *argn, int nargs,
                    RslNoiseKind kind);

#endif /* RSL_NOISE_H */
