/*
** check_frontend.c: end-to-end tests of the rslc driver.
**
** Three groups: the golden diagnostics, the .sl files of tests/diag (each
** ends with an EXPECT block holding the exact stderr; a first line
** "// RSLC: FLAGS" compiles with FLAGS rather than --parse-only), the corpus of valid
** shaders (every .sl file of shaders/ and tests/corpus/ must check
** cleanly, and compile to a bytecode object with no message unless it
** holds a VM-EXPECT block with the exact stderr of that compile), and the
** command line itself (options, preprocessing, error mapping).
*/
#include <check.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runcmd.h"

#ifndef RSLC_PATH
#error "RSLC_PATH must name the rslc binary under test"
#endif
#ifndef TOP_SRCDIR
#error "TOP_SRCDIR must name the source tree"
#endif

/* ---- running rslc ---------------------------------------------------------- */

/* Runs "rslc ARGS" with cwd as the working directory. */
static Run run_rslc(const char *cwd, const char *args)
{
    return run_program(cwd, RSLC_PATH, args);
}

/* ---- golden diagnostics ------------------------------------------------------ */

static glob_t diag_files, corpus_files;

/* The text between "/" "* EXPECT\n" and the closing "*" "/" line. */
static char *marked_block(const char *src, const char *mark)
{
    const char *start = strstr(src, mark);
    if (!start)
        return NULL;
    start += strlen(mark);
    const char *end = strstr(start, "*/");
    if (!end)
        return NULL;
    return strndup(start, (size_t)(end - start));
}

static char *expected_block(const char *src)
{
    return marked_block(src, "/* EXPECT\n");
}

START_TEST(golden_diagnostic)
{
    const char *path = diag_files.gl_pathv[_i];
    char *src = slurp(path);
    ck_assert_ptr_nonnull(src);
    char *want = expected_block(src);
    ck_assert_msg(want != NULL, "%s has no EXPECT block", path);

    char *dir = strdup(path);
    *strrchr(dir, '/') = '\0';
    /* A first line "// RSLC: FLAGS" runs rslc with FLAGS instead of
       --parse-only, for the back end's messages. */
    char args[1024], flags[256] = "--parse-only";
    if (strncmp(src, "// RSLC: ", 9) == 0)
        snprintf(flags, sizeof flags, "%.*s", (int)strcspn(src + 9, "\n"), src + 9);
    snprintf(args, sizeof args, "%s '%s'", flags, strrchr(path, '/') + 1);
    Run r = run_rslc(dir, args);

    ck_assert_msg(strcmp(r.err, want) == 0,
                  "%s: diagnostics differ\n--- expected\n%s--- got\n%s",
                  path, want, r.err);
    int want_status = strstr(want, ": error: ") ? 1 : 0;
    ck_assert_msg(r.status == want_status, "%s: exit %d, expected %d", path,
                  r.status, want_status);
    run_free(&r);
    free(dir);
    free(want);
    free(src);
}
END_TEST

/* ---- the corpus of valid shaders ----------------------------------------- */

START_TEST(corpus_checks_cleanly)
{
    const char *path = corpus_files.gl_pathv[_i];
    char args[2048];
    snprintf(args, sizeof args,
             "--parse-only -I '%s/tests/corpus' '%s'", TOP_SRCDIR, path);
    Run r = run_rslc(".", args);
    ck_assert_msg(r.status == 0 && r.err[0] == '\0',
                  "%s: exit %d\n%s", path, r.status, r.err);
    run_free(&r);
}
END_TEST

START_TEST(corpus_compiles_to_bytecode)
{
    const char *path = corpus_files.gl_pathv[_i];
    char *src = slurp(path);
    ck_assert_ptr_nonnull(src);
    char *want = marked_block(src, "/* VM-EXPECT\n");
    char *dir = strdup(path), obj[] = "/tmp/rslc-corpusXXXXXX";
    *strrchr(dir, '/') = '\0';
    int fd = mkstemp(obj);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char args[2048];
    snprintf(args, sizeof args, "-I '%s/tests/corpus' '%s' -o '%s'", TOP_SRCDIR,
             strrchr(path, '/') + 1, obj);
    Run r = run_rslc(dir, args);
    const char *expect = want ? want : "";
    ck_assert_msg(strcmp(r.err, expect) == 0, "%s: messages differ\n--- expected\n%s--- got\n%s",
                  path, expect, r.err);
    int want_status = strstr(expect, ": error: ") ? 1 : 0;
    ck_assert_msg(r.status == want_status, "%s: exit %d, expected %d", path, r.status,
                  want_status);
    struct stat st;
    if (!want_status)
        ck_assert_msg(stat(obj, &st) == 0 && st.st_size > 0, "%s: no object", path);
    unlink(obj);
    run_free(&r);
    free(dir);
    free(want);
    free(src);
}
END_TEST

/* ---- the command line ------------------------------------------------------ */

static char tmpdir[64];

