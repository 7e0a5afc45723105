/*
** simd/sse.h: 4-wide float vectors on SSE4.2, under the names the
** width-generic kernels use (simd/avx2.h gives the same names 8 wide).
** At this width they are the block vectors of simd/v4.h. A kernel file
** includes exactly one of the simd/ ISA headers.
*/
#ifndef RTCORE_SIMD_SSE_H
#define RTCORE_SIMD_SSE_H

#include "rtcore/simd/v4.h"

#define VW 4
typedef v4 vf;

#define vf_set1 v4_set1
#define vf_load v4_load
#define vf_loadu v4_loadu
#define vf_gather v4_gather
#define vf_store v4_store
#define vf_add v4_add
#define vf_sub v4_sub
#define vf_mul v4_mul
#define vf_div v4_div
#define vf_min v4_min
#define vf_max v4_max
#define vf_lt v4_lt
#define vf_le v4_le
#define vf_ge v4_ge
#define vf_eq v4_eq
#define vf_ne v4_ne
#define vm_and v4_and
#define vm_or v4_or
#define vm_bits v4_bits
#define vf_le_bits(a, b) v4_bits(v4_le(a, b))
#define vf_select v4_select
#define vm_from_bits v4_from_bits
#define vf_hmin v4_hmin

#endif
