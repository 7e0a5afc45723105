/*
** check_disasm.c: rslc -S listings against the golden text embedded in
** each tests/vm/disasm/NAME.sl, between "// >>> output" and "// <<<" (each
** line after "// "), compiled with the flags of its "// RUN:" line; and
** -S's own command line: -o, and what it refuses.
*/
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runcmd.h"
#include "../common/suite.h"

#define TESTDIR "tests/vm/disasm"

static char *names[64];
static int nnames;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_tests(void)
{
    DIR *d = opendir(TOP_SRCDIR "/" TESTDIR);
    struct dirent *e;
    while (d && (e = readdir(d)) && nnames < 64) {
        size_t n = strlen(e->d_name);
        if (n > 3 && !strcmp(e->d_name + n - 3, ".sl"))
            names[nnames++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)nnames, sizeof *names, by_name);
}

/* The golden listing and the RUN flags of a test file. */
static char *expected(const char *text, char *flags, size_t nflags)
{
    const char *run = strstr(text, "// RUN:");
    flags[0] = '\0';
    if (run) {
        run += 7;
        size_t n = strcspn(run, "\n");
        snprintf(flags, nflags, "%.*s", (int)n, run);
    }
    const char *p = strstr(text, "// >>> output\n");
    if (!p)
        return NULL;
    p = strchr(p, '\n') + 1;
    char *out = calloc(strlen(p) + 1, 1);
    size_t n = 0;
    while (*p && strncmp(p, "// <<<", 6)) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *body = len >= 3 && !strncmp(p, "// ", 3) ? p + 3 : len >= 2 ? p + 2 : p + len;
        size_t blen = (size_t)(p + len - body);
        memcpy(out + n, body, blen);
        n += blen;
        out[n++] = '\n';
        p = eol ? eol + 1 : p + len;
    }
    return out;
}

START_TEST(golden)
{
    ck_assert_int_gt(nnames, 1);
    char path[512], flags[256], args[1024];
    snprintf(path, sizeof path, TOP_SRCDIR "/" TESTDIR "/%s", names[_i]);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    char *want = expected(text, flags, sizeof flags);
    ck_assert_msg(want != NULL, "%s has no '// >>> output' block", names[_i]);
    snprintf(args, sizeof args, "-S " TESTDIR "/%s %s", names[_i], flags);
    Run r = run_program(TOP_SRCDIR, TOP_BUILDDIR "/tools/rslc", args);
    ck_assert_msg(r.status == 0, "%s: %s", names[_i], r.err);
    ck_assert_msg(!strcmp(r.out, want), "%s: listing differs:\n--- got\n%s--- want\n%s", names[_i],
                  r.out, want);
    run_free(&r);
    free(want);
    free(text);
}
END_TEST

/* -o writes the same listing to a file, and nothing to stdout. */
START_TEST(listing_to_file)
{
    Run r = run_program(TOP_SRCDIR, TOP_BUILDDIR "/tools/rslc",
                        "-S " TESTDIR "/01_tint.sl -O0 -o " TOP_BUILDDIR "/tests/vm/tint.lst");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "");
    char *got = slurp(TOP_BUILDDIR "/tests/vm/tint.lst");
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(strstr(got, "; surface tint: "));
    ck_assert_ptr_nonnull(strstr(got, TESTDIR "/01_tint.sl:4: color c = Cs * Kd;\n"));
    ck_assert_ptr_nonnull(strstr(got, "MUL.3    v6, v0<Cs>, u1\n"));
    free(got);
    run_free(&r);
    remove(TOP_BUILDDIR "/tests/vm/tint.lst");
}
END_TEST

START_TEST(listing_errors)
{
    Run r = run_program(TOP_SRCDIR, TOP_BUILDDIR "/tools/rslc",
                        "-S tests/vm/fixtures/calls.sl");
    ck_assert_int_ne(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.err, "no shader to compile"));
    ck_assert_str_eq(r.out, "");
    run_free(&r);
    r = run_program(TOP_SRCDIR, TOP_BUILDDIR "/tools/rslc",
                    "-S " TESTDIR "/01_tint.sl -o /nonexistent/dir/x.lst");
    ck_assert_int_ne(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.err, "cannot write the listing to '/nonexistent/dir/x.lst'"));
    run_free(&r);
}
END_TEST

int main(void)
{
    find_tests();
    Suite *s = suite_create("disasm");
    TCase *tc = tcase_create("disasm");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, golden, 0, nnames > 1 ? nnames : 2);
    tcase_add_test(tc, listing_to_file);
    tcase_add_test(tc, listing_errors);
    suite_add_tcase(s, tc);
    int rc = run_suite(s);
    for (int i = 0; i < nnames; i++)
        free(names[i]);
    return rc;
}
