/*
** matrix.c: 4x4 transforms in RenderMan's convention: row-major storage,
** row vectors (p' = p * M), translation in the last row. RIB requests
** concatenate onto the current transform as CTM' = T * CTM, so a later
** request acts on the object first.
*/
#include <math.h>
#include <string.h>

#include "render/rib/internal.h"

#define M(a, r, c) ((a).m[(r) * 4 + (c)])

RibMatrix rib_matrix_identity(void)
{
    RibMatrix r;
    memset(&r, 0, sizeof r);
    M(r, 0, 0) = M(r, 1, 1) = M(r, 2, 2) = M(r, 3, 3) = 1.0;
    return r;
}

RibMatrix rib_matrix_mul(const RibMatrix *a, const RibMatrix *b)
{
    RibMatrix r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += M(*a, i, k) * M(*b, k, j);
            M(r, i, j) = s;
        }
    return r;
}

RibMatrix rib_matrix_translate(double x, double y, double z)
{
    RibMatrix r = rib_matrix_identity();
    M(r, 3, 0) = x;
    M(r, 3, 1) = y;
    M(r, 3, 2) = z;
    return r;
}

RibMatrix rib_matrix_scale(double x, double y, double z)
{
    RibMatrix r = rib_matrix_identity();
    M(r, 0, 0) = x;
    M(r, 1, 1) = y;
    M(r, 2, 2) = z;
    return r;
}

RibMatrix rib_matrix_rotate(double angle, double ax, double ay, double az)
{
    RibMatrix r = rib_matrix_identity();
    double len = sqrt(ax * ax + ay * ay + az * az);
    if (!(len > 0))
        return r;  /* RenderMan ignores a rotation about a null axis */
    double x = ax / len, y = ay / len, z = az / len;
    double rad = angle * (M_PI / 180.0), c = cos(rad), s = sin(rad);
    double t = 1.0 - c;
    /* The transpose of the column-vector (Rodrigues) rotation. */
    M(r, 0, 0) = c + t * x * x;
    M(r, 0, 1) = t * x * y + s * z;
    M(r, 0, 2) = t * x * z - s * y;
    M(r, 1, 0) = t * x * y - s * z;
    M(r, 1, 1) = c + t * y * y;
    M(r, 1, 2) = t * y * z + s * x;
    M(r, 2, 0) = t * x * z + s * y;
    M(r, 2, 1) = t * y * z - s * x;
    M(r, 2, 2) = c + t * z * z;
    return r;
}

/* Shears along d2 in proportion to the distance along the part of d1
   perpendicular to d2, so that the angle between d1 and d2 becomes angle. */
RibMatrix rib_matrix_skew(double angle, const double d1[3],
                          const double d2[3])
{
    RibMatrix r = rib_matrix_identity();
    double l2 = sqrt(d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2]);
    if (!(l2 > 0))
        return r;
    double b[3] = {d2[0] / l2, d2[1] / l2, d2[2] / l2};
    double y1 = d1[0] * b[0] + d1[1] * b[1] + d1[2] * b[2];
    double a[3] = {d1[0] - y1 * b[0], d1[1] - y1 * b[1], d1[2] - y1 * b[2]};
    double x1 = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    double rad = angle * (M_PI / 180.0);
    if (!(x1 > 0) || !(rad > 0) || !(rad < M_PI))
        return r;
    double k = cos(rad) / sin(rad) - y1 / x1;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            M(r, i, j) += k * (a[i] / x1) * b[j];
    return r;
}

/* Gaussian elimination with partial pivoting on a copy; also gives the
   determinant, so det and invert share it. */
static double eliminate(const RibMatrix *m, RibMatrix *inv)
{
    double a[4][8];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            a[i][j] = M(*m, i, j);
            a[i][j + 4] = (i == j);
        }
    double det = 1.0;
    for (int col = 0; col < 4; col++) {
        int p = col;
        for (int i = col + 1; i < 4; i++)
            if (fabs(a[i][col]) > fabs(a[p][col]))
                p = i;
        if (!(a[p][col] != 0))
            return 0.0;
        if (p != col) {
            for (int j = 0; j < 8; j++) {
                double t = a[p][j];
                a[p][j] = a[col][j];
                a[col][j] = t;
            }
            det = -det;
        }
        double piv = a[col][col];
        det *= piv;
        for (int j = 0; j < 8; j++)
            a[col][j] /= piv;
        for (int i = 0; i < 4; i++) {
            if (i == col || a[i][col] == 0)
                continue;
            double f = a[i][col];
            for (int j = 0; j < 8; j++)
                a[i][j] -= f * a[col][j];
        }
    }
    if (inv)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                M(*inv, i, j) = a[i][j + 4];
    return det;
}

double rib_matrix_det(const RibMatrix *m)
{
    return eliminate(m, NULL);
}

bool rib_matrix_invert(const RibMatrix *m, RibMatrix *inv)
{
    double det = eliminate(m, inv);
    if (det == 0 || !isfinite(det)) {
        *inv = rib_matrix_identity();
        return false;
    }
    return true;
}

void rib_transform_point(const RibMatrix *m, const double p[3], double out[3])
{
    double r[4];
    for (int j = 0; j < 4; j++)
        r[j] = p[0] * M(*m, 0, j) + p[1] * M(*m, 1, j) + p[2] * M(*m, 2, j) +
               M(*m, 3, j);
    double w = r[3] != 0 ? r[3] : 1.0;
    for (int j = 0; j < 3; j++)
        out[j] = r[j] / w;
}

void rib_matrix_to_rt(const RibMatrix *m, float xfm[12])
{
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            xfm[r * 4 + c] = rib_to_float(M(*m, c, r));
}

int rib_normals_flipped(RibOrientation orientation,
                        const RibMatrix *object_to_camera)
{
    /* Camera space is left-handed; a transform with a negative determinant
       makes object space right-handed. */
    bool rh_space = rib_matrix_det(object_to_camera) < 0;
    return (orientation == RIB_ORIENT_RH) != rh_space;
}
