/*
** suite.h: the end of every Check test program: run the suite, report,
** and exit with failure if any test failed; run_suite_in does so in a
** scratch folder made for the run and removed after it.
*/
#ifndef TESTS_SUITE_H
#define TESTS_SUITE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* run_suite with the folder dir made first (a mkdtemp template, filled
   in) and removed with what the tests left in it afterwards. */
static inline int run_suite_in(Suite *s, char *dir)
{
    if (!mkdtemp(dir)) {
        perror(dir);
        return EXIT_FAILURE;
    }
    int rc = run_suite(s);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}

#endif /* TESTS_SUITE_H */
