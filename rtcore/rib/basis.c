/*
** basis.c: the cubic basis matrices of RISpec's Basis request and their
** evaluation. A basis M turns four geometry values into a cubic:
** weight_i(t) = sum_k T_k M[k][i] with T = (t^3, t^2, t, 1), so one
** evaluator serves every basis, named or given as 16 numbers.
*/
#include <string.h>

#include "rtcore/rib/basis.h"

static const struct {
    const char *name;
    double scale;
    double m[16];
    int step;
} named[] = {
    {"bezier", 1.0, {-1, 3, -3, 1, 3, -6, 3, 0, -3, 3, 0, 0, 1, 0, 0, 0}, 3},
    {"b-spline", 1.0 / 6, {-1, 3, -3, 1, 3, -6, 3, 0, -3, 0, 3, 0, 1, 4, 1, 0},
     1},
    {"catmull-rom", 0.5, {-1, 3, -3, 1, 2, -5, 4, -1, -1, 0, 1, 0, 0, 2, 0, 0},
     1},
    /* geometry (P0, tangent0, P1, tangent1): step 2 walks a mesh */
    {"hermite", 1.0, {2, 1, -2, 1, -3, -2, 3, -1, 0, 1, 0, 0, 1, 0, 0, 0}, 2},
    {"power", 1.0, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, 4},
};

bool rib_basis_named(const char *name, RibBasis *b)
{
    /* spellings other renderers accept */
    if (strcmp(name, "bspline") == 0)
        name = "b-spline";
    else if (strcmp(name, "catmullrom") == 0)
        name = "catmull-rom";
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        if (strcmp(named[i].name, name) == 0) {
            for (int k = 0; k < 16; k++)
                b->m[k] = named[i].scale * named[i].m[k];
            b->step = named[i].step;
            return true;
        }
    }
    return false;
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
