/*
** spline.c: the spline bases and spline evaluation (spline.h). The
** matrices are the RISpec's RiBezierBasis, RiBSplineBasis,
** RiCatmullRomBasis, RiHermiteBasis and RiPowerBasis.
*/
#include <math.h>
#include <string.h>

#include "runtime/spline.h"

/* Indexed by RslSplineBasis; held in place, not pointed to, so that the
   table needs no relocation and stays read-only. */
static const char basis_names[RSL_BASIS_UNKNOWN][12] = {
    "catmull-rom", "bezier", "bspline", "hermite", "power", "linear"
};

/* Indexed by RslSplineBasis, up to RSL_BASIS_LINEAR. */
static const RslBasis bases[RSL_BASIS_LINEAR] = {
    [RSL_BASIS_CATMULL_ROM] = { { -0.5f, 1.5f, -1.5f, 0.5f, 1, -2.5f, 2, -0.5f,
                                  -0.5f, 0, 0.5f, 0, 0, 1, 0, 0 }, 1 },
    [RSL_BASIS_BEZIER] = { { -1, 3, -3, 1, 3, -6, 3, 0, -3, 3, 0, 0, 1, 0, 0, 0 }, 3 },
    [RSL_BASIS_BSPLINE] = { { -1 / 6.0f, 3 / 6.0f, -3 / 6.0f, 1 / 6.0f, 3 / 6.0f, -6 / 6.0f,
                              3 / 6.0f, 0, -3 / 6.0f, 0, 3 / 6.0f, 0, 1 / 6.0f, 4 / 6.0f,
                              1 / 6.0f, 0 }, 1 },
    [RSL_BASIS_HERMITE] = { { 2, 1, -2, 1, -3, -2, 3, -1, 0, 1, 0, 0, 1, 0, 0, 0 }, 2 },
    [RSL_BASIS_POWER] = { { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }, 4 },
};

RslSplineBasis rsl_spline_basis(const char *name)
{
    if (!strcmp(name, "b-spline")) /* RiBasis's spelling */
        name = "bspline";
    for (int i = 0; i < RSL_BASIS_UNKNOWN; i++)
        if (!strcmp(basis_names[i], name))
            return (RslSplineBasis)i;
    return RSL_BASIS_UNKNOWN;
}

const RslBasis *rsl_basis(RslSplineBasis basis)
{
    return basis < RSL_BASIS_LINEAR ? &bases[basis] : NULL;
}

/* The segment t falls in, of nseg, and t's position within it. */
static int segment(float t, int nseg, float *local)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    float x = t * (float)nseg;
    int s = (int)floorf(x);
    if (s >= nseg)
        s = nseg - 1;
    *local = x - (float)s;
    return s;
}

bool rsl_spline(RslSplineBasis basis, float t, const float *cv, int ncv, int width, float *out)
{
    memset(out, 0, (size_t)width * sizeof *out);
    if (basis == RSL_BASIS_LINEAR) {
        if (ncv < 4)
            return false;
        float x;
        int s = segment(t, ncv - 3, &x);
        for (int k = 0; k < width; k++)
            out[k] = cv[(s + 1) * width + k] * (1 - x) + cv[(s + 2) * width + k] * x;
        return true;
    }
    const RslBasis *b = rsl_basis(basis);
    if (!b || ncv < 4)
        return false;
    float x;
    int s = segment(t, (ncv - 4) / b->step + 1, &x);
    const float *c = cv + s * b->step * width;
    float tp[4] = { x * x * x, x * x, x, 1 };
    for (int j = 0; j < 4; j++) {
        float w = 0; /* the weight of control value j: (tp B)[j] */
        for (int i = 0; i < 4; i++)
            w += tp[i] * b->m[i * 4 + j];
        for (int k = 0; k < width; k++)
            out[k] += w * c[j * width + k];
    }
    return true;
}
