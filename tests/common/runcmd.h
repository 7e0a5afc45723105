/*
** runcmd.h: running a program under test from a Check test and keeping
** what it printed, for the end-to-end tests of rslc and rslvm.
*/
#ifndef TESTS_RUNCMD_H
#define TESTS_RUNCMD_H

typedef struct Run {
    char *err;      /* what the program wrote to stderr */
    char *out;      /* what it wrote to stdout */
    int status;     /* exit status (128 if it did not exit) */
} Run;

#include <stdbool.h>

/* The whole file at path (malloc'd), or NULL if it cannot be read. */
char *slurp(const char *path);
/* Writes text to dir/name (asserting it could), and whether dir/name
   exists: a test's scratch folder of inputs and outputs. */
void write_in(const char *dir, const char *name, const char *text);
bool exists_in(const char *dir, const char *name);

/* Runs "PROGRAM ARGS" through the shell in directory cwd. */
Run run_program(const char *cwd, const char *program, const char *args);
/* The same with stdout on /dev/full (every write fails with ENOSPC), for
   the check that output lost is an error; r.out is then empty. */
Run run_to_full_disk(const char *cwd, const char *program, const char *args);
void run_free(Run *r);

#endif /* TESTS_RUNCMD_H */
