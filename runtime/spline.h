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

/* The named bases, resolved from their names once (when a shader is
   loaded or compiled), not per point. RSL_BASIS_LINEAR is not a cubic
   basis: rsl_spline handles it. */
typedef enum RslSplineBasis {
    RSL_BASIS_CATMULL_ROM, RSL_BASIS_BEZIER, RSL_BASIS_BSPLINE, RSL_BASIS_HERMITE,
    RSL_BASIS_POWER, RSL_BASIS_LINEAR, RSL_BASIS_UNKNOWN
} RslSplineBasis;

typedef struct RslBasis {
    float m[16];       /* row major */
    int step;
} RslBasis;

/* The basis called name ("catmull-rom", "bezier", "bspline" or
   "b-spline", "hermite", "power", "linear"), or RSL_BASIS_UNKNOWN. */
RslSplineBasis rsl_spline_basis(const char *name);

/* The matrix of a cubic basis, or NULL for linear and unknown. */
const RslBasis *rsl_basis(RslSplineBasis basis);

/* spline(basis, t, cv...) over ncv control values of width floats each
   (cv[i * width + k]). t is clamped to [0,1] and spread evenly over the
   segments; "linear" interpolates between the second and the next-to-
   last values, ignoring the end ones like catmull-rom does. Returns false
   (out zero) for an unknown basis or too few values for one segment. */
bool rsl_spline(RslSplineBasis basis, float t, const float *cv, int ncv, int width, float *out);

#endif /* RSL_SPLINE_H */
