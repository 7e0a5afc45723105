/*
** check_rslvm.c: rslvm end to end: --call on the functions of
** tests/vm/fixtures/calls.sl (results worked out by hand), optimisation
** measured by --stats (-O2 runs strictly fewer instructions than -O0),
** the errors a user meets, a runaway loop stopped by the step budget,
** out-of-bounds array indices warned about once per line, and the
** string limits (fixtures/strings.sl), including running out of memory
** under a small RLIMIT_AS.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runcmd.h"
#include "../common/suite.h"

#define FIXTURES TOP_SRCDIR "/tests/vm/fixtures"

static Run rslvm(const char *args)
{
    return run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslvm", args);
}

static const struct {
    const char *args, *want;
} calls[] = {
    { "calls.sl --call sq 1.5", "2.25\n" },
    { "calls.sl --call sq -3", "9\n" },
    { "calls.sl --call tint 1,2,3 -0.5", "-0.5 -1 -1.5\n" },
    /* floor(-2.25) = -3 and -2.25 - -3 = 0.75, with the outputs given
       or not */
    { "calls.sl --call split -2.25", "-3 0.75\n" },
    { "calls.sl --call split 7.5 0 0", "7 0.5\n" },
    { "calls.sl --call greet '\"world\"'", "hello world\n" },
    { "calls.sl --call greet plain", "hello plain\n" },
    /* diag(2, 3, 4, 1) */
    { "calls.sl --call det 2,0,0,0,0,3,0,0,0,0,4,0,0,0,0,1", "24\n" },
    { "calls.sl --call mid 0,0,0 2,4,-6", "1 2 -3\n" },
    { "calls.sl --call fact 5", "120\n" },
    { "calls.sl --call fact 5 -O0", "120\n" },
};

/* Computed defaults: distantlight's from and to are points in "shader"
   space, which the test host places at 2 p + (0, 0, 5); a value given
   with --set replaces the computed one; b = a * 3 + sin(a) folds at
   compile time (a = 2: 6 + sin 2). */
static const struct {
    const char *args, *want;
} defaults[] = {
    { TOP_SRCDIR "/shaders/distantlight.sl --shade distantlight --grid 1 1 --print from "
      "--print to", "0 0: 0 0 5 0 0 7\n" },
    { TOP_SRCDIR "/shaders/distantlight.sl --shade distantlight --grid 1 1 --print from "
      "--print to -O0", "0 0: 0 0 5 0 0 7\n" },
    { TOP_SRCDIR "/shaders/distantlight.sl --shade distantlight --grid 1 1 --print from "
      "--print to --set from=1,1,1", "0 0: 1 1 1 0 0 7\n" },
    /* A global read and then written (background's alpha) keeps the
       host's value until the write: Ci = 0 + (1 - 0.5) * bgcolor. */
    { TOP_SRCDIR "/shaders/background.sl --shade background --grid 1 1 --set alpha=0.5 "
      "--set bgcolor=0.25,0.5,0.75 --print Ci --print alpha", "0 0: 0.125 0.25 0.375 1\n" },
    { TOP_SRCDIR "/shaders/background.sl --shade background --grid 1 1 --set alpha=0.5 "
      "--set bgcolor=0.25,0.5,0.75 --print Ci --print alpha -O0", "0 0: 0.125 0.25 0.375 1\n" },
    { FIXTURES "/defaults.sl --shade defaults --grid 1 1 --print b --print s",
      "0 0: 6.90929747 two-and\n" },
    { FIXTURES "/defaults.sl --shade defaults --grid 1 1 --print b --print s --set a=0 "
      "--set word=one", "0 0: 0 one-and\n" },
};

START_TEST(computed_defaults)
{
    Run r = rslvm(defaults[_i].args);
    ck_assert_msg(r.status == 0, "%s: %s", defaults[_i].args, r.err);
    ck_assert_str_eq(r.out, defaults[_i].want);
    run_free(&r);
}
END_TEST

