/*
** check_native_cache.c: the code cache's bound (backends/llvm/codecache.c):
** past its limit, a store removes the entries used least recently, where
** a hit makes an entry used now, and never the entry it stored. The
** shaders differ only in their names, so that their entries are the same
** size and the limit counts them.
*/
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_compile.h"
#include "backends/llvm/native.h"
#include "../common/suite.h"

enum { SHADERS = 4, MAXENT = 8 };

static char dir[] = "/tmp/check_native_cache.XXXXXX";

/* The entries' file names in the cache folder; how many. */
static int entries(char names[MAXENT][80])
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strlen(e->d_name) == 66 && !strcmp(e->d_name + 64, ".o")) {
            ck_assert_int_lt(n, MAXENT);
            snprintf(names[n++], 80, "%s", e->d_name);
        }
    closedir(d);
    return n;
}

static bool has_entry(const char *name)
{
    char names[MAXENT][80];
    int n = entries(names);
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* Compiles shader cK (K = k + 1) through cache c: whether its code came
   from the cache. Its entry's name goes to name where it is new. It waits
   30 ms first: a file's time moves in the kernel's clock ticks (a few ms),
   and a hit straight after a store would otherwise tie with it. */
static bool compile_through(NativeCache *c, int k, char *name)
{
    usleep(30000);
    char src[160], before[MAXENT][80], after[MAXENT][80];
    snprintf(src, sizeof src, "surface c%d(output varying float r = 0) { r = u * 2 + v; }", k + 1);
    int nbefore = entries(before);
    RslcCtx ctx = { 0 };
    IrModule *m = NULL;
    VmObject *o = run_compile(&ctx, src, 2, &m);
    ck_assert_ptr_nonnull(o);
    NativeOptions opt = { .level = 2, .isa = NATIVE_ISA_AUTO, .cache = c };
    NativeShader *ns = native_compile(&ctx, run_shader(m), o, &opt);
    ck_assert_msg(ns != NULL, "c%d: no native code", k + 1);
    bool hit = native_from_cache(ns);
    native_free(ns);
    vm_object_free(o);
    ir_module_free(m);
    rslc_ctx_free(&ctx);
    int nafter = entries(after);
    for (int i = 0; i < nafter; i++) {
        bool old = false;
        for (int j = 0; j < nbefore; j++)
            old |= !strcmp(after[i], before[j]);
        if (!old)
            memcpy(name, after[i], 80);
    }
    return hit;
}

static long long file_size(const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_int_eq(stat(path, &st), 0);
    return (long long)st.st_size;
}

START_TEST(least_recently_used_entries_go_past_the_limit)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char err[512], name[SHADERS][80] = { "" };
    NativeCache *c = native_cache_open(dir, err, sizeof err);
    ck_assert_msg(c != NULL, "%s", err);
    for (int k = 0; k < 3; k++)
        ck_assert(!compile_through(c, k, name[k]));
    long long size = file_size(name[0]);
    for (int k = 1; k < 3; k++)
        ck_assert_msg(file_size(name[k]) == size, "entries of %lld and %lld bytes: the test needs "
                      "equal ones", size, file_size(name[k]));
    /* c1 is used again: now c2 is the least recently used. */
    ck_assert(compile_through(c, 0, name[0]));
    native_cache_limit(c, 3 * (uint64_t)size);
    ck_assert(!compile_through(c, 3, name[3]));
    char names[MAXENT][80];
    ck_assert_int_eq(entries(names), 3);
    ck_assert_msg(!has_entry(name[1]), "c2, used least recently, is still there");
    ck_assert(has_entry(name[0]) && has_entry(name[2]) && has_entry(name[3]));
    /* c2 compiles again (a miss) and c3 goes, older than c1's hit. */
    ck_assert(!compile_through(c, 1, name[1]));
    ck_assert_int_eq(entries(names), 3);
    ck_assert_msg(!has_entry(name[2]), "c3, used least recently, is still there");
    ck_assert(has_entry(name[0]) && has_entry(name[1]) && has_entry(name[3]));
    /* A limit below one entry keeps the one just stored. */
    native_cache_limit(c, 1);
    ck_assert(!compile_through(c, 2, name[2]));
    ck_assert_int_eq(entries(names), 1);
    ck_assert(has_entry(name[2]));
    native_cache_close(c);
    ck_assert_int_eq(entries(names), 1);
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name[2]);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("native_cache");
    TCase *tc = tcase_create("bound");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, least_recently_used_entries_go_past_the_limit);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
