/*
** check_reentrant.c: the compiler is reentrant (issue 12). Several
** shaders, and files with errors, are compiled to VM objects one at a
** time, then by several threads at once, each with its own compile
** context (rslc/ctx.h): every concurrent compilation must give the same
** object bytes, and exactly the same diagnostics in its own stream, as
** the compilation alone. Run it under ThreadSanitizer (or ASan) to see
** races as well as their effects.
*/
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/compile.h"
#include "rslc/diag.h"
#include "runcmd.h"
#include "vm/object.h"

enum { NTHREADS = 4, ROUNDS = 8 };

/* What one compilation gave: the object as vm_object_write writes it
   (NULL when it did not compile) and the diagnostics. */
typedef struct Result {
    char *bytes;
    size_t len;
    char *diags;
} Result;

/* Shaders that compile, then files with diagnostics (tests/diag, whose
   EXPECT block is the exact text): errors, or only warnings. */
static const char *const shaders[] = {
    "shaders/plastic.sl", "shaders/paintedplastic.sl", "shaders/spotlight.sl",
    "shaders/bumpy.sl", "shaders/fog.sl", "shaders/shinymetal.sl",
};
static const char *const broken[] = {
    "tests/diag/01_unknown_ident.sl", "tests/diag/05_wrong_arg_type.sl",
    "tests/diag/42_many_errors.sl", "tests/diag/43_warnings_only.sl",
};
enum { NSHADERS = sizeof shaders / sizeof shaders[0], NBROKEN = sizeof broken / sizeof broken[0],
       NJOBS = NSHADERS + NBROKEN };

static const char *job_path(int j, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", TOP_SRCDIR, j < NSHADERS ? shaders[j] : broken[j - NSHADERS]);
    return buf;
}

/* The bytes of obj as written to a file of its own. */
static char *object_bytes(const VmObject *obj, size_t *len)
{
    char path[] = "/tmp/check_reentrant_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    close(fd);
    char err[256];
    char *bytes = NULL;
    if (vm_object_write(path, obj, err, sizeof err) == 0) {
        FILE *f = fopen(path, "rb");
        if (f) {
            fseek(f, 0, SEEK_END);
            *len = (size_t)ftell(f);
            rewind(f);
            bytes = malloc(*len + 1);
            if (bytes && fread(bytes, 1, *len, f) != *len) {
                free(bytes);
                bytes = NULL;
            }
            fclose(f);
        }
    }
    unlink(path);
    return bytes;
}

/* Compiles job j with a context of its own, its diagnostics in memory. */
static Result compile_job(int j)
{
    char path[1024];
    Result r = { NULL, 0, NULL };
    size_t dlen;
    FILE *diags = open_memstream(&r.diags, &dlen);
    RslcCtx rc = { 0 };
    diag_set_output(&rc, diags);
    VmObject *obj = backend_compile_file(&rc, job_path(j, path, sizeof path), 2, NULL, 0, false);
    rslc_ctx_free(&rc);
    fclose(diags);
    if (obj)
        r.bytes = object_bytes(obj, &r.len);
    vm_object_free(obj);
    return r;
}

static void result_free(Result *r)
{
    free(r->bytes);
    free(r->diags);
}

static bool same(const Result *a, const Result *b)
{
    return !a->bytes == !b->bytes && a->len == b->len && !strcmp(a->diags, b->diags)
           && (!a->bytes || !memcmp(a->bytes, b->bytes, a->len));
}

/* The EXPECT block of a tests/diag file, its locations naming the file
   by the full path this test compiles it under. */
static char *expected_diags(const char *path)
{
    char *src = slurp(path);
    ck_assert_ptr_nonnull(src);
    const char *start = strstr(src, "/* EXPECT\n");
    ck_assert_ptr_nonnull(start);
    start += strlen("/* EXPECT\n");
    const char *end = strstr(start, "*/");
    ck_assert_ptr_nonnull(end);
    const char *base = strrchr(path, '/') + 1;
    size_t dirlen = (size_t)(base - path), cap = 2 * (size_t)(end - start) + 4096, n = 0;
    char *want = malloc(cap);
    ck_assert_ptr_nonnull(want);
    for (const char *line = start; line < end;) {
        const char *eol = strchr(line, '\n') + 1;
        if (!strncmp(line, base, strlen(base)) && line[strlen(base)] == ':')
            n += (size_t)snprintf(want + n, cap - n, "%.*s", (int)dirlen, path);
        n += (size_t)snprintf(want + n, cap - n, "%.*s", (int)(eol - line), line);
        line = eol;
    }
    free(src);
    return want;
}

