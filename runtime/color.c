/*
** color.c: conversions between RSL's color spaces, always through linear
** RGB. The linear spaces are 3x3 matrices. Their inverses are constant
** data too: the exact adjugate over the determinant of the rational
** matrices below, rounded to double, so a round trip returns the color to
** float precision (check_color tests both the products and D65 white).
*/
#include <math.h>
#include <string.h>

#include "runtime/color.h"

/* Indexed by RslColorSpace; held in place, not pointed to, so that the
   table needs no relocation and stays read-only. */
static const char space_names[RSL_CS_UNKNOWN][4] = { "rgb", "hsv", "hsl", "XYZ", "xyY", "YIQ" };

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
/* rgb_to_xyz's inverse; its determinant is 1294486521 / 6250000000. */
static const double xyz_to_rgb[3][3] = {
    { 3.2406254773200533, -1.5372079722103187, -0.49862859869824788 },
    { -0.96893071472931935, 1.875756060885241, 0.041517523842953943 },
    { 0.055710120445510609, -0.20402105059848669, 1.0569959422543882 },
};
/* rgb_to_yiq's inverse; its determinant is -126947 / 500000. */
static const double yiq_to_rgb[3][3] = {
    { 1, 0.95617068540414507, 0.62143256634658561 },
    { 1, -0.27268860233010628, -0.64681323702017379 },
    { 1, -1.1037440821760263, 1.7006230946773062 },
};

static void apply(const double m[3][3], const float c[3], float out[3])
{
    float r[3];
    for (int i = 0; i < 3; i++)
        r[i] = (float)(m[i][0] * c[0] + m[i][1] * c[1] + m[i][2] * c[2]);
    memcpy(out, r, sizeof r);
}

RslColorSpace rsl_color_space(const char *name)
{
    for (int s = 0; s < RSL_CS_UNKNOWN; s++)
        if (strcmp(name, space_names[s]) == 0)
            return (RslColorSpace)s;
    return RSL_CS_UNKNOWN;
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

static void to_rgb(RslColorSpace s, const float c[3], float out[3])
{
    switch (s) {
    case RSL_CS_RGB:
        memcpy(out, c, 3 * sizeof *c);
        break;
    case RSL_CS_HSV: /* v is the largest component, v(1-s) the smallest */
        from_hue(c[0], c[2] * (1 - c[1]), c[2], out);
        break;
    case RSL_CS_HSL: {
        float l = c[2], s2 = c[1];
        float hi = l <= 0.5f ? l * (1 + s2) : l + s2 - l * s2, lo = 2 * l - hi;
        from_hue(c[0], lo, hi, out);
        break;
    }
    case RSL_CS_XYZ:
        apply(xyz_to_rgb, c, out);
        break;
    case RSL_CS_XYY: { /* X = xY/y, Z = (1-x-y)Y/y; y = 0 is black */
        float xyz[3] = { 0, 0, 0 };
        if (c[1] != 0) {
            xyz[0] = c[0] * c[2] / c[1];
            xyz[1] = c[2];
            xyz[2] = (1 - c[0] - c[1]) * c[2] / c[1];
        }
        apply(xyz_to_rgb, xyz, out);
        break;
    }
    case RSL_CS_YIQ:
        apply(yiq_to_rgb, c, out);
        break;
    case RSL_CS_UNKNOWN:
        break;
    }
}

static void from_rgb(RslColorSpace s, const float c[3], float out[3])
{
    float hi = fmaxf(c[0], fmaxf(c[1], c[2])), lo = fminf(c[0], fminf(c[1], c[2]));
    switch (s) {
    case RSL_CS_RGB:
        memcpy(out, c, 3 * sizeof *c);
        break;
    case RSL_CS_HSV:
        out[0] = hue(c, hi, lo);
        out[1] = hi > 0 ? (hi - lo) / hi : 0;
        out[2] = hi;
        break;
    case RSL_CS_HSL: {
        float l = (hi + lo) / 2, d = hi - lo;
        out[0] = hue(c, hi, lo);
        out[1] = d <= 0 ? 0 : l <= 0.5f ? d / (hi + lo) : d / (2 - hi - lo);
        out[2] = l;
        break;
    }
    case RSL_CS_XYZ:
        apply(rgb_to_xyz, c, out);
        break;
    case RSL_CS_XYY: { /* black keeps the white point's chromaticity */
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
    case RSL_CS_YIQ:
        apply(rgb_to_yiq, c, out);
        break;
    case RSL_CS_UNKNOWN:
        break;
    }
}

bool rsl_color_convert(RslColorSpace from, RslColorSpace to, const float c[3], float out[3])
{
    if (from >= RSL_CS_UNKNOWN || to >= RSL_CS_UNKNOWN)
        return false;
    float rgb[3];
    to_rgb(from, c, rgb);
    from_rgb(to, rgb, out);
    return true;
}
