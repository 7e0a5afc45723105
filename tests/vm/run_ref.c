/*
** run_ref.c: reference computations for the compile-run-verify tables
** (run_ref.h).
*/
#include <math.h>

#include "run_ref.h"

void ref_mat_mul(const float *a, const float *b, float *o)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += (double)a[i * 4 + k] * b[k * 4 + j];
            o[i * 4 + j] = (float)s;
        }
}

/* The minor of m without row r and column c. */
static double minor3(const float *m, int r, int c)
{
    double a[9];
    int n = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            if (i != r && j != c)
                a[n++] = m[i * 4 + j];
    return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6])
         + a[2] * (a[3] * a[7] - a[4] * a[6]);
}

double ref_mat_det(const float *m)
{
    return m[0] * minor3(m, 0, 0) - m[1] * minor3(m, 0, 1) + m[2] * minor3(m, 0, 2)
         - m[3] * minor3(m, 0, 3);
}

void ref_mat_inv(const float *a, float *o)
{
    double d = ref_mat_det(a);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            o[j * 4 + i] = (float)(((i + j) % 2 ? -1 : 1) * minor3(a, i, j) / d);
}

static void out3(float *o, double a, double b, double c)
{
    o[0] = (float)a, o[1] = (float)b, o[2] = (float)c;
}

void ref_hsv2rgb(float h, float s, float v, float *rgb)
{
    double h6 = (h - floor(h)) * 6, f = h6 - floor(h6);
    double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1 - f));
    switch ((int)floor(h6)) {
    case 0: out3(rgb, v, t, p); break;
    case 1: out3(rgb, q, v, p); break;
    case 2: out3(rgb, p, v, t); break;
    case 3: out3(rgb, p, q, v); break;
    case 4: out3(rgb, t, p, v); break;
    default: out3(rgb, v, p, q); break;
    }
}

static double hsl_value(double m1, double m2, double h)
{
    h -= floor(h);
    if (h < 1 / 6.0)
        return m1 + (m2 - m1) * h * 6;
    if (h < 0.5)
        return m2;
    if (h < 2 / 3.0)
        return m1 + (m2 - m1) * (2 / 3.0 - h) * 6;
    return m1;
}

void ref_hsl2rgb(float h, float s, float l, float *rgb)
{
    double m2 = l <= 0.5f ? l * (1.0 + s) : (double)l + s - (double)l * s, m1 = 2.0 * l - m2;
    out3(rgb, hsl_value(m1, m2, h + 1 / 3.0), hsl_value(m1, m2, h), hsl_value(m1, m2, h - 1 / 3.0));
}

/* The hue of both models: which component is largest picks the sextant
   pair, the other two the position in it. */
static double hue_of(const float *c, double hi, double lo)
{
    double d = hi - lo, h;
    if (d == 0)
        return 0;
    if (c[0] == hi)
        h = (c[1] - c[2]) / d;
    else if (c[1] == hi)
        h = 2 + (c[2] - c[0]) / d;
    else
        h = 4 + (c[0] - c[1]) / d;
    return h < 0 ? h / 6 + 1 : h / 6;
}

void ref_rgb2hsv(const float *c, float *hsv)
{
    double hi = fmax(c[0], fmax(c[1], c[2])), lo = fmin(c[0], fmin(c[1], c[2]));
    out3(hsv, hue_of(c, hi, lo), hi > 0 ? (hi - lo) / hi : 0, hi);
}

void ref_rgb2hsl(const float *c, float *hsl)
{
    double hi = fmax(c[0], fmax(c[1], c[2])), lo = fmin(c[0], fmin(c[1], c[2])), l = (hi + lo) / 2;
    double s = hi == lo ? 0 : l <= 0.5 ? (hi - lo) / (hi + lo) : (hi - lo) / (2 - hi - lo);
    out3(hsl, hue_of(c, hi, lo), s, l);
}
