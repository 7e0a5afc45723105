/*
** check_color.c: color space conversions against values worked out from
** the definitions (Smith's HSV, HSL, the sRGB/D65 XYZ matrix, NTSC YIQ),
** and round trips through every space.
*/
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "runtime/color.h"
#include "../common/suite.h"

static void expect(const char *from, const char *to, float a, float b, float c, float x,
                   float y, float z, float tol)
{
    const float in[3] = { a, b, c };
    float out[3];
    ck_assert(rsl_color_convert(from, to, in, out));
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
            ck_assert(rsl_color_convert("rgb", spaces[s], c, mid));
            ck_assert(rsl_color_convert(spaces[s], "rgb", mid, back));
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
    ck_assert(!rsl_color_space_known("cmyk"));
    ck_assert(!rsl_color_space_known("RGB")); /* names are exact */
    ck_assert(!rsl_color_convert("cmyk", "rgb", c, out));
    ck_assert(!rsl_color_convert("rgb", "lab", c, out));
    ck_assert_float_eq(out[0], 7);
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
    suite_add_tcase(s, tc);
    return run_suite(s);
}
