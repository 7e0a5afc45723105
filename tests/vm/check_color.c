/*
** check_color.c: color space conversions against values worked out from
** the definitions (Smith's HSV, HSL, the sRGB/D65 XYZ matrix, NTSC YIQ),
** and round trips through every space; the constant inverse matrices;
** the option names (spaces, spline bases, filters) resolving to enums.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "runtime/color.h"
#include "runtime/mathlib.h"
#include "runtime/spline.h"
#include "../common/suite.h"

static void expect(const char *from, const char *to, float a, float b, float c, float x,
                   float y, float z, float tol)
{
    const float in[3] = { a, b, c };
    float out[3];
    ck_assert(rsl_color_convert(rsl_color_space(from), rsl_color_space(to), in, out));
    const float want[3] = { x, y, z };
    for (int i = 0; i < 3; i++)
        ck_assert_msg(fabsf(out[i] - want[i]) <= tol, "%s (%g %g %g) -> %s: [%d] = %g, want %g",
                      from, a, b, c, to, i, out[i], want[i]);
}

START_TEST(hsv_known_values)
{
    expect("rgb", "hsv", 1, 0, 0, 0, 1, 1, 0);
    expect("rgb", "hsv", 0, 1, 0, 1.0f / 3, 1, 1, 1e-7f);
    expect("rgb", "hsv", 0, 0, 1, 2.0f / 3, 1, 1, 1e-7f);
    expect("rgb", "hsv", 1, 1, 0, 1.0f / 6, 1, 1, 1e-7f);
    expect("rgb", "hsv", 0.5f, 0.5f, 0.5f, 0, 0, 0.5f, 0);
    expect("rgb", "hsv", 0, 0, 0, 0, 0, 0, 0);
    /* magenta-ish: hi 0.8 (r), lo 0.2 (g): h = (g-b)/d/6 + 1 = (0.2-0.6)/0.6/6 + 1 */
    expect("rgb", "hsv", 0.8f, 0.2f, 0.6f, 1 - 0.4f / 3.6f, 0.75f, 0.8f, 1e-6f);
    expect("hsv", "rgb", 0.5f, 1, 1, 0, 1, 1, 1e-6f);          /* cyan */
    expect("hsv", "rgb", 0.25f, 0.5f, 0.8f, 0.6f, 0.8f, 0.4f, 1e-6f);
}
END_TEST

START_TEST(hsl_known_values)
{
    expect("rgb", "hsl", 1, 0, 0, 0, 1, 0.5f, 0);
    expect("rgb", "hsl", 1, 1, 1, 0, 0, 1, 0);
    /* hi .75 lo .25: l = .5, s = .5/(1) = .5 */
    expect("rgb", "hsl", 0.25f, 0.75f, 0.25f, 1.0f / 3, 0.5f, 0.5f, 1e-6f);
    /* l = 0.8 > 0.5: s = d / (2 - hi - lo) = 0.2 / 0.4 */
    expect("rgb", "hsl", 0.9f, 0.7f, 0.7f, 0, 0.5f, 0.8f, 1e-6f);
    expect("hsl", "rgb", 2.0f / 3, 1, 0.25f, 0, 0, 0.5f, 1e-6f);
}
END_TEST

START_TEST(cie_known_values)
{
    /* White is D65 at Y = 1: the row sums of the sRGB matrix. */
    expect("rgb", "XYZ", 1, 1, 1, 0.9505f, 1.0f, 1.089f, 1e-4f);
    expect("rgb", "XYZ", 1, 0, 0, 0.4124f, 0.2126f, 0.0193f, 1e-6f);
    /* D65 chromaticity x = .9505/3.0395, y = 1/3.0395 */
    expect("rgb", "xyY", 1, 1, 1, 0.9505f / 3.0395f, 1 / 3.0395f, 1, 1e-4f);
    expect("rgb", "xyY", 0, 0, 0, 0.9505f / 3.0395f, 1 / 3.0395f, 0, 1e-4f);
    expect("XYZ", "rgb", 0.9505f, 1.0f, 1.089f, 1, 1, 1, 1e-4f);
}
END_TEST

START_TEST(yiq_known_values)
{
    expect("rgb", "YIQ", 1, 1, 1, 1, 0, 0, 1e-6f);
    expect("rgb", "YIQ", 1, 0, 0, 0.299f, 0.596f, 0.211f, 1e-6f);
    expect("YIQ", "rgb", 0.299f, 0.596f, 0.211f, 1, 0, 0, 1e-5f);
}
END_TEST

