/*
** runcmd.c: running a program under test (runcmd.h).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runcmd.h"

char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* Runs the command with stdout to `stdout_to`, or to a file kept in
   r.out when NULL. */
static Run run_with(const char *cwd, const char *program, const char *args,
                    const char *stdout_to)
{
    char errpath[] = "/tmp/rsl-test-errXXXXXX";
    char outpath[] = "/tmp/rsl-test-outXXXXXX";
    int efd = mkstemp(errpath), ofd = mkstemp(outpath);
    ck_assert(efd >= 0 && ofd >= 0);
    close(efd);
    close(ofd);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>'%s'", cwd, program, args,
             stdout_to ? stdout_to : outpath, errpath);
    int rc = system(cmd);
    Run r;
    r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
    r.err = slurp(errpath);
    r.out = slurp(outpath);
    unlink(errpath);
    unlink(outpath);
    ck_assert_ptr_nonnull(r.err);
    ck_assert_ptr_nonnull(r.out);
    return r;
}

Run run_program(const char *cwd, const char *program, const char *args)
{
    return run_with(cwd, program, args, NULL);
}

Run run_to_full_disk(const char *cwd, const char *program, const char *args)
{
    return run_with(cwd, program, args, "/dev/full");
}

void run_free(Run *r)
{
    free(r->err);
    free(r->out);
}

void write_in(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

bool exists_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}
