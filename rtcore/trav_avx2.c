/*
** trav_avx2.c: the AVX2 kernels: BVH8, 8-wide triangle blocks, packets of
** 8 lanes. Built with -mavx2 -mfma into librtcore_avx2.a; the kernel code
** itself is the width-generic trav_single.h / trav_packet.h /
** trav_stream.h.
*/
#include "rtcore/simd/avx2.h"
#include "rtcore/simd/packet_vf.h"
#include "rtcore/trav_stream.h"
#include "rtcore/dispatch.h"

const RtKernels rt_kernels_avx2 = {
    "avx2", VW, PW, intersect1, occluded1, intersectp, occludedp,
    occludedg
};
