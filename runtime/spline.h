/*
** spline.h: cubic spline bases (RISpec 3.2: RiBasis and the shading
** language's spline function), shared by the VM runtime, the constant
** folder and the renderer's patch tessellation.
**
** A basis is a 4x4 matrix B with step: a segment's value at t in [0,1]
** is [t^3 t^2 t 1] B [c0 c1 c2 c3]^T for four consecutive control
** values, and the next segment starts `step` values further on.
*/
#ifndef RSL_SPLINE_H
#define RSL_SPLINE_H

#include <stdbool.h>

typedef struct RslBasis {
    const char *name;
    float m[16];       /* row major */
    int step;
} RslBasis;

/* The basis called name ("catmull-rom", "bezier", "bspline" or
   "b-spline", "hermite", "power"), or NULL. "linear" is not a cubic basis:
   rsl_spline handles it. */
const RslBasis *rsl_basis(const char *name);

/* spline(basis, t, cv...) over ncv control values of width floats each
   (cv[i * width + k]). t is clamped to [0,1] and spread evenly over the
   segments; "linear" interpolates between the second and the next-to-
   last values, ignoring the end ones like catmull-rom does. Returns false
   (out zero) for an unknown basis or too few values for one segment. */
bool rsl_spline(const char *basis, float t, const float *cv, int ncv, int width, float *out);

#endif /* RSL_SPLINE_H */
