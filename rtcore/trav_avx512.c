/*
** trav_avx512.c: the AVX-512 kernels: BVH8 with 8-wide node tests and
** 4-wide triangle blocks for single rays, packets of 16 lanes. Built with
** -mavx512f -mavx512vl -mavx512dq into librtcore_avx512.a; the kernel
** code itself is the width-generic trav_single.h / trav_packet.h /
** trav_stream.h.
*/
#include "rtcore/simd/avx512.h"
#include "rtcore/trav_stream.h"
#include "rtcore/dispatch.h"

const RtKernels rt_kernels_avx512 = {
    "avx512", VW, PW, intersect1, occluded1, intersectp, occludedp,
    occludedg
};
