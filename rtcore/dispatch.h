/*
** dispatch.h: the table of kernels each ISA library exports, and the
** choice among them at run time (dispatch.c, by cpuid).
*/
#ifndef RTCORE_DISPATCH_H
#define RTCORE_DISPATCH_H

#include "rtcore/include/rtcore.h"
#include "rtcore/node.h"

enum { RT_GROUP_RAYS = 64 };      /* bits of a uint64_t ray mask */

typedef struct RtKernels {
    const char *isa;          /* "sse4.2", "avx2" or "avx512", as rtGetDeviceISA says */
    int width;                /* BVH width */
    int packet;               /* lanes of the packet kernel */
    void (*intersect1)(const RtBvh *, RTRayHit *);
    void (*occluded1)(const RtBvh *, RTRay *);
    /* Up to `packet` rays of a stream, picked by index: valid ones are
       traced, hits written back in place. */
    void (*intersectp)(const RtBvh *, const RTRayHitNp *, const uint32_t *idx, int n);
    void (*occludedp)(const RtBvh *, const RTRayNp *, const uint32_t *idx, int n);
    /* Up to RT_GROUP_RAYS rays of a stream, walking the tree together
       node by node (trav_stream.h). */
    void (*occludedg)(const RtBvh *, const RTRayNp *, const uint32_t *idx, int n);
} RtKernels;

extern const RtKernels rt_kernels_sse42;   /* librtcore_sse42.a */
extern const RtKernels rt_kernels_avx2;    /* librtcore_avx2.a */
extern const RtKernels rt_kernels_avx512;  /* librtcore_avx512.a */

/* The kernels for an "isa=" setting ("auto", "sse4.2", "avx2", "avx512"); NULL with
   *err set when the name is unknown or the CPU lacks the ISA. */
const RtKernels *rt_pick_kernels(const char *isa, RTError *err);

#endif
