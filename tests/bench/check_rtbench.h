/*
** check_rtbench.h: the pieces of the rtbench test program.
*/
#ifndef CHECK_RTBENCH_H
#define CHECK_RTBENCH_H

#include <check.h>
#include <stddef.h>

/* A path in the test's scratch directory (valid until the next call). */
const char *tmp_path(const char *name);
/* Writes len bytes to the scratch file name, gzip'd if gz; returns its path. */
const char *write_tmp(const char *name, const void *data, size_t len, bool gz);

TCase *ply_tcase(void);
TCase *rays_tcase(void);

#endif
