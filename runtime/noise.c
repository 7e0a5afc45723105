/*
** noise.c: gradient noise, cell noise and random numbers for RSL.
**
** Gradient noise is Perlin's: a pseudo-random unit gradient at each
** lattice point, the dot products with the offsets to the corners of the
** cell, blended with the quintic fade 6t^5 - 15t^4 + 10t^3 (Perlin 2002),
** whose first and second derivatives vanish at the lattice so the field
** is C2. With unit gradients the value is bounded by sqrt(dim)/2 (the
** maximum is reached at a cell centre when every gradient points to it),
** so dividing by that bound maps the field into [-1,1] exactly and then
** into RSL's [0,1] with no clamping of real values.
*/
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "runtime/noise.h"

/* A 32-bit integer mixer with good avalanche (every input bit flips each
   output bit with probability near 1/2): lattice neighbours must not get
   correlated gradients. */
static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static uint32_t hash_cell(int dim, const int64_t *cell, uint32_t seed)
{
    uint32_t h = mix(seed);
    for (int k = 0; k < dim; k++)
        h = mix(h ^ (uint32_t)cell[k]);
    return h;
}

/* Top 24 bits as a float in [0,1): exact, and never 1. */
static float unit_float(uint32_t h)
{
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* Seeds keep the fields of the three components, and those of noise and
   cellnoise, unrelated. */
static uint32_t field_seed(uint32_t kind, unsigned comp)
{
    return kind * 0x9e3779b9u + comp * 0x632be5abu;
}
enum { SEED_NOISE = 1, SEED_CELL = 2, SEED_RANDOM = 3 };

/* Splits x into its lattice cell (wrapped to 32 bits, as the hash sees
   it) and the offset in [0,1). Double precision keeps floor exact for any
   float. False for NaN and infinity, which are split as 0 is: callers
   compute on and then discard, so that no lane of native code, which runs
   this on W points at once, branches away on its own. */
static bool lattice(float x, int64_t *cell, float *frac)
{
    bool finite = isfinite(x);
    double fl = floor(finite ? (double)x : 0.0);
    *frac = (float)((finite ? (double)x : 0.0) - fl);
    /* fmod(fl, 2^32), written out: fl / 2^32 and its multiple are exact
       and so is the difference, which has fmod's sign; unlike a call of
       fmod it vectorises across native code's lanes. */
    *cell = (int64_t)(fl - 4294967296.0 * trunc(fl / 4294967296.0));
    return finite;
}

static const float S2 = 0.70710678f;  /* 1/sqrt(2) */
static const float S3 = 0.57735027f;  /* 1/sqrt(3) */

/* Unit gradients: 8 directions in 2D; the 12 cube edge midpoints in 3D
   and the 32 "edges" (0, ±1, ±1, ±1) of the 4D hypercube (Perlin 2002),
   normalised. */
static const float grad2[8][2] = {
    { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 },
    { 0.70710678f, 0.70710678f }, { -0.70710678f, 0.70710678f },
    { 0.70710678f, -0.70710678f }, { -0.70710678f, -0.70710678f },
};
static const signed char edges3[12][3] = {
    { 1, 1, 0 }, { -1, 1, 0 }, { 1, -1, 0 }, { -1, -1, 0 },
    { 1, 0, 1 }, { -1, 0, 1 }, { 1, 0, -1 }, { -1, 0, -1 },
    { 0, 1, 1 }, { 0, -1, 1 }, { 0, 1, -1 }, { 0, -1, -1 },
};

/* The gradient at a lattice point, dotted with the offset d to it. */
static float grad_dot(int dim, uint32_t h, const float *d)
{
    switch (dim) {
    case 1: /* any slope in [-1,1): unit length is the upper bound */
        return (unit_float(h) * 2.0f - 1.0f) * d[0];
    case 2: {
        const float *g = grad2[h & 7];
        return g[0] * d[0] + g[1] * d[1];
    }
    case 3: {
        const signed char *g = edges3[h % 12];
        return S2 * (g[0] * d[0] + g[1] * d[1] + g[2] * d[2]);
    }
    default: {
        /* h & 3 picks the zero axis, the next three bits the signs of the
           other three. */
        int zero = (int)(h & 3);
        float s = 0;
        for (int k = 0, bit = 4; k < 4; k++) {
            if (k == zero)
                continue;
            s += (h & (uint32_t)bit) ? -d[k] : d[k];
            bit <<= 1;
        }
        return S3 * s;
    }
    }
}

static float fade(float t)
{
    return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

static int64_t wrap(int64_t i, int64_t period)
{
    int64_t r = i % period;
    return r < 0 ? r + period : r;
}

float rsl_noise(int dim, const float *p, const float *period, unsigned comp)
{
    static const float bound[RSL_NOISE_MAXDIM + 1] = { 1, 0.5f, 0.70710678f, 0.8660254f, 1 };
    int64_t cell[RSL_NOISE_MAXDIM], per[RSL_NOISE_MAXDIM];
    float frac[RSL_NOISE_MAXDIM], w[RSL_NOISE_MAXDIM];
    if (dim < 1 || dim > RSL_NOISE_MAXDIM)
        return 0.5f;
    bool finite = true;
    for (int k = 0; k < dim; k++) {
        finite &= lattice(p[k], &cell[k], &frac[k]);
        w[k] = fade(frac[k]);
        per[k] = 0;
        if (period) {
            /* Periods beyond 2^32 cells never repeat within the hash. */
            double pr = floor((double)period[k] + 0.5);
            per[k] = !(pr >= 1) ? 1 : pr > 4294967296.0 ? 0 : (int64_t)pr;
        }
    }
    uint32_t seed = field_seed(SEED_NOISE, comp);
    float sum = 0;
    /* Unrolled whole in the runtime's bitcode (clang), so that native
       code, where dim is a constant once this is inlined, vectorises the
       call across lanes: a loop left inside would stop the lanes' loop
       from vectorising. */
#ifdef __clang__
#pragma clang loop unroll(full)
#endif
    for (int corner = 0; corner < 1 << dim; corner++) {
        int64_t at[RSL_NOISE_MAXDIM];
        float d[RSL_NOISE_MAXDIM], weight = 1;
        for (int k = 0; k < dim; k++) {
            int up = corner >> k & 1;
            at[k] = cell[k] + up;
            if (per[k])
                at[k] = wrap(at[k], per[k]);
            d[k] = frac[k] - (float)up;
            weight *= up ? w[k] : 1.0f - w[k];
        }
        sum += weight * grad_dot(dim, hash_cell(dim, at, seed), d);
    }
    float n = 0.5f + 0.5f * (sum / bound[dim]);
    /* Rounding may step a hair outside at the extreme. */
    return !finite ? 0.5f : n < 0 ? 0 : n > 1 ? 1 : n;
}

float rsl_cellnoise(int dim, const float *p, unsigned comp)
{
    int64_t cell[RSL_NOISE_MAXDIM];
    float frac;
    if (dim < 1 || dim > RSL_NOISE_MAXDIM)
        return 0;
    bool finite = true;
    for (int k = 0; k < dim; k++)
        finite &= lattice(p[k], &cell[k], &frac);
    return finite ? unit_float(hash_cell(dim, cell, field_seed(SEED_CELL, comp))) : 0;
}

float rsl_random(uint32_t seed, uint32_t n)
{
    return unit_float(mix(mix(seed ^ field_seed(SEED_RANDOM, 0)) ^ n));
}

void rsl_noise_args(float *out, int outn, const float *const *args, const int *argn, int nargs,
                    RslNoiseKind kind)
{
    bool periodic = kind == RSL_PNOISE;
    int npos = periodic ? nargs / 2 : nargs;
    float p[RSL_NOISE_MAXDIM], per[RSL_NOISE_MAXDIM];
    int dim = 0;
    for (int i = 0; i < npos; i++)
        for (int k = 0; k < argn[i] && dim < RSL_NOISE_MAXDIM; k++) {
            p[dim] = args[i][k];
            if (periodic)
                per[dim] = args[npos + i][k];
            dim++;
        }
    for (int c = 0; c < outn; c++)
        out[c] = kind == RSL_CELLNOISE ? rsl_cellnoise(dim, p, (unsigned)c)
                                      : rsl_noise(dim, p, periodic ? per : NULL, (unsigned)c);
}
