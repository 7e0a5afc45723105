/*
** rayfile.h: the rays file: 32 bytes a ray, little-endian float32
** ox oy oz dx dy dz tnear tfar, no header (see bench/README.md).
*/
#ifndef RTBENCH_RAYFILE_H
#define RTBENCH_RAYFILE_H

#include "bench/rtbench/rays.h"

/* Writes the rays of s to path. On failure returns false with
   "path: error: ..." in err. */
bool rays_write(const char *path, const RaySet *s, char *err, size_t errlen);
/* Reads path into s->rays and s->n (the caller names the set). On failure
   returns false with "path: error: ..." in err and s left empty. */
bool rays_read(const char *path, RaySet *s, char *err, size_t errlen);

#endif
