/*
** simd/avx512.h: the AVX-512 kernels' vectors: BVH8 nodes tested with
** the 8-wide vf of simd/avx2.h (one ray meets 8 children; a 16-wide node
** would load twice the bytes for children most rays skip), and packets
** of 16 rays in __m512 with __mmask16 masks, under the names the packet
** kernel uses (trav_packet.h; simd/packet_vf.h gives them for the other
** ISAs).
*/
#ifndef RTCORE_SIMD_AVX512_H
#define RTCORE_SIMD_AVX512_H

#include "rtcore/simd/avx2.h"

#define PW 16
typedef __m512 vp;
typedef __mmask16 vpm;

static inline vp vp_set1(float x) { return _mm512_set1_ps(x); }
static inline vp vp_load(const float *p) { return _mm512_load_ps(p); }
static inline void vp_store(float *p, vp a) { _mm512_store_ps(p, a); }
static inline vp vp_add(vp a, vp b) { return _mm512_add_ps(a, b); }
static inline vp vp_sub(vp a, vp b) { return _mm512_sub_ps(a, b); }
static inline vp vp_mul(vp a, vp b) { return _mm512_mul_ps(a, b); }
static inline vp vp_div(vp a, vp b) { return _mm512_div_ps(a, b); }
/* As on SSE/AVX: b when either operand is NaN. */
static inline vp vp_min(vp a, vp b) { return _mm512_min_ps(a, b); }
static inline vp vp_max(vp a, vp b) { return _mm512_max_ps(a, b); }
static inline vpm vp_lt(vp a, vp b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline vpm vp_le(vp a, vp b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
static inline vpm vp_ge(vp a, vp b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
static inline vpm vp_eq(vp a, vp b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
static inline vpm vp_ne(vp a, vp b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
static inline vpm vpm_and(vpm a, vpm b) { return a & b; }
static inline vpm vpm_or(vpm a, vpm b) { return a | b; }
static inline int vpm_bits(vpm m) { return m; }
static inline vpm vpm_from_bits(int bits) { return (vpm)bits; }
/* Lanes of m pick a, the others b. */
static inline vp vp_select(vpm m, vp a, vp b) { return _mm512_mask_blend_ps(m, b, a); }
static inline float vp_hmin(vp a) { return _mm512_reduce_min_ps(a); }

#endif
