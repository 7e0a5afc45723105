/*
** triangulate.h: planar polygons with holes to triangles (triangulate.c).
*/
#ifndef RTCORE_RIB_TRIANGULATE_H
#define RTCORE_RIB_TRIANGULATE_H

#include <stdbool.h>
#include <stddef.h>

/* Polygons with more points than this (holes included) are fanned from
   their first point instead: ear clipping is quadratic. */
#define RIB_MAX_EARCLIP_POINTS 4096

/* Triangulates the polygon whose loops (the outer one first, then holes)
   hold loops[i] consecutive points of pts (x, y, z). Writes triangles as
   point indices into tris, which has room for n + 2 * (nloops - 1) - 2
   triangles (n points), wound like the outer loop, and returns how many.
   *fanned tells whether the size limit made it fan the outer loop. */
size_t rib_triangulate(const double *pts, const size_t *loops, size_t nloops,
                       size_t *tris, bool *fanned);

#endif /* RTCORE_RIB_TRIANGULATE_H */
