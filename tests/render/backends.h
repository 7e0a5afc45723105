/*
** backends.h: an image test's suite run on each shading backend, native
** code and then the VM, through the environment's RTRENDER_BACKEND, which
** render_settings_init and rtrender read; every test passes on both.
** check_scenes also compares the two backends' images.
*/
#ifndef RT_TESTS_RENDER_BACKENDS_H
#define RT_TESTS_RENDER_BACKENDS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/suite.h"

/* Runs the suite make() builds once per backend (a runner frees its
   suite). */
static inline int run_suite_on_backends(Suite *(*make)(void))
{
    static const char *const backends[] = { "native", "vm" };
    int rc = EXIT_SUCCESS;
    for (int i = 0; i < 2; i++) {
        setenv("RTRENDER_BACKEND", backends[i], 1);
        printf("shading on the %s backend\n", backends[i]);
        fflush(stdout);
        if (run_suite(make()) != EXIT_SUCCESS)
            rc = EXIT_FAILURE;
    }
    return rc;
}

#endif /* RT_TESTS_RENDER_BACKENDS_H */