static void make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/rslc-cliXXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(help_and_version)
{
    Run r = run_rslc(".", "--help");
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: rslc FILE.sl"));
    ck_assert_ptr_nonnull(strstr(r.out, "--parse-only"));
    run_free(&r);
    r = run_rslc(".", "--version");
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "rslc"));
    run_free(&r);
}
END_TEST

START_TEST(unknown_option)
{
    Run r = run_rslc(".", "--frobnicate x.sl");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err,
                     "rslc: error: unknown option '--frobnicate' "
                     "(see 'rslc --help')\n");
    run_free(&r);
}
END_TEST

START_TEST(no_input_and_missing_file)
{
    Run r = run_rslc(".", "--parse-only");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslc: error: no input file (see 'rslc --help')\n");
    run_free(&r);
    r = run_rslc(".", "--parse-only /nonexistent/nope.sl");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslc: error: cannot open '/nonexistent/nope.sl': "
                            "No such file or directory\n");
    run_free(&r);
}
END_TEST

/* -o writes a real ELF object (readelf can list it); a path that cannot
   be written gets an error and leaves no file behind. */
START_TEST(output_object)
{
    make_tmpdir();
    write_file("m.sl", "surface m() { Ci = Cs; }\n");
    Run r = run_rslc(tmpdir, "m.sl -o m.o");
    ck_assert_msg(r.status == 0, "%s", r.err);
    char path[256];
    snprintf(path, sizeof path, "%s/m.o", tmpdir);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char magic[4] = { 0 };
    ck_assert_int_eq(fread(magic, 1, 4, f), 4);
    fclose(f);
    ck_assert(memcmp(magic, "\177ELF", 4) == 0);
    run_free(&r);
    r = run_rslc(tmpdir, "m.sl -o /nonexistent-dir/m.o");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "/nonexistent-dir/m.o: error: cannot create a file beside it: "
                            "No such file or directory\n");
    run_free(&r);
    remove_tmpdir();
}
END_TEST

/* -o onto something that is not a regular file (a FIFO here: as root,
   "-o /dev/full" once turned the device into a file) is refused and the
   node stays; -o through a symbolic link replaces the link's target and
   keeps the link, as cc does; no temporary file is left either way. */
START_TEST(output_refuses_non_regular_follows_links)
{
    make_tmpdir();
    write_file("m.sl", "surface m() { Ci = Cs; }\n");
    char fifo[256], target[256], link[256];
    snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    static const char *const args[] = { "m.sl -o fifo", "m.sl -S -o fifo" };
    static const char *const want[] = {
        "fifo: error: not a regular file; not writing\n",
        "rslc: error: cannot write the listing to 'fifo': not a regular file; not writing\n",
    };
    for (int i = 0; i < 2; i++) {
        Run r = run_rslc(tmpdir, args[i]);
        ck_assert_int_eq(r.status, 1);
        ck_assert_str_eq(r.err, want[i]);
        run_free(&r);
    }
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));

    write_file("old.o", "old\n");
    snprintf(target, sizeof target, "%s/old.o", tmpdir);
    snprintf(link, sizeof link, "%s/link.o", tmpdir);
    ck_assert_int_eq(symlink("old.o", link), 0);
    Run r = run_rslc(tmpdir, "m.sl -o link.o");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    char *obj = slurp(target);
    ck_assert(memcmp(obj, "\177ELF", 4) == 0);
    free(obj);
    r = run_program(tmpdir, "/bin/ls", "-A");
    ck_assert_str_eq(r.out, "fifo\nlink.o\nm.sl\nold.o\n");
    run_free(&r);
    remove_tmpdir();
}
END_TEST

/* Output lost to a full disk is an error, not exit 0: each way rslc
   prints to stdout. */
START_TEST(stdout_write_errors)
{
    make_tmpdir();
    write_file("m.sl", "surface m() { Ci = Cs; }\n");
    static const char *const args[] = { "m.sl -S", "m.sl --emit=ir", "m.sl --dump-ast" };
    for (int i = 0; i < 3; i++) {
        Run r = run_to_full_disk(tmpdir, RSLC_PATH, args[i]);
        ck_assert_int_eq(r.status, 1);
        ck_assert_str_eq(r.err, "rslc: error: writing standard output: No space left on device\n");
        run_free(&r);
    }
    remove_tmpdir();
}
END_TEST

/* The middle-end flags: --emit=ir prints the optimised IR, --print-after
   shows a pass's output, -O0 leaves lowering's code alone, and a pass
   name that does not exist is refused with the list. */
