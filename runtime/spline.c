/*
** spline.c: the spline bases and spline evaluation (spline.h). The
** matrices are the RISpec's RiBezierBasis, RiBSplineBasis,
** RiCatmullRomBasis, RiHermiteBasis and RiPowerBasis.
*/
#include <math.h>
#include <string.h>

#include "runtime/spline.h"

static const RslBasis bases[] = {
    { "catmull-rom", { -0.5f, 1.5f, -1.5f, 0.5f, 1, -2.5f, 2, -0.5f,
                       -0.5f, 0, 0.5f, 0, 0, 1, 0, 0 }, 1 },
    { "bezier", { -1, 3, -3, 1, 3, -6, 3, 0, -3, 3, 0, 0, 1, 0, 0, 0 }, 3 },
    { "bspline", { -1 / 6.0f, 3 / 6.0f, -3 / 6.0f, 1 / 6.0f, 3 / 6.0f, -6 / 6.0f, 3 / 6.0f, 0,
                   -3 / 6.0f, 0, 3 / 6.0f, 0, 1 / 6.0f, 4 / 6.0f, 1 / 6.0f, 0 }, 1 },
    { "hermite", { 2, 1, -2, 1, -3, -2, 3, -1, 0, 1, 0, 0, 1, 0, 0, 0 }, 2 },
    { "power", { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 }, 4 },
};

const RslBasis *rsl_basis(const char *name)
{
    if (!strcmp(name, "b-spline")) /* RiBasis's spelling */
        name = "bspline";
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++)
        if (!strcmp(bases[i].name, name))
            return &bases[i];
    return NULL;
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

bool rsl_spline(const char *basis, float t, const float *cv, int ncv, int width, float *out)
{
    memset(out, 0, (size_t)width * sizeof *out);
    if (!strcmp(basis, "linear")) {
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
