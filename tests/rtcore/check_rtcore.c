/*
** check_rtcore.c: runs the rtcore suites: kernels against brute force,
** watertightness, instances, the build, errors.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <stdlib.h>

int main(void)
{
    SRunner *sr = srunner_create(kernels_suite());
    srunner_add_suite(sr, watertight_suite());
    srunner_add_suite(sr, instance_suite());
    srunner_add_suite(sr, build_suite());
    srunner_add_suite(sr, errors_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
