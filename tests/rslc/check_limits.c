/*
** check_limits.c: rslc on inputs built to blow a phase up (issue 17),
** each generated at test time in a temporary directory: deep nests of
** varying ifs and ?:, long call chains, call trees that double with each
** level, thousands of variables, preprocessor bombs and device files.
** Each must either compile to the right values or stop with its exact
** located error (the limits of rslc/limits.h), quickly: the sizes are the
** ones that took minutes before.
*/
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcmd.h"

#ifndef RSLC_PATH
#error "RSLC_PATH must name the rslc binary under test"
#endif
#ifndef RSLVM_PATH
#error "RSLVM_PATH must name the rslvm binary under test"
#endif

static char tmpdir[64];

static void setup(void)
{
    strcpy(tmpdir, "/tmp/rslc-limitsXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A growing source text. */
typedef struct Text {
    char *s;
    size_t n, cap;
} Text;

static void add(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)need + 1 > t->cap) {
        t->cap = 2 * (t->n + (size_t)need + 1);
        t->s = realloc(t->s, t->cap);
        ck_assert_ptr_nonnull(t->s);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)need + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)need;
}

/* Writes t to main.sl in tmpdir and frees it. */
static void write_main(Text *t)
{
    char path[128];
    snprintf(path, sizeof path, "%s/main.sl", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fwrite(t->s, 1, t->n, f);
    fclose(f);
    free(t->s);
}

/* rslvm's output for main.sl with args; asserts it succeeded. */
static char *rslvm(const char *args)
{
    Run r = run_program(tmpdir, RSLVM_PATH, args);
    ck_assert_msg(r.status == 0, "rslvm %s: %s", args, r.err);
    char *out = strdup(r.out);
    run_free(&r);
    return out;
}

/* rslc's stderr for main.sl with args; asserts it failed. */
static char *rslc_fails(const char *args)
{
    Run r = run_program(tmpdir, RSLC_PATH, args);
    ck_assert_msg(r.status == 1, "rslc %s: status %d", args, r.status);
    char *err = strdup(r.err);
    run_free(&r);
    return err;
}

/* The first line of s, in place. */
static char *first_line(char *s)
{
    s[strcspn(s, "\n")] = '\0';
    return s;
}

enum { DEPTH = 990 };

/* 990 nested varying ifs, each adding 1: every point takes them all.
   Took 46 s (register allocation tried each slot against each register;
   dominance walked the dominator tree), -S and --verify-ir longer. */
START_TEST(nested_ifs)
{
    Text t = { 0 };
    add(&t, "surface s()\n{\n    float x = 0;\n");
    for (int i = 0; i < DEPTH; i++)
        add(&t, "    if (u < 2) { x += 1;\n");
    for (int i = 0; i < DEPTH; i++)
        add(&t, "}");
    add(&t, "\n    Ci = x;\n}\n");
    write_main(&t);
    char *out = rslvm("main.sl --shade s --grid 2 1 --print Ci");
    ck_assert_str_eq(out, "0 0: 990 990 990\n1 0: 990 990 990\n");
    free(out);
    Run r = run_program(tmpdir, RSLC_PATH, "main.sl -S --verify-ir -o main.s");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
}
END_TEST

/* The same with ?: : u + 990 where u < 2 (u is 0 and 1 on a 2 x 1 grid). */
START_TEST(nested_conditionals)
{
    Text t = { 0 }, e = { 0 };
    add(&e, "u");
    for (int i = 0; i < DEPTH; i++) {
        Text n = { 0 };
        add(&n, "(u < 2 ? %s + 1 : 0)", e.s);
        free(e.s);
        e = n;
    }
    add(&t, "surface s()\n{\n    Ci = %s;\n}\n", e.s);
    free(e.s);
    write_main(&t);
    char *out = rslvm("main.sl --shade s --grid 2 1 --print Ci");
    ck_assert_str_eq(out, "0 0: 990 990 990\n1 0: 991 991 991\n");
    free(out);
}
END_TEST

/* 200 nested loops, each running once and adding 1. SSA construction
   walked chains of removed phis on every read: cubic in the depth (330
   took 10 s). */
START_TEST(nested_loops)
{
    Text t = { 0 };
    add(&t, "surface s()\n{\n    float x = 0;\n");
    for (int i = 0; i < 200; i++)
        add(&t, "    float i%d;\n", i);
    for (int i = 0; i < 200; i++)
        add(&t, "    for (i%d = 0; i%d < 1; i%d += 1) { x += 1;\n", i, i, i);
    for (int i = 0; i < 200; i++)
        add(&t, "}");
    add(&t, "\n    Ci = x;\n}\n");
    write_main(&t);
    char *out = rslvm("main.sl --shade s --grid 2 1 --print Ci");
    ck_assert_str_eq(out, "0 0: 200 200 200\n1 0: 200 200 200\n");
    free(out);
}
END_TEST

/* 5000 statements, each with a constant of its own: constants were
   interned by a search of all the function's constants (20000 took 48 s;
   the allocator is still quadratic in constants, which all live from the
   start, so the test stays at 5000). */
START_TEST(long_straight_line)
{
    Text t = { 0 };
    add(&t, "surface s()\n{\n    float x = u;\n");
    for (int i = 0; i < 5000; i++)
        add(&t, "    x = max(x, %d);\n", i);
    add(&t, "    Ci = x;\n}\n");
    write_main(&t);
    char *out = rslvm("main.sl --shade s --grid 1 1 --print Ci");
    ck_assert_str_eq(out, "0 0: 4999 4999 4999\n");
    free(out);
}
END_TEST

/* 1000 functions, each calling the one before and adding 1. Took 58 s
   and 516 MB (each function copied its callee as already grown). */
START_TEST(call_chain)
{
    Text t = { 0 };
    add(&t, "float f0(float x) { return x + 1; }\n");
    for (int i = 1; i < 1000; i++)
        add(&t, "float f%d(float x) { return f%d(x) + 1; }\n", i, i - 1);
    add(&t, "surface s()\n{\n    Ci = f999(u);\n}\n");
    write_main(&t);
    char *out = rslvm("main.sl --shade s --grid 2 1 --print Ci");
    ck_assert_str_eq(out, "0 0: 1000 1000 1000\n1 0: 1001 1001 1001\n");
    free(out);
}
END_TEST

/* f_i = f_{i-1} + f_{i-1}: the inlined shader doubles with each level. */
static void doubling(int depth)
{
    Text t = { 0 };
    add(&t, "float f0(float x) { return x + 1; }\n");
    for (int i = 1; i <= depth; i++)
        add(&t, "float f%d(float x) { return f%d(x) + f%d(x); }\n", i, i - 1, i - 1);
    add(&t, "surface s()\n{\n    Ci = f%d(u);\n}\n", depth);
    write_main(&t);
}

/* Depth 10 is 2^10 copies of f0: 1024 * (x + 1). */
START_TEST(call_tree_under_the_limit)
{
    doubling(10);
    char *out = rslvm("main.sl --call f10 0.5");
    ck_assert_str_eq(out, "1536\n");
    free(out);
}
END_TEST

/* Depth 18 ran for over a minute; now the error at the shader's call,
   with the size the whole tree would have at -O0: 2^21 + 1, as each
   level doubles. At -O2 the middle end has already copied f18 into the
   shader: the error still names the call written there. */
START_TEST(call_tree_over_the_limit)
{
    doubling(18);
    char *err = rslc_fails("-O0 main.sl");
    ck_assert_str_eq(first_line(err), "main.sl:22:10: error: inlining 'f18' would make the "
                                      "shader 2097153 instructions, over the limit of 100000");
    free(err);
    err = rslc_fails("main.sl");
    ck_assert_ptr_nonnull(strstr(err, "main.sl:22:10: error: inlining 'f18' would make the shader "));
    free(err);
}
END_TEST

/* Parameters and locals: up to the limit they compile (the last
   parameter's value comes through); past it, one error at the first
   variable over. 100k of either took over 30 s. */
START_TEST(many_variables)
{
    Text t = { 0 };
    add(&t, "surface s(\n");
    for (int i = 0; i < 2000; i++)
        add(&t, "    float p%d = %d;\n", i, i);
    add(&t, ")\n{\n    Ci = p1999;\n}\n");
    write_main(&t);
    char *out = rslvm("main.sl --shade s --grid 1 1 --print Ci");
    ck_assert_str_eq(out, "0 0: 1999 1999 1999\n");
    free(out);

    t = (Text){ 0 };
    add(&t, "surface s()\n{\n");
    for (int i = 0; i < 100000; i++)
        add(&t, "    float l%d = %d;\n", i, i);
    add(&t, "    Ci = l0;\n}\n");
    write_main(&t);
    char *err = rslc_fails("main.sl");
    ck_assert_str_eq(first_line(err), "main.sl:2003:11: error: too many variables: 'l2000' is "
                                      "over the limit of 2000 in one function or shader");
    free(err);
}
END_TEST

/* rslc /dev/zero read until memory ran out. */
START_TEST(input_not_a_regular_file)
{
    char *err = rslc_fails("/dev/zero");
    ck_assert_str_eq(err, "rslc: error: /dev/zero is not a regular file\n");
    free(err);
}
END_TEST

/* #include of a device: cpp read it forever (/dev/urandom) or to 8.4 GB
   (/dev/zero), then failed with no location. Now its memory is bounded
   and the error names the last line it had reached. */
START_TEST(include_of_a_device)
{
    static const char *const devices[] = { "/dev/zero", "/dev/urandom" };
    for (int d = 0; d < 2; d++) {
        Text t = { 0 };
        add(&t, "surface s()\n{\n#include \"%s\"\n    Ci = 1;\n}\n", devices[d]);
        write_main(&t);
        char *err = rslc_fails("main.sl");
        ck_assert_msg(strstr(err, "main.sl:2: error: the preprocessor failed after this line "
                                  "(limits: 16 MiB of output, 10 s, 128 MiB of memory)\n"),
                      "%s", err);
        free(err);
    }
}
END_TEST

/* A macro that doubles 12 times, used on a thousand lines: cpp used to
   run until the machine's memory was gone. */
START_TEST(macro_bomb)
{
    Text t = { 0 };
    add(&t, "#define a0 x x\n");
    for (int i = 1; i <= 12; i++)
        add(&t, "#define a%d a%d a%d\n", i, i - 1, i - 1);
    add(&t, "surface s()\n{\n");
    for (int i = 0; i < 1100; i++)
        add(&t, "    Ci = a12;\n");
    add(&t, "}\n");
    write_main(&t);
    char *err = rslc_fails("main.sl");
    ck_assert_msg(strstr(err, "error: the preprocessor ") && strstr(err, "main.sl:"), "%s", err);
    free(err);
}
END_TEST

/* cpp says "unterminated #if" at a line without a column; #line 0 made
   the next line's errors lose their place. */
START_TEST(preprocessor_locations)
{
    Text t = { 0 };
    add(&t, "surface s()\n{\n  #if 1\n    Ci = 1;\n}\n");
    write_main(&t);
    char *err = rslc_fails("main.sl");
    ck_assert_str_eq(first_line(err), "main.sl:3:3: error: unterminated #if");
    free(err);

    t = (Text){ 0 };
    add(&t, "surface s()\n{\n#line 0\n    Ci = nope;\n}\n");
    write_main(&t);
    err = rslc_fails("main.sl");
    ck_assert_str_eq(first_line(err), "main.sl:0:10: error: unknown identifier 'nope'");
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("limits");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nested_ifs);
    tcase_add_test(tc, nested_conditionals);
    tcase_add_test(tc, nested_loops);
    tcase_add_test(tc, long_straight_line);
    tcase_add_test(tc, call_chain);
    tcase_add_test(tc, call_tree_under_the_limit);
    tcase_add_test(tc, call_tree_over_the_limit);
    tcase_add_test(tc, many_variables);
    tcase_add_test(tc, input_not_a_regular_file);
    tcase_add_test(tc, include_of_a_device);
    tcase_add_test(tc, macro_bomb);
    tcase_add_test(tc, preprocessor_locations);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