static Result reference[NJOBS];

/* Compiles every job alone; the shaders compile silently, the others
   give exactly their expected diagnostics, and an object if those are
   only warnings. */
static void setup(void)
{
    for (int j = 0; j < NJOBS; j++) {
        char path[1024];
        reference[j] = compile_job(j);
        job_path(j, path, sizeof path);
        if (j < NSHADERS) {
            ck_assert_msg(reference[j].bytes && reference[j].len > 0, "%s: no object:\n%s",
                          path, reference[j].diags);
            ck_assert_str_eq(reference[j].diags, "");
        } else {
            char *want = expected_diags(path);
            ck_assert_msg(!reference[j].bytes == !!strstr(want, ": error: "),
                          "%s: an object exactly when there is no error", path);
            ck_assert_str_eq(reference[j].diags, want);
            free(want);
        }
    }
}

static void teardown(void)
{
    for (int j = 0; j < NJOBS; j++)
        result_free(&reference[j]);
}

typedef struct Worker {
    pthread_t thread;
    int first;               /* each thread starts at a different job */
    int compiled, differing;
    int first_diff;          /* the job that differed first */
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    for (int round = 0; round < ROUNDS; round++)
        for (int k = 0; k < NJOBS; k++) {
            int j = (w->first + k) % NJOBS;
            Result r = compile_job(j);
            w->compiled++;
            if (!same(&r, &reference[j]) && w->differing++ == 0)
                w->first_diff = j;
            result_free(&r);
        }
    return NULL;
}

START_TEST(concurrent_compiles_match_sequential)
{
    Worker w[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        w[t] = (Worker){ .first = t * NJOBS / NTHREADS };
        ck_assert_int_eq(pthread_create(&w[t].thread, NULL, work, &w[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        ck_assert_int_eq(pthread_join(w[t].thread, NULL), 0);
    for (int t = 0; t < NTHREADS; t++) {
        char path[1024];
        ck_assert_int_eq(w[t].compiled, ROUNDS * NJOBS);
        ck_assert_msg(w[t].differing == 0, "thread %d: %d compilations differ, first of %s", t,
                      w[t].differing, job_path(w[t].first_diff, path, sizeof path));
    }
}
END_TEST

/* One context compiles one file after another, as rslvm does: what an
   error leaves behind does not reach the next compilation. */
START_TEST(one_context_compiles_in_turn)
{
    char path[1024];
    char *text = NULL;
    size_t len;
    FILE *diags = open_memstream(&text, &len);
    RslcCtx rc = { 0 };
    diag_set_output(&rc, diags);
    VmObject *bad = backend_compile_file(&rc, job_path(NSHADERS, path, sizeof path), 2, NULL,
                                         0, false);
    ck_assert_ptr_null(bad);
    ck_assert_int_gt(diag_error_count(&rc), 0);
    VmObject *good = backend_compile_file(&rc, job_path(0, path, sizeof path), 2, NULL, 0,
                                          false);
    ck_assert_ptr_nonnull(good);
    ck_assert_int_eq(diag_error_count(&rc), 0);
    size_t n;
    char *bytes = object_bytes(good, &n);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_uint_eq(n, reference[0].len);
    ck_assert(!memcmp(bytes, reference[0].bytes, n));
    rslc_ctx_free(&rc);
    fclose(diags);
    ck_assert_str_eq(text, reference[NSHADERS].diags);
    free(bytes);
    free(text);
    vm_object_free(good);
}
END_TEST

static Suite *reentrant_suite(void)
{
    Suite *s = suite_create("reentrant");
    TCase *tc = tcase_create("threads");
    tcase_add_checked_fixture(tc, setup, teardown);
    /* Sanitizers slow the compilations down several times over. */
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, concurrent_compiles_match_sequential);
    tcase_add_test(tc, one_context_compiles_in_turn);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reentrant_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
