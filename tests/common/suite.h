/*
** suite.h: the end of every Check test program: run the suite, report,
** and exit with failure if any test failed.
*/
#ifndef TESTS_SUITE_H
#define TESTS_SUITE_H

#include <check.h>
#include <stdlib.h>

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* TESTS_SUITE_H */