START_TEST(call)
{
    char args[512];
    snprintf(args, sizeof args, FIXTURES "/%s", calls[_i].args);
    Run r = rslvm(args);
    ck_assert_msg(r.status == 0, "%s: %s", calls[_i].args, r.err);
    ck_assert_str_eq(r.out, calls[_i].want);
    run_free(&r);
}
END_TEST

static const struct {
    const char *args, *err;
} errors[] = {
    { FIXTURES "/calls.sl --call sq", "no function 'sq' taking 0 arguments" },
    { FIXTURES "/calls.sl --call nope 1", "no function 'nope' taking 1 argument" },
    { FIXTURES "/calls.sl --call tint 1,2 3", "does not fit its type" },
    { FIXTURES "/calls.sl --call sq 1 --shade t --grid 1 1", "drop --shade and --grid" },
    { FIXTURES "/missing.sl --shade missing --grid 2 2",
      "missing.sl:3: error: texture(): no texture 'nowhere.tex'" },
    /* 2^32 + 1 once wrapped around to a 1x1 grid */
    { FIXTURES "/calls.sl --shade t --grid 4294967297 1",
      "rslvm: error: --grid needs two sizes from 1 to 65536, not '4294967297'\n" },
    { FIXTURES "/calls.sl --shade t --grid 4 4x",
      "rslvm: error: --grid needs two sizes from 1 to 65536, not '4x'\n" },
    /* "ab" doubled 40 times would be 2 TiB; 20 times is already 2 MiB */
    { FIXTURES "/strings.sl --shade strings --grid 1 1",
      "strings.sl:11: error: concat(): made a string longer than 1048576 bytes" },
    { FIXTURES "/strings.sl --shade strings --grid 1 1 --set times=20",
      "strings.sl:11: error: concat(): made a string longer than 1048576 bytes" },
    /* 200 strings of 512 KiB pass the table's 64 MiB */
    { FIXTURES "/strings.sl --shade strings --grid 1 1 --set times=18 --set copies=200",
      "strings.sl:13: error: concat(): the run's strings would take more than 67108864 bytes" },
    { FIXTURES "/strings.sl --shade strings --grid 2 1 --set times=1 --set pattern=%999999999f",
      "strings.sl:15: error: printf(): format \"%999999999f\": width over the limit of 4096" },
    { FIXTURES "/strings.sl --shade strings --grid 1 1 --set times=1 --set pattern='%.999999999f'",
      "strings.sl:15: error: printf(): format \"%.999999999f\": precision over the limit of 4096" },
};

START_TEST(user_errors)
{
    Run r = rslvm(errors[_i].args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, errors[_i].err) != NULL, "%s: got '%s'", errors[_i].args, r.err);
    ck_assert_str_eq(r.out, "");
    run_free(&r);
}
END_TEST

/* Strings at the limits are made: 1 MiB exactly, and 120 of 512 KiB. */
START_TEST(strings_within_limits)
{
    static const char *const args[] = {
        FIXTURES "/strings.sl --shade strings --grid 1 1 --set times=19",
        FIXTURES "/strings.sl --shade strings --grid 1 1 --set times=18 --set copies=120",
        FIXTURES "/strings.sl --shade strings --grid 1 1 --set times=1 --set pattern='<%4096.4096f>'",
    };
    for (int i = 0; i < 3; i++) {
        Run r = rslvm(args[i]);
        ck_assert_msg(r.status == 0, "%s: %s", args[i], r.err);
        ck_assert_str_eq(r.out + strlen(r.out) - 3, "ok\n");
        run_free(&r);
    }
}
END_TEST

/* Out of memory is an error, not an empty string and exit 0: with 32 MiB
   of address space beyond what rslvm needs to start (it maps libLLVM for
   --backend native: the least limit, in 16 MiB steps, under which
   `rslvm --help` runs) the shader's 64 MiB of strings cannot be made.
   The compiled object runs, so no preprocessor needs the memory.
   AddressSanitizer reserves terabytes of address space, so not there. */
