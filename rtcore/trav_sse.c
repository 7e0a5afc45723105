/*
** trav_sse.c: the SSE4.2 kernels: BVH4, 4-wide triangle blocks, packets of
** 4 lanes. Built with -msse4.2 into librtcore_sse42.a; the kernel code
** itself is the width-generic trav_single.h / trav_packet.h /
** trav_stream.h.
*/
#include "rtcore/simd/sse.h"
#include "rtcore/simd/packet_vf.h"
#include "rtcore/trav_stream.h"
#include "rtcore/dispatch.h"

const RtKernels rt_kernels_sse42 = {
    "sse4.2", VW, PW, intersect1, occluded1, intersectp, occludedp,
    occludedg
};
