/*
** check_diag.c: unit tests of diagnostics printing and of mapping cpp's
** columns back to the original source.
*/
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rslc/cpp.h"
#include "rslc/diag.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

static char path[64];

/* Writes text to a fresh temporary file named in `path`. */
static void write_source(const char *text)
{
    strcpy(path, "/tmp/rslc-diagXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* Captures what diagnostics print while fn runs. */
static char *captured;
static size_t captured_len;
static FILE *capture;

static void capture_begin(void)
{
    diag_reset(&rc);
    capture = open_memstream(&captured, &captured_len);
    diag_set_output(&rc, capture);
}

static const char *capture_end(void)
{
    fclose(capture);
    diag_set_output(&rc, NULL);
    return captured;
}

static void teardown(void)
{
    free(captured);
    captured = NULL;
    cpp_reset(&rc);
    diag_reset(&rc);
    if (path[0])
        unlink(path);
    path[0] = '\0';
}

START_TEST(error_with_caret)
{
    write_source("surface s() {\n    Ci = bad;\n}\n");
    capture_begin();
    diag_error(&rc, (SrcLoc){ path, 2, 10, 0 }, "unknown identifier '%s'", "bad");
    const char *got = capture_end();
    char want[256];
    snprintf(want, sizeof want,
             "%s:2:10: error: unknown identifier 'bad'\n"
             "    Ci = bad;\n"
             "         ^\n", path);
    ck_assert_str_eq(got, want);
    ck_assert_int_eq(diag_error_count(&rc), 1);
    ck_assert_int_eq(diag_warning_count(&rc), 0);
}
END_TEST

START_TEST(caret_keeps_tabs)
{
    write_source("\t\tx = 1;\n");
    capture_begin();
    diag_warning(&rc, (SrcLoc){ path, 1, 3, 0 }, "w");
    const char *got = capture_end();
    ck_assert_ptr_nonnull(strstr(got, "warning: w\n\t\tx = 1;\n\t\t^\n"));
    ck_assert_int_eq(diag_warning_count(&rc), 1);
    ck_assert_int_eq(diag_error_count(&rc), 0);
}
END_TEST

START_TEST(werror_turns_warnings_into_errors)
{
    write_source("x\n");
    capture_begin();
    diag_set_werror(&rc, true);
    diag_warning(&rc, (SrcLoc){ path, 1, 1, 0 }, "unused");
    const char *got = capture_end();
    ck_assert_ptr_nonnull(strstr(got, ":1:1: error: unused\n"));
    ck_assert_int_eq(diag_error_count(&rc), 1);
}
END_TEST

START_TEST(no_location_and_unreadable_file)
{
    capture_begin();
    diag_error(&rc, (SrcLoc){ "rslc", 0, 0 }, "no input file");
    diag_error(&rc, (SrcLoc){ "/nonexistent/x.sl", 4, 2 }, "gone");
    const char *got = capture_end();
    ck_assert_str_eq(got, "rslc: error: no input file\n"
                          "/nonexistent/x.sl:4:2: error: gone\n");
}
END_TEST

START_TEST(error_limit_stops_reporting_but_counts)
{
    capture_begin();
    diag_set_error_limit(&rc, 2);
    for (int i = 0; i < 5; i++)
        diag_error(&rc, (SrcLoc){ "f.sl", 0, 0 }, "e%d", i);
    const char *got = capture_end();
    ck_assert_str_eq(got, "f.sl: error: e0\nf.sl: error: e1\n"
                          "rslc: too many errors; stopping after 2\n");
    ck_assert_int_eq(diag_error_count(&rc), 5);
}
END_TEST

START_TEST(notes_do_not_count)
{
    capture_begin();
    diag_note(&rc, (SrcLoc){ "f.sl", 0, 0 }, "declared here");
    const char *got = capture_end();
    ck_assert_str_eq(got, "f.sl: note: declared here\n");
    ck_assert_int_eq(diag_error_count(&rc), 0);
}
END_TEST

START_TEST(internal_errors_count_apart)
{
    /* A compiler bug is an error, said as one, and counted apart from a
       bad program's errors; a reset forgets both. */
    capture_begin();
    diag_error(&rc, (SrcLoc){ "f.sl", 0, 0 }, "internal error: not a bug of ours");
    diag_internal(&rc, (SrcLoc){ "f.sl", 0, 0 }, "generated %s", "bad code");
    const char *got = capture_end();
    ck_assert_str_eq(got, "f.sl: error: internal error: not a bug of ours\n"
                          "f.sl: error: internal error: generated bad code\n");
    ck_assert_int_eq(diag_error_count(&rc), 2);
    ck_assert_int_eq(diag_internal_count(&rc), 1);
    diag_reset(&rc);
    ck_assert_int_eq(diag_internal_count(&rc), 0);
}
END_TEST

/* ---- cpp ------------------------------------------------------------------ */

START_TEST(cpp_expands_and_marks_lines)
{
    write_source("#define TWO 2\n"
                 "float f() {\n"
                 "    return TWO;\n"
                 "}\n");
    const char *args[] = { "-DEXTRA=1" };
    CppOptions opt = { args, 1 };
    size_t len;
    char *text = cpp_run(path, &opt, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(strlen(text), len);
    ck_assert_ptr_nonnull(strstr(text, "return 2;"));
    ck_assert_ptr_nonnull(strstr(text, path));   /* a line marker */
    free(text);
}
END_TEST

START_TEST(cpp_failure_returns_null)
{
    write_source("#error deliberately\n");
    CppOptions opt = { NULL, 0 };
    size_t len;
    /* cpp prints its own message; rslc reports failure by NULL. */
    int saved = dup(2), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    char *text = cpp_run(path, &opt, &len);
    dup2(saved, 2);
    close(saved);
    close(devnull);
    ck_assert_ptr_null(text);
}
END_TEST

START_TEST(column_maps_through_squeezed_space_and_comments)
{
    const char *orig = "\tfloat   a = 1; /* c */   b  =   bogus;";
    /* What GNU cpp makes of that line. */
    const char *pp = "# 1 \"x.sl\"\n float a = 1; b = bogus;\n";
    cpp_index(&rc, pp, strlen(pp));
    int pp_col = (int)(strstr(pp, "bogus") - strchr(pp, '\n'));
    int col = cpp_original_column(&rc, "x.sl", 1, pp_col, orig);
    ck_assert_int_eq(col, (int)(strstr(orig, "bogus") - orig) + 1);
    /* Lines that are not indexed keep their column. */
    ck_assert_int_eq(cpp_original_column(&rc, "x.sl", 9, 7, orig), 7);
    ck_assert_int_eq(cpp_original_column(&rc, "other.sl", 1, 7, orig), 7);
}
END_TEST

START_TEST(column_points_at_macro_use)
{
    const char *orig = "x = HALF + y;";
    const char *pp = "# 3 \"m.sl\"\nx = 0.5 + y;\n";
    cpp_index(&rc, pp, strlen(pp));
    /* Inside the expansion: the macro name is the best place to point. */
    ck_assert_int_eq(cpp_original_column(&rc, "m.sl", 3, 6, orig), 5);
    /* Before it, columns are exact. */
    ck_assert_int_eq(cpp_original_column(&rc, "m.sl", 3, 1, orig), 1);
}
END_TEST

START_TEST(huge_line_numbers_clamp_as_the_lexer_does)
{
    /* A marker's number past 10^9 (here past what a long holds) makes its
       lines line 10^9, as the lexer counts them, and they stay there;
       found by fuzz-frontend, where strtol's LONG_MAX became line -1 and
       line -1 meant "a marker's entry" to cpp_reset, which freed the file
       name once per line. Line 0 ("#line 0") is a line like any other. */
    const char *pp = "# 22222222222222222222222222 \"x.sl\"\n"
                     " a = bogus;\n"
                     "  b =  bogus;\n"
                     "# 0 \"y.sl\"\n"
                     "c = bogus;\n";
    cpp_index(&rc, pp, strlen(pp));
    ck_assert_int_eq(cpp_original_column(&rc, "x.sl", 1000000000, 6, "a    = bogus;"), 8);
    ck_assert_int_eq(cpp_original_column(&rc, "y.sl", 0, 5, "c =   bogus;"), 7);
    cpp_reset(&rc);
    ck_assert_int_eq(cpp_original_column(&rc, "x.sl", 1000000000, 6, "a    = bogus;"), 6);
}
END_TEST

START_TEST(line_markers_with_escapes_and_includes)
{
    const char *pp = "# 1 \"a\\\\b.sl\"\n"
                     "one\n"
                     "# 1 \"inc.h\" 1\n"
                     "  two\n"
                     "# 7 \"a\\\\b.sl\" 2\n"
                     "three\n";
    cpp_index(&rc, pp, strlen(pp));
    ck_assert_int_eq(cpp_original_column(&rc, "inc.h", 1, 3, "\ttwo"), 2);
    ck_assert_int_eq(cpp_original_column(&rc, "a\\b.sl", 7, 1, "three"), 1);
    ck_assert_int_eq(cpp_original_column(&rc, "a\\b.sl", 1, 2, "  one"), 4);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("diagnostics");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, error_with_caret);
    tcase_add_test(tc, caret_keeps_tabs);
    tcase_add_test(tc, werror_turns_warnings_into_errors);
    tcase_add_test(tc, no_location_and_unreadable_file);
    tcase_add_test(tc, error_limit_stops_reporting_but_counts);
    tcase_add_test(tc, notes_do_not_count);
    tcase_add_test(tc, internal_errors_count_apart);
    suite_add_tcase(s, tc);

    tc = tcase_create("cpp");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, cpp_expands_and_marks_lines);
    tcase_add_test(tc, cpp_failure_returns_null);
    tcase_add_test(tc, column_maps_through_squeezed_space_and_comments);
    tcase_add_test(tc, column_points_at_macro_use);
    tcase_add_test(tc, line_markers_with_escapes_and_includes);
    tcase_add_test(tc, huge_line_numbers_clamp_as_the_lexer_does);
    suite_add_tcase(s, tc);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
