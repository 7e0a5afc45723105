/*
** basis.c: the cubic bases of RISpec's Basis request and their
** evaluation. The named matrices are runtime/spline.h's, the one definition
** the shading language's spline() shares. A basis M turns four geometry
** values into a cubic: weight_i(t) = sum_k T_k M[k][i] with
** T = (t^3, t^2, t, 1), so one evaluator serves every basis, named or
** given as 16 numbers.
*/
#include <string.h>

#include "render/rib/basis.h"
#include "runtime/spline.h"

bool rib_basis_named(const char *name, RibBasis *b)
{
    /* a spelling other renderers accept */
    if (strcmp(name, "catmullrom") == 0)
        name = "catmull-rom";
    const RslBasis *rb = rsl_basis(rsl_spline_basis(name));
    if (!rb)
        return false;
    for (int k = 0; k < 16; k++)
        b->m[k] = rb->m[k];
    b->step = rb->step;
    return true;
}

void rib_basis_eval(const RibBasis *b, double t, double w[4], double dw[4])
{
    const double T[4] = {t * t * t, t * t, t, 1.0};
    const double dT[4] = {3 * t * t, 2 * t, 1.0, 0.0};
    for (int i = 0; i < 4; i++) {
        w[i] = dw[i] = 0;
        for (int k = 0; k < 4; k++) {
            w[i] += T[k] * b->m[4 * k + i];
            dw[i] += dT[k] * b->m[4 * k + i];
        }
    }
}
