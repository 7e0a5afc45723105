/*
** check_strfmt.c: format and match against the strings the spec's rules
** and C's printf conventions prescribe, and the limits on widths,
** precisions and result lengths.
*/
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/strfmt.h"
#include "../common/suite.h"

/* The pattern gives `want` with `unfilled` conversions left without an
   argument, or (want NULL) fails with a message holding want_err. */
static void check(const char *pattern, const RslVal *args, int n, const char *want,
                  int unfilled, const char *want_err)
{
    char err[200] = "";
    int got_unfilled = -1;
    char *s = rsl_format(pattern, args, n, &got_unfilled, err, sizeof err);
    if (want) {
        ck_assert_msg(s != NULL, "%s: %s", pattern, err);
        ck_assert_str_eq(s, want);
        ck_assert_int_eq(got_unfilled, unfilled);
    } else {
        ck_assert_msg(s == NULL, "%s printed %zu bytes", pattern, s ? strlen(s) : 0);
        ck_assert_msg(strstr(err, want_err), "%s: '%s' lacks '%s'", pattern, err, want_err);
    }
    free(s);
}

static void expect(const char *pattern, const RslVal *args, int n, const char *want)
{
    check(pattern, args, n, want, 0, NULL);
}

static void expect_unfilled(const char *pattern, const RslVal *args, int n, const char *want,
                            int unfilled)
{
    check(pattern, args, n, want, unfilled, NULL);
}

static void expect_error(const char *pattern, const RslVal *args, int n, const char *want)
{
    check(pattern, args, n, NULL, 0, want);
}

static const float one_half[1] = { 1.5f };
static const float trip[3] = { 1, -2.25f, 3 };

START_TEST(floats_and_strings)
{
    RslVal f = { RSL_VAL_FLOAT, one_half, NULL }, s = { RSL_VAL_STRING, NULL, "plastic" };
    expect("x = %f", &f, 1, "x = 1.500000");
    expect("%.2f|%6.1f|%-6.1f|", (RslVal[]){ f, f, f }, 3, "1.50|   1.5|1.5   |");
    expect("%s: %g", (RslVal[]){ s, f }, 2, "plastic: 1.5");
    expect("[%8s]", &s, 1, "[ plastic]");
    expect("%d%%", &f, 1, "1%");
    /* %d of what no long long holds: the nearest one, NaN as 0 */
    RslVal big[4] = { { RSL_VAL_FLOAT, (const float[]){ 1e30f }, NULL },
                      { RSL_VAL_FLOAT, (const float[]){ -__builtin_inff() }, NULL },
                      { RSL_VAL_FLOAT, (const float[]){ __builtin_nanf("") }, NULL },
                      { RSL_VAL_FLOAT, (const float[]){ -2.75f }, NULL } };
    expect("%d %d %d %d", big, 4, "9223372036854775807 -9223372036854775808 0 -2");
    expect("no conversions\n", NULL, 0, "no conversions\n");
    expect("", NULL, 0, "");
}
END_TEST

START_TEST(triples_and_matrices)
{
    RslVal p = { RSL_VAL_TRIPLE, trip, NULL };
    expect("P = %p", &p, 1, "P = 1.000000 -2.250000 3.000000");
    expect("(%.1c)", &p, 1, "(1.0 -2.2 3.0)");
    float m[16] = { 0 };
    m[0] = m[5] = m[10] = m[15] = 1;
    RslVal mv = { RSL_VAL_MATRIX, m, NULL };
    expect("%.0m", &mv, 1, "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1");
}
END_TEST

START_TEST(missing_and_unknown)
{
    RslVal f = { RSL_VAL_FLOAT, one_half, NULL };
    expect_unfilled("%f and %f", &f, 1, "1.500000 and %f", 1);
    expect_unfilled("%d %5.2s %%", NULL, 0, "%d %5.2s %", 2);
    /* Unknown conversions are copied too, but are not missing arguments. */
    expect("%q %f", &f, 1, "%q 1.500000");
    expect("tail %", &f, 1, "tail %");
    expect("%5.", &f, 1, "%5.");
    /* A kind that does not fit prints in its own form. */
    RslVal s = { RSL_VAL_STRING, NULL, "str" };
    expect("%f", &s, 1, "str");
}
END_TEST

START_TEST(field_and_length_limits)
{
    RslVal f = { RSL_VAL_FLOAT, one_half, NULL };
    expect_error("%999999999f", &f, 1, "format \"%999999999f\": width over the limit of 4096");
    expect_error("x %.999999999f", &f, 1, "format \"%.999999999f\": precision over the limit");
    expect_error("%99999999999999999999999s", &f, 1, "width over the limit");
    expect_error("%4097f", &f, 1, "width over");
    /* At the limit the field is exactly that wide. */
    char *pattern = "%4096f", err[200];
    int unfilled;
    char *s = rsl_format(pattern, &f, 1, &unfilled, err, sizeof err);
    ck_assert_uint_eq(strlen(s), 4096);
    ck_assert_str_eq(s + 4096 - 8, "1.500000");
    free(s);
    /* 300 fields of 4096 pass the 1 MiB a string may hold. */
    RslVal many[300];
    char wide[300 * 6 + 1] = "";
    for (int i = 0; i < 300; i++) {
        many[i] = f;
        strcat(wide, "%4096f");
    }
    expect_error(wide, many, 300, "the result would be longer than 1048576 bytes");
}
END_TEST

START_TEST(match)
{
    ck_assert_int_eq(rsl_match("lo", "hello"), 1);
    ck_assert_int_eq(rsl_match("^lo", "hello"), 0);
    ck_assert_int_eq(rsl_match("^h.*o$", "hello"), 1);
    ck_assert_int_eq(rsl_match("(ab)+c", "xxababcx"), 1);
    ck_assert_int_eq(rsl_match("[0-9]{3}", "a12b"), 0);
    ck_assert_int_eq(rsl_match("", "anything"), 1);
    ck_assert_int_eq(rsl_match("(unclosed", "x"), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strfmt");
    TCase *tc = tcase_create("strfmt");
    tcase_add_test(tc, floats_and_strings);
    tcase_add_test(tc, triples_and_matrices);
    tcase_add_test(tc, missing_and_unknown);
    tcase_add_test(tc, field_and_length_limits);
    tcase_add_test(tc, match);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
