/*
** check_rsldb.c: rsldb end to end, driven by scripts on stdin over
** tests/vm/fixtures/debug.sl on a 2 x 2 grid. Lane i is grid point
** (i % 2, i / 2), so s = u = i % 2 and t = v = i / 2; with Kd = 0.5,
** x = s * Kd is 0 at lanes 0 and 2 and 0.5 at lanes 1 and 3;
** y = twice(x) = 2 x + 1; lanes with s > 0.5 (1 and 3) add
** scale(x, 3) = 3 x + 1, so y is 1 there at lanes 0 and 2 and
** 2 + 2.5 = 4.5 at lanes 1 and 3. The transcript echoes each command.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcmd.h"
#include "../common/suite.h"

#define FIXTURES TOP_SRCDIR "/tests/vm/fixtures"

/* rsldb ARGS with the commands of script on stdin. */
static Run rsldb(const char *args, const char *script)
{
    char path[] = "/tmp/rsldb-scriptXXXXXX", cmd[4096];
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(script, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s <'%s'", args, path);
    Run r = run_program(FIXTURES, TOP_BUILDDIR "/tools/rsldb", cmd);
    unlink(path);
    return r;
}

#define GRID "debug.sl --shade inl --grid 2 2"

/* Each string of want must appear in the transcript, in order. */
static void expect(const Run *r, const char *const *want)
{
    const char *at = r->out;
    for (int i = 0; want[i]; i++) {
        const char *p = strstr(at, want[i]);
        ck_assert_msg(p != NULL, "'%s' not found in order in:\n%s\nstderr: %s", want[i], r->out,
                      r->err);
        at = p + strlen(want[i]);
    }
}

START_TEST(breakpoint_and_values)
{
    Run r = rsldb(GRID, "break debug.sl:15\nrun\nprint x\nnext\nprint x\nlane 3\nprint x\n"
                        "print x @all\nprint x * 2 + 1\nprint Kd\nprint s\ncontinue\n");
    static const char *const want[] = {
        "(rsldb) break debug.sl:15\nBreakpoint 1 at debug.sl:15\n",
        "Running inl over 4 lanes\n",
        "Breakpoint 1, debug.sl:15: float x = s * Kd;\n",
        "(rsldb) print x\nerror: 'x' has no value yet here\n",
        "(rsldb) next\ndebug.sl:16: float unused = t * 3;\n",
        "(rsldb) print x\nx = 0\n",
        "(rsldb) print x\nx = 0.5\n",
        "lane 0: 0\nlane 1: 0.5\nlane 2: 0\nlane 3: 0.5\n",
        "x * 2 + 1 = 2\n",
        "Kd = 0.5 (uniform)\n",
        "s = 1\n",
        "(rsldb) continue\nThe shader ran to the end.\n",
        NULL };
    expect(&r, want);
    /* the first print failed, and the exit status says so */
    ck_assert_int_eq(r.status, 1);
    run_free(&r);
}
END_TEST

/* step goes into inlined calls, next over them, finish out of them;
   backtrace rebuilds the inlined frames. */
START_TEST(step_next_finish)
{
    Run r = rsldb(GRID, "break debug.sl:17\nrun\nstep\nstep\nbacktrace\ninfo locals\nfinish\n"
                        "info locals\nfinish\nbacktrace\nrun\nnext\nquit\n");
    static const char *const want[] = {
        "Breakpoint 1, debug.sl:17: float y = twice(x);\n",
        "(rsldb) step\ndebug.sl:9: float w = scale(z, 2);\n",
        "(rsldb) step\ndebug.sl:3: float t = a * b;\n",
        "#0  scale at debug.sl:3\n#1  twice at debug.sl:9\n#2  inl at debug.sl:17\n",
        /* b is the constant 2: no register holds it */
        "float a = 0\nfloat b = <optimized out>\nfloat t = <no value yet>\n",
        "(rsldb) finish\ndebug.sl:10: return w;\n",
        "float z = 0\nfloat w = 1\n",
        "(rsldb) finish\ndebug.sl:18: if (s > 0.5)\n",
        "#0  inl at debug.sl:18\n",
        /* run again from the start, then next steps over the calls */
        "(rsldb) run\nRunning inl over 4 lanes\n\nBreakpoint 1, debug.sl:17",
        "(rsldb) next\ndebug.sl:18: if (s > 0.5)\n",
        NULL };
    expect(&r, want);
    ck_assert_int_eq(r.status, 0);
    run_free(&r);
}
END_TEST

/* A function breakpoint stops at each inlined copy; a lane outside the
   branch is inactive there. */
START_TEST(function_breakpoint)
{
    Run r = rsldb(GRID, "break scale\nrun\nbacktrace\ncontinue\nbacktrace\nprint a\nlane 1\n"
                        "print a\ncontinue\n");
    static const char *const want[] = {
        "Breakpoint 1 at scale\n",
        "Breakpoint 1, debug.sl:3: float t = a * b;\n",
        "#0  scale at debug.sl:3\n#1  twice at debug.sl:9\n#2  inl at debug.sl:17\n",
        "Breakpoint 1, debug.sl:3: float t = a * b;\n",
        "#0  scale at debug.sl:3\n#1  inl at debug.sl:19\n",
        "a = 0 (lane 0 inactive here)\n",
        "a = 0.5\n",
        "The shader ran to the end.\n",
        NULL };
    expect(&r, want);
    run_free(&r);
}
END_TEST

START_TEST(watchpoint)
{
    Run r = rsldb(GRID, "watch y\nrun\nprint y @all\ncontinue\n");
    static const char *const want[] = {
        "Watchpoint 1: y\n",
        "Watchpoint 1: y (lane 1)\nOld value = 2\nNew value = 4.5\n"
        "debug.sl:19: y = y + scale(x, 3);\n",
        "lane 0: 1 (lane 0 inactive here)\nlane 1: 4.5\nlane 2: 1 (lane 2 inactive here)\n"
        "lane 3: 4.5\n",
        "The shader ran to the end.\n",
        NULL };
    expect(&r, want);
    run_free(&r);
}
END_TEST

/* At -O2 what the optimiser removed says so; at -O0 it is there. */
START_TEST(optimized_out)
{
    Run r = rsldb(GRID " -O2", "break debug.sl:18\nrun\nprint unused\nprint x\ncontinue\n");
    static const char *const want[] = {
        "(rsldb) print unused\nerror: 'unused' is optimized out here\n",
        "(rsldb) print x\nx = 0\n",
        NULL };
    expect(&r, want);
    ck_assert_int_eq(r.status, 1);
    run_free(&r);
    r = rsldb(GRID " -O0", "break debug.sl:18\nrun\nlane 2\nprint unused\nquit\n");
    static const char *const want0[] = { "(rsldb) print unused\nunused = 3\n", NULL };
    expect(&r, want0);
    ck_assert_int_eq(r.status, 0);
    run_free(&r);
}
END_TEST

/* A value a builtin call makes (its arguments take extra words) is there
   for every lane that ran the call: the standard matte's Nf at -O0. */
START_TEST(value_of_a_builtin_call)
{
    Run r = rsldb(TOP_SRCDIR "/shaders/matte.sl --shade matte --grid 2 2 -O0",
                  "break matte.sl:6\nrun\nprint Nf\nlane 3\nprint Nf\ncontinue\n");
    static const char *const want[] = {
        "Breakpoint 1, " TOP_SRCDIR "/shaders/matte.sl:6:",
        "(rsldb) print Nf\nNf = (0, 0, -1)\n",
        "(rsldb) print Nf\nNf = (0, 0, -1)\n",
        "The shader ran to the end.\n",
        NULL };
    expect(&r, want);
    ck_assert_int_eq(r.status, 0);
    run_free(&r);
}
END_TEST

/* Breakpoints and watchpoints keep their numbers; delete removes one. */
START_TEST(delete_breakpoints)
{
    Run r = rsldb(GRID, "break debug.sl:15\nwatch y\nbreak debug.sl:20\ndelete 1\ndelete 7\n"
                        "info breakpoints\nrun\ndelete 2\ncontinue\n");
    static const char *const want[] = {
        "Breakpoint 1 at debug.sl:15\n",
        "Watchpoint 2: y\n",
        "Breakpoint 3 at debug.sl:20\n",
        "(rsldb) delete 1\nDeleted breakpoint 1\n",
        "(rsldb) delete 7\nerror: no breakpoint or watchpoint 7\n",
        "(rsldb) info breakpoints\n3 breakpoint debug.sl:20\n2 watchpoint y\n",
        "Watchpoint 2: y (lane 1)\n",
        "(rsldb) delete 2\nDeleted watchpoint 2\n",
        "Breakpoint 3, debug.sl:20: Ci = color(y, x, 0);\n",
        NULL };
    expect(&r, want);
    ck_assert_int_eq(r.status, 1); /* delete 7 failed */
    run_free(&r);
}
END_TEST

START_TEST(listing_and_registers)
{
    Run r = rsldb(GRID, "break debug.sl:20\nrun\ndisassemble\ninfo registers\nquit\n");
    static const char *const want[] = {
        "(rsldb) disassemble\n; surface inl: ",
        "debug.sl:20: Ci = color(y, x, 0);\n",
        "\n=>   ",
        "; variables\n",
        "(rsldb) info registers\nuniform:\n  u0 = 0.5  u1 = ",
        "varying, lane 0:\n  v0 = 0",
        NULL };
    expect(&r, want);
    run_free(&r);
}
END_TEST

START_TEST(bad_commands)
{
    Run r = rsldb(GRID, "step\nprint x\nbreak nosuch\nbreak other.sl:3\nbreak debug.sl:x\n"
                        "break debug.sl:400\nwatch 9x\nbogus\nrun\nbreak debug.sl:16\nrun\n"
                        "finish\nlane 9\nprint sin(x)\nprint x +\nprint x[3]\ninfo nothing\n"
                        "quit\n");
    static const char *const want[] = {
        "(rsldb) step\nerror: the shader is not running (use 'run')\n",
        "(rsldb) print x\nerror: the shader is not running (use 'run')\n",
        "error: no function 'nosuch' in the shader's code\n",
        "error: no source file 'other.sl' in the shader's line table\n",
        "error: bad line number 'x' (break FILE:LINE)\n",
        "error: no code at or after debug.sl:400\n",
        "error: watch takes a variable name\n",
        "error: unknown command 'bogus' (try 'help')\n",
        "The shader ran to the end.\n",
        "Breakpoint 1, debug.sl:16",
        "error: 'finish' needs an inlined function",
        "error: lane needs a number from 0 to 3\n",
        "error: no variable 'sin' in inl\n",
        "error: unsupported expression at 'the end'",
        "error: index 3 is outside 0..0\n",
        "error: info takes 'locals', 'registers' or 'breakpoints'\n",
        NULL };
    expect(&r, want);
    ck_assert_int_eq(r.status, 1);
    run_free(&r);
}
END_TEST

/* Without -g there is nothing to debug with; bad options are refused. */
START_TEST(needs_debug_information)
{
    Run r = run_program(FIXTURES, TOP_BUILDDIR "/tools/rslc",
                        "debug.sl -o " TOP_BUILDDIR "/tests/vm/nodebug.o");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    r = rsldb(TOP_BUILDDIR "/tests/vm/nodebug.o --shade inl --grid 1 1", "run\n");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "has no debug information: compile it with 'rslc -g'") != NULL,
                  "%s", r.err);
    run_free(&r);
    remove(TOP_BUILDDIR "/tests/vm/nodebug.o");
    r = rsldb(GRID " --frobnicate", "");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "rsldb: error: unknown or incomplete option '--frobnicate'") != NULL,
                  "%s", r.err);
    run_free(&r);
    r = rsldb("debug.sl --shade other --grid 1 1", "");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "the object holds shader 'inl'") != NULL, "%s", r.err);
    run_free(&r);
}
END_TEST

/* --call debugs a function called once. */
START_TEST(call)
{
    Run r = rsldb("debug.sl --call scale 2 5", "break scale\nrun\nnext\nprint t\ncontinue\n");
    static const char *const want[] = {
        "Running __call over 1 lane\n",
        "Breakpoint 1, debug.sl:3: float t = a * b;\n",
        "(rsldb) next\ndebug.sl:4: return t + 1;\n",
        "(rsldb) print t\nt = 10\n",
        NULL };
    expect(&r, want);
    ck_assert_int_eq(r.status, 0);
    run_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rsldb");
    TCase *tc = tcase_create("rsldb");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, breakpoint_and_values);
    tcase_add_test(tc, step_next_finish);
    tcase_add_test(tc, function_breakpoint);
    tcase_add_test(tc, watchpoint);
    tcase_add_test(tc, optimized_out);
    tcase_add_test(tc, value_of_a_builtin_call);
    tcase_add_test(tc, delete_breakpoints);
    tcase_add_test(tc, listing_and_registers);
    tcase_add_test(tc, bad_commands);
    tcase_add_test(tc, needs_debug_information);
    tcase_add_test(tc, call);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