START_TEST(out_of_memory_is_an_error)
{
#if defined(__SANITIZE_ADDRESS__)
    return;
#endif
    Run c = run_program(TOP_BUILDDIR, TOP_BUILDDIR "/tools/rslc",
                        FIXTURES "/strings.sl -o tests/vm/check_rslvm_strings.o");
    ck_assert_msg(c.status == 0, "%s", c.err);
    run_free(&c);
    Run r = run_program(TOP_BUILDDIR, "/bin/sh",
                        "-c 'base=16384; while [ $base -lt 4194304 ] && ! (ulimit -v $base && "
                        "exec tools/rslvm --help) >/dev/null 2>&1; do base=$((base + 16384)); done; "
                        "ulimit -v $((base + 32768)) && exec tools/rslvm tests/vm/check_rslvm_strings.o "
                        "--shade strings --grid 1 1 --set times=18 --set copies=200'");
    remove(TOP_BUILDDIR "/tests/vm/check_rslvm_strings.o");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "strings.sl:13: error: concat(): out of memory"), "%s", r.err);
    ck_assert_str_eq(r.out, "");
    run_free(&r);
}
END_TEST

/* Output lost to a full disk is an error, not exit 0. */
static const char *const to_full[] = {
    "calls.sl --call sq 1.5",
    FIXTURES "/defaults.sl --shade defaults --grid 64 64 --print Ci",
};

START_TEST(stdout_write_error)
{
    Run r = run_to_full_disk(FIXTURES, TOP_BUILDDIR "/tools/rslvm", to_full[_i]);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslvm: error: writing standard output: No space left on device\n");
    run_free(&r);
}
END_TEST

START_TEST(runaway_loop_stopped)
{
    /* At every level, the budget ends the loop at its own line (6). */
    char args[512];
    snprintf(args, sizeof args, FIXTURES "/loop.sl --shade loop --grid 4 4 -O%d "
             "--max-shader-steps 10000", _i);
    Run r = rslvm(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslvm: error: shader 'loop' ran past 10000 steps at "
                            FIXTURES "/loop.sl:6\n");
    ck_assert_str_eq(r.out, "");
    run_free(&r);
}
END_TEST

START_TEST(runaway_varying_loop_stopped)
{
    /* A loop under an execution mask jumps back from its own code, not
       the function's: the budget names the loop's line (7) at every
       level. */
    char args[512];
    snprintf(args, sizeof args, FIXTURES "/varyloop.sl --shade varyloop --grid 4 4 -O%d "
             "--max-shader-steps 10000", _i);
    Run r = rslvm(args);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslvm: error: shader 'varyloop' ran past 10000 steps at "
                            FIXTURES "/varyloop.sl:7\n");
    run_free(&r);
}
END_TEST

START_TEST(bad_steps_option)
{
    Run r = rslvm(FIXTURES "/loop.sl --shade loop --grid 1 1 --max-shader-steps -5");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslvm: error: --max-shader-steps needs a count (0: no limit), "
                            "not '-5'\n");
    run_free(&r);
}
END_TEST

START_TEST(bounds_warned_once)
{
    /* 32 x 32 points in four batches: every point reads a[7] (clamped:
       a[3] = 4) and writes b[-1] (clamped: b[0] = 10); one warning a
       line. b is a local copy: without debug information, no name. */
    char args[512];
    snprintf(args, sizeof args, FIXTURES "/bounds.sl --shade bounds --grid 32 32 --print Ci -O%d",
             _i * 2);
    Run r = rslvm(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.err,
                     FIXTURES "/bounds.sl:6: warning: index -1 out of bounds for array of length 4\n"
                     FIXTURES "/bounds.sl:7: warning: index 7 out of bounds for array 'a' of "
                              "length 4\n");
    int lines = 0;
    for (const char *p = r.out; (p = strstr(p, ": 4 10 4\n")); p++)
        lines++;
    ck_assert_int_eq(lines, 32 * 32);
    run_free(&r);
    /* A NaN index reads the first element, and says so; b[2] = 10 is in
       bounds, leaving b[0] = 1 and b[3] = 4. */
    r = rslvm(FIXTURES "/bounds.sl --shade bounds --grid 2 1 --print Ci --set i=nan --set j=2");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "0 0: 1 1 4\n1 0: 1 1 4\n");
    ck_assert_str_eq(r.err, FIXTURES "/bounds.sl:7: warning: index nan out of bounds for array "
                            "'a' of length 4\n");
    run_free(&r);
}
END_TEST

