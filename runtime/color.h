/*
** color.h: RSL's color spaces (RISpec 3.2 section 15.6): the
** space-qualified constructor color "hsv" (h, s, v) converts into RGB,
** and ctransform(from, to, c) converts between any two.
**
** Spaces: "rgb"; "hsv" and "hsl" (hue in [0,1), red at 0, green at 1/3,
** blue at 2/3); "XYZ" and "xyY" (CIE 1931, with linear Rec. 709 / sRGB
** primaries and the D65 white point, so rgb (1,1,1) is D65 at Y = 1);
** "YIQ" (NTSC). Names match exactly, as in the spec's table.
*/
#ifndef RSL_COLOR_H
#define RSL_COLOR_H

#include <stdbool.h>

/* The spaces, resolved from their names once (when a shader is loaded or
   compiled), not per point. */
typedef enum RslColorSpace {
    RSL_CS_RGB, RSL_CS_HSV, RSL_CS_HSL, RSL_CS_XYZ, RSL_CS_XYY, RSL_CS_YIQ,
    RSL_CS_UNKNOWN
} RslColorSpace;

/* The space called name, or RSL_CS_UNKNOWN. */
RslColorSpace rsl_color_space(const char *name);

/* Converts c from space `from` to space `to`. False (out untouched) if a
   space is unknown. */
bool rsl_color_convert(RslColorSpace from, RslColorSpace to, const float c[3], float out[3]);

#endif /* RSL_COLOR_H */