START_TEST(round_trips)
{
    static const char *spaces[] = { "rgb", "hsv", "hsl", "XYZ", "xyY", "YIQ" };
    unsigned st = 5;
    for (int s = 0; s < 6; s++)
        for (int i = 0; i < 2000; i++) {
            float c[3], mid[3], back[3];
            for (int k = 0; k < 3; k++) {
                st = st * 1664525u + 1013904223u;
                c[k] = 0.02f + 0.96f * (float)(st >> 8) / 16777216.0f;
            }
            RslColorSpace sp = rsl_color_space(spaces[s]);
            ck_assert(rsl_color_convert(RSL_CS_RGB, sp, c, mid));
            ck_assert(rsl_color_convert(sp, RSL_CS_RGB, mid, back));
            for (int k = 0; k < 3; k++)
                ck_assert_msg(fabsf(back[k] - c[k]) < 1e-5f, "%s: %g -> %g", spaces[s], c[k],
                              back[k]);
        }
}
END_TEST

START_TEST(unknown_space)
{
    const float c[3] = { 1, 2, 3 };
    float out[3] = { 7, 7, 7 };
    ck_assert_int_eq(rsl_color_space("cmyk"), RSL_CS_UNKNOWN);
    ck_assert_int_eq(rsl_color_space("RGB"), RSL_CS_UNKNOWN); /* names are exact */
    ck_assert_int_eq(rsl_color_space("XYZ"), RSL_CS_XYZ);
    ck_assert_int_eq(rsl_color_space("YIQ"), RSL_CS_YIQ);
    ck_assert(!rsl_color_convert(RSL_CS_UNKNOWN, RSL_CS_RGB, c, out));
    ck_assert(!rsl_color_convert(RSL_CS_RGB, RSL_CS_UNKNOWN, c, out));
    ck_assert_float_eq(out[0], 7);
}
END_TEST

/* The inverse matrices are constants: rgb (1,1,1) is D65 white, whose XYZ
   is the sum of each row of the sRGB matrix (0.9505, 1, 1.089), and whose
   YIQ is (1, 0, 0) since I and Q's rows sum to zero. */
START_TEST(constant_inverses)
{
    const float d65[3] = { 0.9505f, 1.0f, 1.089f }, y1[3] = { 1, 0, 0 };
    float rgb[3];
    ck_assert(rsl_color_convert(RSL_CS_XYZ, RSL_CS_RGB, d65, rgb));
    for (int k = 0; k < 3; k++)
        ck_assert_msg(fabsf(rgb[k] - 1) < 2e-7f, "XYZ white -> rgb[%d] = %.9g", k, rgb[k]);
    ck_assert(rsl_color_convert(RSL_CS_YIQ, RSL_CS_RGB, y1, rgb));
    for (int k = 0; k < 3; k++)
        ck_assert_msg(fabsf(rgb[k] - 1) < 2e-7f, "YIQ white -> rgb[%d] = %.9g", k, rgb[k]);
    /* Each axis of XYZ and YIQ there and back: the inverse is exact to
       float rounding, not merely close. */
    for (int s = RSL_CS_XYZ; s <= RSL_CS_YIQ; s += RSL_CS_YIQ - RSL_CS_XYZ)
        for (int j = 0; j < 3; j++) {
            float e[3] = { 0, 0, 0 }, back[3];
            e[j] = 1;
            ck_assert(rsl_color_convert((RslColorSpace)s, RSL_CS_RGB, e, rgb));
            ck_assert(rsl_color_convert(RSL_CS_RGB, (RslColorSpace)s, rgb, back));
            for (int k = 0; k < 3; k++)
                ck_assert_msg(fabsf(back[k] - e[k]) < 1e-6f, "space %d axis %d: [%d] = %.9g", s,
                              j, k, back[k]);
        }
}
END_TEST

/* Names resolve to enums once; an unknown filter is catmull-rom. */
START_TEST(option_names)
{
    ck_assert_int_eq(rsl_spline_basis("b-spline"), RSL_BASIS_BSPLINE);
    ck_assert_int_eq(rsl_spline_basis("linear"), RSL_BASIS_LINEAR);
    ck_assert_int_eq(rsl_spline_basis("cubic"), RSL_BASIS_UNKNOWN);
    ck_assert_ptr_null(rsl_basis(RSL_BASIS_LINEAR));
    ck_assert_float_eq(rsl_basis(RSL_BASIS_BEZIER)->m[1], 3);
    ck_assert_int_eq(rsl_basis(RSL_BASIS_HERMITE)->step, 2);
    ck_assert_int_eq(rsl_filter("gaussian"), RSL_FILTER_GAUSSIAN);
    ck_assert_int_eq(rsl_filter("sinc"), RSL_FILTER_CATMULL_ROM);
    /* A box filter over [0, 1] at edge 0.25: three quarters lie above. */
    ck_assert_float_eq_tol(rsl_filterstep(0.25f, 0, 1, RSL_FILTER_BOX), 0.75f, 1e-7f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("color");
    TCase *tc = tcase_create("color");
    tcase_add_test(tc, hsv_known_values);
    tcase_add_test(tc, hsl_known_values);
    tcase_add_test(tc, cie_known_values);
    tcase_add_test(tc, yiq_known_values);
    tcase_add_test(tc, round_trips);
    tcase_add_test(tc, unknown_space);
    tcase_add_test(tc, constant_inverses);
    tcase_add_test(tc, option_names);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
