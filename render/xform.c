/*
** xform.c: transforming the renderer's float data by RenderMan's
** row-vector matrices (p' = p M), kept in double precision.
*/
#include <math.h>
#include <string.h>

#include "render/internal.h"

void rmat_point(const RibMatrix *m, const float p[3], float out[3])
{
    const double *a = m->m;
    double r[4];
    for (int j = 0; j < 4; j++)
        r[j] = p[0] * a[j] + p[1] * a[4 + j] + p[2] * a[8 + j] + a[12 + j];
    double w = r[3] != 0 ? r[3] : 1;
    for (int j = 0; j < 3; j++)
        out[j] = (float)(r[j] / w);
}

void rmat_vector(const RibMatrix *m, const float v[3], float out[3])
{
    const double *a = m->m;
    float r[3];
    for (int j = 0; j < 3; j++)
        r[j] = (float)(v[0] * a[j] + v[1] * a[4 + j] + v[2] * a[8 + j]);
    memcpy(out, r, sizeof r);
}

void rmat_normal(const double n[9], const float v[3], float out[3])
{
    float r[3];
    for (int j = 0; j < 3; j++)
        r[j] = (float)(v[0] * n[j] + v[1] * n[3 + j] + v[2] * n[6 + j]);
    memcpy(out, r, sizeof r);
}

bool rmat_normal_matrix(const RibMatrix *m, double out[9])
{
    /* For row vectors n' = n (M3^-1)^T, the cofactor matrix of M3 over
       its determinant. */
    const double *x = m->m;
    double a = x[0], b = x[1], c = x[2], d = x[4], e = x[5], f = x[6], g = x[8], h = x[9],
           i = x[10];
    double cof[9] = { e * i - f * h, f * g - d * i, d * h - e * g,
                      c * h - b * i, a * i - c * g, b * g - a * h,
                      b * f - c * e, c * d - a * f, a * e - b * d };
    double det = a * cof[0] + b * cof[1] + c * cof[2];
    if (det == 0 || !isfinite(det))
        return false;
    for (int k = 0; k < 9; k++)
        out[k] = cof[k] / det;
    return true;
}

void rmat_to_float(const RibMatrix *m, float out[16])
{
    for (int k = 0; k < 16; k++)
        out[k] = (float)m->m[k];
}
