/*
** check_rtcore.c: runs the rtcore suites: kernels against brute force,
** watertightness, instances, the build, errors, and the triangle test
** and kernels against an independent double-precision oracle, for every ISA the CPU
** has. When it lacks one, a run with no failure exits 77 (Automake's
** SKIP) naming it: those kernels were not tested, so it must not pass.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    SRunner *sr = srunner_create(kernels_suite());
    srunner_add_suite(sr, watertight_suite());
    srunner_add_suite(sr, instance_suite());
    srunner_add_suite(sr, build_suite());
    srunner_add_suite(sr, errors_suite());
    srunner_add_suite(sr, oracle_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (failed)
        return EXIT_FAILURE;
    if (test_isas_missing()) {
        const char *cfg[TEST_ISAS];
        int n = test_isas(cfg);
        printf("SKIP: %d of %d ISAs' kernels untested on this CPU; tested:", TEST_ISAS - n,
               TEST_ISAS);
        for (int i = 0; i < n; i++)
            printf(" %s", cfg[i]);
        printf("\n");
        return 77;
    }
    return EXIT_SUCCESS;
}
