/*
** trav1.h: the scalar reference traversal, the oracle the tests hold the
** SIMD kernels to on the same tree.
*/
#ifndef RTCORE_TRAV1_H
#define RTCORE_TRAV1_H

#include "rtcore/include/rtcore.h"

/* As rtIntersect1 / rtOccluded1, one box and one triangle at a time. */
void rt_trav1_intersect(RTScene scene, RTRayHit *rh);
void rt_trav1_occluded(RTScene scene, RTRay *ray);

#endif