START_TEST(format_missing_arguments_warned_once)
{
    /* 16 x 16 points in two batches, each printing "2 %d" or "3 %d"; one
       warning a call site (the uniform format may run first). */
    Run r = rslvm(FIXTURES "/fmtargs.sl --shade fmtargs --grid 16 16");
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *printf_warning =
        FIXTURES "/fmtargs.sl:6: warning: printf(): 1 conversion in \"%.0f %d...\" without "
                 "an argument, printed as written\n";
    const char *format_warning =
        FIXTURES "/fmtargs.sl:7: warning: format(): 1 conversion in \"%s-%c\" without an "
                 "argument, printed as written\n";
    ck_assert_msg(strstr(r.err, printf_warning) && strstr(r.err, format_warning), "%s", r.err);
    ck_assert_uint_eq(strlen(r.err), strlen(printf_warning) + strlen(format_warning));
    int lines = 0;
    for (const char *p = r.out; (p = strstr(p, " %d\n")); p++)
        lines++;
    ck_assert_int_eq(lines, 16 * 16);
    ck_assert_ptr_nonnull(strstr(r.out, "a-%c\n"));
    run_free(&r);
}
END_TEST

/* "instructions N" from --stats. */
static unsigned long long executed(const char *file, const char *shader, int level)
{
    char args[512];
    snprintf(args, sizeof args, "%s --shade %s --grid 8 8 --stats -O%d", file, shader, level);
    Run r = rslvm(args);
    ck_assert_msg(r.status == 0, "%s: %s", args, r.err);
    const char *at = strstr(r.out, "instructions ");
    ck_assert_ptr_nonnull(at);
    unsigned long long n = strtoull(at + 13, NULL, 10);
    run_free(&r);
    return n;
}

static const struct {
    const char *file, *shader;
} optimised[] = {
    { FIXTURES "/redundant.sl", "redundant" },
    { TOP_SRCDIR "/shaders/plastic.sl", "plastic" },
    { TOP_SRCDIR "/shaders/metal.sl", "metal" },
    { TOP_SRCDIR "/shaders/shinymetal.sl", "shinymetal" },
};

START_TEST(optimisation_runs_fewer_instructions)
{
    unsigned long long o0 = executed(optimised[_i].file, optimised[_i].shader, 0);
    unsigned long long o2 = executed(optimised[_i].file, optimised[_i].shader, 2);
    ck_assert_msg(o2 < o0, "%s: -O2 ran %llu instructions, -O0 %llu", optimised[_i].shader, o2,
                  o0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rslvm");
    TCase *tc = tcase_create("rslvm");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, call, 0, sizeof calls / sizeof *calls);
    tcase_add_loop_test(tc, user_errors, 0, sizeof errors / sizeof *errors);
    tcase_add_loop_test(tc, stdout_write_error, 0, sizeof to_full / sizeof *to_full);
    tcase_add_test(tc, strings_within_limits);
    tcase_add_test(tc, out_of_memory_is_an_error);
    tcase_add_loop_test(tc, computed_defaults, 0, sizeof defaults / sizeof *defaults);
    tcase_add_loop_test(tc, runaway_loop_stopped, 0, 3);
    tcase_add_loop_test(tc, runaway_varying_loop_stopped, 0, 3);
    tcase_add_test(tc, bad_steps_option);
    tcase_add_loop_test(tc, bounds_warned_once, 0, 2);
    tcase_add_test(tc, format_missing_arguments_warned_once);
    tcase_add_loop_test(tc, optimisation_runs_fewer_instructions, 0,
                        sizeof optimised / sizeof *optimised);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
