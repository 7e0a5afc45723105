/*
** check_passes.c: the optimiser's tests. One Check loop test runs every
** file of tests/ir (format in tests/ir/README): parse the input, run the
** named passes with the verifier after each, match the printed result
** against the file's EXPECT lines. Unit tests cover the shared math of
** runtime/mathlib.c and properties the files cannot state (fixpoints,
** freeing everything).
*/
#include "config.h"

#include <check.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/check.h"
#include "rslc/cpp.h"
#include "rslc/diag.h"
#include "runtime/mathlib.h"
#include "rslc/ir.h"
#include "rslc/parse.h"
#include "rslc/pass.h"
#include "rslc/passes.h"

/* The compile context of this test program (one test at a time). */
static RslcCtx rc;

static glob_t files;

/* ---- reading a test file ---------------------------------------------------- */

typedef struct Pattern {
    char *text;
    enum { PAT_IN_ORDER, PAT_NEXT, PAT_NOT } kind;
} Pattern;

typedef struct TestFile {
    char *input;               /* the non-comment lines */
    bool rsl;                  /* "# INPUT: rsl": input is RSL source */
    char *run;                 /* the RUN line's pass list */
    Pattern pat[128];
    int npat;
} TestFile;

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int c;
    while ((c = getc(f)) != EOF)
        putc(c, mem);
    fclose(f);
    fclose(mem);
    return text;
}

static char *trimmed(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    return strndup(s, n);
}

static void parse_test(const char *path, TestFile *t)
{
    char *text = read_all(path), *save = NULL;
    size_t len = 0;
    FILE *in = open_memstream(&t->input, &len);
    bool in_expect = false;
    memset(t->pat, 0, sizeof t->pat);
    t->npat = 0;
    t->run = NULL;
    t->rsl = false;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] != '#') {
            fprintf(in, "%s\n", line);
            continue;
        }
        char *body = line + 1;
        while (*body == ' ')
            body++;
        ck_assert_msg(t->npat < 128, "%s: too many patterns", path);
        Pattern *p = &t->pat[t->npat];
        if (strncmp(body, "RUN:", 4) == 0) {
            t->run = trimmed(body + 4);
        } else if (strncmp(body, "INPUT:", 6) == 0) {
            char *kind = trimmed(body + 6);
            t->rsl = strcmp(kind, "rsl") == 0;
            free(kind);
        } else if (strcmp(body, "EXPECT:") == 0) {
            in_expect = true;
        } else if (strncmp(body, "EXPECT-NOT:", 11) == 0) {
            p->text = trimmed(body + 11), p->kind = PAT_NOT, t->npat++;
        } else if (strncmp(body, "EXPECT-NEXT:", 12) == 0) {
            p->text = trimmed(body + 12), p->kind = PAT_NEXT, t->npat++;
        } else if (in_expect && *body) {
            p->text = trimmed(body), p->kind = PAT_IN_ORDER, t->npat++;
        }
    }
    fclose(in);
    free(text);
    ck_assert_msg(t->run != NULL, "%s: no RUN line", path);
    ck_assert_msg(t->npat > 0, "%s: no EXPECT patterns", path);
}

static void free_test(TestFile *t)
{
    free(t->input);
    free(t->run);
    for (int i = 0; i < t->npat; i++)
        free(t->pat[i].text);
}

/* ---- matching -------------------------------------------------------------------- */

/* Captures: [[NAME]] matches one token (%12, @3, a name) the first time
   and the same token after that. */
typedef struct Vars {
    char name[32][16], value[32][32];
    int n;
} Vars;

