/*
** ply.h: reading PLY triangle meshes (ascii, binary little and big endian,
** plain or gzip'd).
*/
#ifndef RTBENCH_PLY_H
#define RTBENCH_PLY_H

#include <stddef.h>

#include "bench/rtbench/mesh.h"

/* Loads path into *m, which must be empty (zeroed). Polygons are fan
   triangulated; faces of fewer than three vertices are dropped. On failure
   returns false, leaves *m empty and writes "path: error: ..." to err. */
bool ply_load(const char *path, Mesh *m, char *err, size_t errlen);

#endif
