/*
** procedural.h: a built-in test scene, so rtbench runs without mesh files.
*/
#ifndef RTBENCH_PROCEDURAL_H
#define RTBENCH_PROCEDURAL_H

#include "bench/rtbench/mesh.h"

/* Fills the empty *m with a ground quad under a field of n x n tessellated
   spheres of varying size (about 4,000 triangles each). False when out of
   memory. */
bool procedural_spheres(Mesh *m, int n);

#endif
