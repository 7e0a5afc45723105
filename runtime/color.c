/*
** color.c: conversions between RSL's color spaces, always through linear
** RGB. The linear spaces are 3x3 matrices; their inverses are computed
** once in double precision rather than written as rounded constants, so
** a round trip returns the color to float precision.
*/
#include <math.h>
#include <pthread.h>
#include <string.h>

#include "runtime/color.h"

typedef enum Space { SP_RGB, SP_HSV, SP_HSL, SP_XYZ, SP_XYY, SP_YIQ, SP_NONE } Space;

static const char *const space_names[] = { "rgb", "hsv", "hsl", "XYZ", "xyY", "YIQ" };

/* Linear sRGB (Rec. 709 primaries, D65) to XYZ, IEC 61966-2-1. */
static const double rgb_to_xyz[3][3] = {
    { 0.4124, 0.3576, 0.1805 },
    { 0.2126, 0.7152, 0.0722 },
    { 0.0193, 0.1192, 0.9505 },
};
/* NTSC 1953 RGB to YIQ. */
static const double rgb_to_yiq[3][3] = {
    { 0.299, 0.587, 0.114 },
    { 0.596, -0.274, -0.322 },
    { 0.211, -0.523, 0.312 },
};
static double xyz_to_rgb[3][3], yiq_to_rgb[3][3];
static pthread_once_t inverses_once = PTHREAD_ONCE_INIT;

static void invert3(const double m[3][3], double out[3][3])
{
    double c[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            c[i][j] = m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1];
        }
    double det = m[0][0] * c[0][0] + m[0][1] * c[0][1] + m[0][2] * c[0][2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            out[i][j] = c[j][i] / det;
}

static void make_inverses(void)
{
    invert3(rgb_to_xyz, xyz_to_rgb);
    invert3(rgb_to_yiq, yiq_to_rgb);
}

static void apply(const double m[3][3], const float c[3], float out[3])
{
    float r[3];
    for (int i = 0; i < 3; i++)
        r[i] = (float)(m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2]);
    memcpy(out, r, sizeof r);
}

static Space lookup(const char *name)
{
    for (int s = 0; s < SP_NONE; s++)
        if (strcmp(name, space_names[s]) == 0)
            return (Space)s;
    return SP_NONE;
}

bool rsl_color_space_known(const char *name)
{
    return lookup(name) != SP_NONE;
}

/* Hue in [0,1) from the largest and smallest components; 0 for greys. */
static float hue(const float c[3], float hi, float lo)
{
    float d = hi - lo, h;
    if (d <= 0)
        return 0;
    if (hi == c[0])
        h = (c[1] - c[2]) / d;
    else if (hi == c[1])
        h = 2 + (c[2] - c[0]) / d;
    else
        h = 4 + (c[0] - c[1]) / d;
    h /= 6;
    return h < 0 ? h + 1 : h;
}

/* The RGB of pure hue h (one of the six sectors of the hue circle),
   scaled into [lo, hi]. */
static void from_hue(float h, float lo, float hi, float out[3])
{
    h = (h - floorf(h)) * 6;
    int sector = (int)h % 6;
    float f = h - floorf(h), rise = lo + (hi - lo) * f, fall = hi - (hi - lo) * f;
    const float table[6][3] = {
        { hi, rise, lo }, { fall, hi, lo }, { lo, hi, rise },
        { lo, fall, hi }, { rise, lo, hi }, { hi, lo, fall },
    };
    memcpy(out, table[sector], sizeof table[sector]);
}

static void to_rgb(Space s, const float c[3], float out[3])
{
    switch (s) {
    case SP_RGB:
        memcpy(out, c, 3 * sizeof *c);
        break;
    case SP_HSV: /* v is the largest component, v(1-s) the smallest */
        from_hue(c[0], c[2] * (1 - c[1]), c[2], out);
        break;
    case SP_HSL: {
        float l = c[2], s2 = c[1];
        float hi = l <= 0.5f ? l * (1 + s2) : l + s2 - l * s2, lo = 2 * l - hi;
        from_hue(c[0], lo, hi, out);
        break;
    }
    case SP_XYZ:
        apply(xyz_to_rgb, c, out);
        break;
    case SP_XYY: { /* X = xY/y, Z = (1-x-y)Y/y; y = 0 is black */
        float xyz[3] = { 0, 0, 0 };
        if (c[1] != 0) {
            xyz[0] = c[0] * c[2] / c[1];
            xyz[1] = c[2];
            xyz[2] = (1 - c[0] - c[1]) * c[2] / c[1];
        }
        apply(xyz_to_rgb, xyz, out);
        break;
    }
    case SP_YIQ:
        apply(yiq_to_rgb, c, out);
        break;
    case SP_NONE:
        break;
    }
}

static void from_rgb(Space s, const float c[3], float out[3])
{
    float hi = fmaxf(c[0], fmaxf(c[1], c[2])), lo = fminf(c[0], fminf(c[1], c[2]));
    switch (s) {
    case SP_RGB:
        memcpy(out, c, 3 * sizeof *c);
        break;
    case SP_HSV:
        out[0] = hue(c, hi, lo);
        out[1] = hi > 0 ? (hi - lo) / hi : 0;
        out[2] = hi;
        break;
    case SP_HSL: {
        float l = (hi + lo) / 2, d = hi - lo;
        out[0] = hue(c, hi, lo);
        out[1] = d <= 0 ? 0 : l <= 0.5f ? d / (hi + lo) : d / (2 - hi - lo);
        out[2] = l;
        break;
    }
    case SP_XYZ:
        apply(rgb_to_xyz, c, out);
        break;
    case SP_XYY: { /* black keeps the white point's chromaticity */
        float xyz[3];
        apply(rgb_to_xyz, c, xyz);
        float sum = xyz[0] + xyz[1] + xyz[2];
        if (sum == 0) {
            const float white[3] = { 1, 1, 1 };
            apply(rgb_to_xyz, white, xyz);
            sum = xyz[0] + xyz[1] + xyz[2];
            out[2] = 0;
        } else {
            out[2] = xyz[1];
        }
        out[0] = xyz[0] / sum;
        out[1] = xyz[1] / sum;
        break;
    }
    case SP_YIQ:
        apply(rgb_to_yiq, c, out);
        break;
    case SP_NONE:
        break;
    }
}

bool rsl_color_convert(const char *from, const char *to, const float c[3], float out[3])
{
    Space a = lookup(from), b = lookup(to);
    if (a == SP_NONE || b == SP_NONE)
        return false;
    pthread_once(&inverses_once, make_inverses);
    float rgb[3];
    to_rgb(a, c, rgb);
    from_rgb(b, rgb, out);
    return true;
}