static bool is_token_char(char c)
{
    return c == '%' || c == '@' || c == '_' || c == '.' || (c >= '0' && c <= '9')
        || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Matches pattern p at the start of s, whitespace runs being equal to
   any whitespace run. Returns the end of the match or NULL. */
static const char *match_here(const char *p, const char *s, Vars *v)
{
    while (*p) {
        if (p[0] == '[' && p[1] == '[') {
            const char *end = strstr(p, "]]");
            ck_assert_msg(end && end - p - 2 < 16, "bad capture in '%s'", p);
            char name[16];
            snprintf(name, sizeof name, "%.*s", (int)(end - p - 2), p + 2);
            size_t n = 0;
            while (is_token_char(s[n]))
                n++;
            if (!n || n >= 32)
                return NULL;
            int i = 0;
            while (i < v->n && strcmp(v->name[i], name) != 0)
                i++;
            if (i < v->n && (strlen(v->value[i]) != n || strncmp(v->value[i], s, n) != 0))
                return NULL;
            if (i == v->n) {
                ck_assert(v->n < 32);
                snprintf(v->name[i], 16, "%s", name);
                snprintf(v->value[i], 32, "%.*s", (int)n, s);
                v->n++;
            }
            p = end + 2;
            s += n;
        } else if (*p == ' ') {
            if (*s != ' ' && *s != '\t')
                return NULL;
            while (*p == ' ')
                p++;
            while (*s == ' ' || *s == '\t')
                s++;
        } else if (*p++ != *s++) {
            return NULL;
        }
    }
    return s;
}

/* Does the line contain the pattern? New captures stick only on success. */
static bool match_line(const char *pat, const char *line, Vars *v)
{
    for (const char *s = line; *s; s++) {
        Vars try = *v;
        if (match_here(pat, s, &try)) {
            *v = try;
            return true;
        }
    }
    return false;
}

static void check_output(const char *path, const TestFile *t, char *out)
{
    char *lines[4096];
    int n = 0;
    char *save = NULL;
    for (char *l = strtok_r(out, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    Vars v = { .n = 0 };
    int at = -1;
    for (int i = 0; i < t->npat; i++) {
        const Pattern *p = &t->pat[i];
        if (p->kind == PAT_NOT) {
            for (int l = 0; l < n; l++) {
                Vars try = v;
                ck_assert_msg(!match_line(p->text, lines[l], &try),
                              "%s: EXPECT-NOT '%s' matched line %d: %s", path, p->text, l + 1,
                              lines[l]);
            }
            continue;
        }
        int l = at + 1;
        if (p->kind == PAT_NEXT)
            ck_assert_msg(l < n && match_line(p->text, lines[l], &v),
                          "%s: EXPECT-NEXT '%s' not on line %d", path, p->text, l + 1);
        else
            while (l < n && !match_line(p->text, lines[l], &v))
                l++;
        ck_assert_msg(l < n, "%s: '%s' not found after line %d", path, p->text, at + 1);
        at = l;
    }
}

/* ---- running ---------------------------------------------------------------------- */

static void verify_module(const char *path, const IrModule *m, const char *after)
{
    for (int f = 0; f < m->nfuncs; f++) {
        char *report = NULL;
        size_t len = 0;
        FILE *r = open_memstream(&report, &len);
        bool ok = ir_verify(m->funcs[f], r);
        fclose(r);
        ck_assert_msg(ok, "%s: verifier after %s:\n%s", path, after, report);
        free(report);
    }
}

/* Runs the comma-separated pass list (or an -O level) over m. */
static void run_passes(const char *path, IrModule *m, const char *list)
{
    if (list[0] == '-' && list[1] == 'O') {
        passes_run_pipeline(m, atoi(list + 2));
        verify_module(path, m, list);
        return;
    }
    char *copy = strdup(list), *save = NULL;
    for (char *name = strtok_r(copy, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
        passes_run_named(m, name);
        verify_module(path, m, name);
    }
    free(copy);
}

/* The test's input as a module: IR text parsed, or RSL source (no
   preprocessing) parsed, checked and lowered. */
static IrModule *load(const char *path, const TestFile *t)
{
    if (!t->rsl)
        return ir_parse(&rc, t->input, path);
    Unit *unit = parse_rsl(&rc, t->input, strlen(t->input), path);
    return unit && check_unit(&rc, unit) ? ir_lower_unit(&rc, unit) : NULL;
}

/* Frees m and, for RSL input, the syntax tree its names point into. */
static void unload(IrModule *m)
{
    ir_module_free(m);
    check_free(&rc);
    ast_free_all(&rc);
}

static char *print_module(const IrModule *m)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    ir_print_module(f, m);
    fclose(f);
    return out;
}

START_TEST(ir_file)
{
    const char *path = files.gl_pathv[_i];
    TestFile t;
    parse_test(path, &t);
    IrModule *m = load(path, &t);
    ck_assert_msg(m != NULL, "%s: the input does not compile", path);
    verify_module(path, m, "parsing");
    run_passes(path, m, t.run);
    char *out = print_module(m);
    check_output(path, &t, out);
    free(out);
    unload(m);
    free_test(&t);
}
END_TEST

/* ---- unit tests: runtime/mathlib.c ----------------------------------------------- */

static float eval1(const char *name, int nargs, const float *a, const float *b, const float *c,
                   int len)
{
    const float *args[3] = { a, b, c };
    int lens[3] = { len, len, len };
    float out[3] = { NAN, NAN, NAN };
    ck_assert_msg(rsl_builtin_eval(name, nargs, args, lens, out, 1), "%s", name);
    return out[0];
}

START_TEST(math_scalars)
{
    float zero = 0, one = 1, two = 2, m7 = -7, three = 3, half = 0.5f;
    ck_assert(eval1("sin", 1, &zero, NULL, NULL, 1) == 0);
    ck_assert(eval1("cos", 1, &zero, NULL, NULL, 1) == 1);
    ck_assert(eval1("pow", 2, &two, &three, NULL, 1) == 8);
    ck_assert(eval1("mod", 2, &m7, &three, NULL, 1) == 2);   /* not C's -1 */
    ck_assert(eval1("sign", 1, &m7, NULL, NULL, 1) == -1);
    ck_assert(eval1("sign", 1, &zero, NULL, NULL, 1) == 0);
    ck_assert(eval1("step", 2, &one, &one, NULL, 1) == 1);
    ck_assert(eval1("smoothstep", 3, &zero, &one, &half, 1) == 0.5f);
    ck_assert(eval1("smoothstep", 3, &zero, &one, &two, 1) == 1);
    ck_assert(eval1("clamp", 3, &three, &zero, &two, 1) == 2);
    ck_assert(eval1("mix", 3, &zero, &two, &half, 1) == 1);
    ck_assert(eval1("min", 3, &three, &m7, &two, 1) == -7);
    ck_assert(eval1("log", 2, &three, &three, NULL, 1) == 1);
    ck_assert(fabsf(eval1("degrees", 1, &one, NULL, NULL, 1) - 57.29578f) < 1e-4f);
}
END_TEST

START_TEST(math_triples)
{
    float v[3] = { 3, 0, 4 }, w[3] = { 3, 0, 0 }, out[3];
    const float *args[2] = { v, w };
    int len3[2] = { 3, 3 }, len31[2] = { 3, 1 };
    ck_assert(rsl_builtin_eval("length", 1, args, len3, out, 1) && out[0] == 5);
    ck_assert(rsl_builtin_eval("normalize", 1, args, len3, out, 3));
    ck_assert(out[0] == 0.6f && out[1] == 0 && out[2] == 0.8f);
    /* max(color, float): the float is broadcast. */
    float f = 2;
    const float *mixed[2] = { v, &f };
    ck_assert(rsl_builtin_eval("max", 2, mixed, len31, out, 3));
    ck_assert(out[0] == 3 && out[1] == 2 && out[2] == 4);
    ck_assert(rsl_builtin_eval("distance", 2, args, len3, out, 1) && out[0] == 4);
    /* Shapes that do not fit are refused, not guessed. */
    ck_assert(!rsl_builtin_eval("length", 1, args, len31, out, 3));
    ck_assert(!rsl_builtin_eval("noise", 1, args, len3, out, 1));
    ck_assert(!rsl_builtin_eval("sin", 2, args, len3, out, 1));
}
END_TEST

START_TEST(math_matrices)
{
    float m[16] = { 2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 8, 0, 1, 2, 3, 1 }, inv[16], id[16];
    ck_assert(rsl_matinv(m, inv));
    rsl_matmul(m, inv, id);
    for (int i = 0; i < 16; i++)
        ck_assert(fabsf(id[i] - (i % 5 == 0)) < 1e-6f);
    ck_assert(rsl_determinant(m) == 64);
    float singular[16] = { 0 };
    ck_assert(!rsl_matinv(singular, inv));
    /* transform(matrix, point) is homogeneous: the last row translates. */
    float p[3] = { 1, 1, 1 }, out[3];
    const float *args[2] = { m, p };
    int lens[2] = { 16, 3 };
    ck_assert(rsl_builtin_eval("transform", 2, args, lens, out, 3));
    ck_assert(out[0] == 3 && out[1] == 6 && out[2] == 11);
    ck_assert(rsl_builtin_eval("vtransform", 2, args, lens, out, 3));
    ck_assert(out[0] == 2 && out[1] == 4 && out[2] == 8);
}
END_TEST

/* ---- unit tests: every pass reaches a fixpoint ------------------------------ */

/* Once a pass has run to its own fixpoint over a file's input, running it
   again must change nothing: a pass that reports a change forever would
   hang a pipeline iterating to a fixpoint. */
START_TEST(fixpoints)
{
    static const char *names[] = { "copy", "fold",  "phisimp", "gvn",
                                   "sccp", "dce", "licm", "cfgclean" };
    const char *path = files.gl_pathv[_i];
    TestFile t;
    parse_test(path, &t);
    for (size_t p = 0; p < sizeof names / sizeof *names; p++) {
        IrModule *m = load(path, &t);
        ck_assert_ptr_nonnull(m);
        passes_run_named(m, names[p]);
        verify_module(path, m, names[p]);
        ck_assert_msg(!passes_run_named(m, names[p]), "%s: %s changed the IR twice", path,
                      names[p]);
        unload(m);
    }
    free_test(&t);
}
END_TEST

/* ---- lowering every shader of the repository -------------------------------------------- */

static glob_t shaders;

/* Each shader of shaders/ and tests/corpus/ lowers, verifies, and still
   verifies after the -O0 and -O2 pipelines. */
START_TEST(lower_shader)
{
    const char *path = shaders.gl_pathv[_i];
    const char *inc[] = { "-I" TOP_SRCDIR "/tests/corpus" };
    CppOptions opt = { inc, 1 };
    for (int level = 0; level <= 2; level += 2) {
        size_t len;
        char *text = cpp_run(path, &opt, &len);
        ck_assert_msg(text != NULL, "%s: cpp failed", path);
        Unit *unit = parse_rsl(&rc, text, len, path);
        ck_assert_msg(unit && check_unit(&rc, unit), "%s: does not check", path);
        IrModule *m = ir_lower_unit(&rc, unit);
        ck_assert_msg(m != NULL, "%s: lowering reported errors", path);
        verify_module(path, m, "lowering");
        passes_run_pipeline(m, level);
        verify_module(path, m, level ? "-O2" : "-O0");
        unload(m);
        free(text);
    }
}
END_TEST

static Suite *passes_suite(void)
{
    Suite *s = suite_create("passes");
    TCase *tc = tcase_create("math");
    tcase_add_test(tc, math_scalars);
    tcase_add_test(tc, math_triples);
    tcase_add_test(tc, math_matrices);
    suite_add_tcase(s, tc);
    tc = tcase_create("ir");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, ir_file, 0, (int)files.gl_pathc);
    tcase_add_loop_test(tc, fixpoints, 0, (int)files.gl_pathc);
    suite_add_tcase(s, tc);
    tc = tcase_create("lower");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, lower_shader, 0, (int)shaders.gl_pathc);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (glob(TOP_SRCDIR "/tests/ir/*.ir", 0, NULL, &files) != 0 || files.gl_pathc == 0) {
        fprintf(stderr, "check_passes: no tests in " TOP_SRCDIR "/tests/ir\n");
        return 1;
    }
    if (glob(TOP_SRCDIR "/shaders/*.sl", 0, NULL, &shaders) != 0
        || glob(TOP_SRCDIR "/tests/corpus/*.sl", GLOB_APPEND, NULL, &shaders) != 0) {
        fprintf(stderr, "check_passes: no shaders in " TOP_SRCDIR "\n");
        return 1;
    }
    SRunner *sr = srunner_create(passes_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    globfree(&files);
    globfree(&shaders);
    return failed ? 1 : 0;
}