START_TEST(middle_end_flags)
{
    make_tmpdir();
    write_file("k.sl", "surface k() { float a = 2 * 3; Ci = Cs * a; }\n");
    Run r = run_rslc(tmpdir, "--emit=ir -O2 k.sl");
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "func @k surface void"));
    ck_assert_ptr_nonnull(strstr(r.out, "color(6 6 6)")); /* 2 * 3 folded, splatted */
    ck_assert_ptr_null(strstr(r.out, "mul 2, 3"));
    run_free(&r);
    r = run_rslc(tmpdir, "--emit=ir -O0 k.sl");
    ck_assert_ptr_nonnull(strstr(r.out, "mul 2, 3"));
    run_free(&r);
    r = run_rslc(tmpdir, "--emit=ir --print-after=fold k.sl");
    ck_assert_ptr_nonnull(strstr(r.out, "# after fold, round 1"));
    run_free(&r);
    r = run_rslc(tmpdir, "--emit=ir --disable-pass=fold --disable-pass=sccp k.sl");
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "mul 2, 3"));
    run_free(&r);
    r = run_rslc(tmpdir, "--emit=ir --disable-pass=nosuch k.sl");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "rslc: error: unknown pass 'nosuch' in '--disable-pass=nosuch' "
                            "(passes: specialize copy fold phisimp gvn sccp dce inline licm cfgclean)\n");
    run_free(&r);
    remove_tmpdir();
}
END_TEST

START_TEST(defines_and_undefines)
{
    make_tmpdir();
    write_file("d.sl",
               "surface d() {\n"
               "#ifdef BAD\n"
               "    Ci = nosuchthing;\n"
               "#endif\n"
               "    Ci = KD;\n"
               "}\n");
    Run r = run_rslc(tmpdir, "--parse-only -D KD=0.5 d.sl");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    r = run_rslc(tmpdir, "--parse-only -DKD=1 -D BAD d.sl");
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "d.sl:3:"));
    run_free(&r);
    r = run_rslc(tmpdir, "--parse-only -DKD=1 -DBAD -U BAD d.sl");
    ck_assert_msg(r.status == 0, "%s", r.err);
    run_free(&r);
    remove_tmpdir();
}
END_TEST

START_TEST(errors_in_includes_name_the_header)
{
    make_tmpdir();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir '%s/inc'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    write_file("inc/util.h",
               "// helpers\n"
               "float twice(float x) {\n"
               "    return x * undefinedname;\n"
               "}\n");
    write_file("main.sl",
               "#include \"util.h\"\n"
               "surface s() {\n"
               "    Ci = twice(1);\n"
               "}\n");
    Run r = run_rslc(tmpdir, "--parse-only -I inc main.sl");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err,
                     "inc/util.h:3:16: error: unknown identifier 'undefinedname'\n"
                     "    return x * undefinedname;\n"
                     "               ^\n");
    run_free(&r);
    remove_tmpdir();
}
END_TEST

START_TEST(columns_survive_preprocessing)
{
    /* cpp squeezes white space and drops comments; the caret must still
       land under the token the user wrote. */
    make_tmpdir();
    write_file("c.sl",
               "#define ONE 1\n"
               "surface c() {\n"
               "\tfloat   a = ONE; /* note */   float b  =   bogus;\n"
               "}\n");
    Run r = run_rslc(tmpdir, "--parse-only c.sl");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err,
                     "c.sl:3:45: error: unknown identifier 'bogus'\n"
                     "\tfloat   a = ONE; /* note */   float b  =   bogus;\n"
                     "\t                                           ^\n");
    run_free(&r);
    remove_tmpdir();
}
END_TEST

/* ---- suite --------------------------------------------------------------- */

static void find_files(glob_t *g, const char *const *patterns)
{
    int flags = 0;
    for (; *patterns; patterns++) {
        char pat[1024];
        snprintf(pat, sizeof pat, "%s/%s", TOP_SRCDIR, *patterns);
        glob(pat, flags, NULL, g);
        flags = GLOB_APPEND;
    }
}

int main(void)
{
    static const char *const diag_pat[] = { "tests/diag/*.sl", NULL };
    static const char *const corpus_pat[] = { "shaders/*.sl",
                                              "tests/corpus/*.sl", NULL };
    find_files(&diag_files, diag_pat);
    find_files(&corpus_files, corpus_pat);

    Suite *s = suite_create("frontend");
    TCase *tc = tcase_create("diagnostics");
    tcase_add_loop_test(tc, golden_diagnostic, 0, (int)diag_files.gl_pathc);
    suite_add_tcase(s, tc);

    tc = tcase_create("corpus");
    tcase_add_loop_test(tc, corpus_checks_cleanly, 0,
                        (int)corpus_files.gl_pathc);
    tcase_add_loop_test(tc, corpus_compiles_to_bytecode, 0, (int)corpus_files.gl_pathc);
    suite_add_tcase(s, tc);

    tc = tcase_create("command line");
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, unknown_option);
    tcase_add_test(tc, no_input_and_missing_file);
    tcase_add_test(tc, output_object);
    tcase_add_test(tc, output_refuses_non_regular_follows_links);
    tcase_add_test(tc, stdout_write_errors);
    tcase_add_test(tc, middle_end_flags);
    tcase_add_test(tc, defines_and_undefines);
    tcase_add_test(tc, errors_in_includes_name_the_header);
    tcase_add_test(tc, columns_survive_preprocessing);
    suite_add_tcase(s, tc);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    globfree(&diag_files);
    globfree(&corpus_files);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
