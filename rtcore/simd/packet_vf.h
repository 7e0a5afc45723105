/*
** simd/packet_vf.h: packets as wide as the nodes. The packet kernel
** (trav_packet.h) works on vp lanes and vpm masks; an ISA whose packets
** have its node width VW (SSE4.2: 4, AVX2: 8) includes this after its
** simd/ header to make them its vf vectors. AVX-512 has its own
** (simd/avx512.h: packets of 16 under BVH8).
*/
#ifndef RTCORE_SIMD_PACKET_VF_H
#define RTCORE_SIMD_PACKET_VF_H

#define PW VW
typedef vf vp;
typedef vf vpm;       /* comparisons give vector masks */

#define vp_set1 vf_set1
#define vp_load vf_load
#define vp_store vf_store
#define vp_add vf_add
#define vp_sub vf_sub
#define vp_mul vf_mul
#define vp_div vf_div
#define vp_min vf_min
#define vp_max vf_max
#define vp_lt vf_lt
#define vp_le vf_le
#define vp_ge vf_ge
#define vp_eq vf_eq
#define vp_ne vf_ne
#define vpm_and vm_and
#define vpm_or vm_or
#define vpm_bits vm_bits
#define vpm_from_bits vm_from_bits
#define vp_select vf_select
#define vp_hmin vf_hmin

#endif
