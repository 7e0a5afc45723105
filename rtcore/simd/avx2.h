/*
** simd/avx2.h: 8-wide float vectors on AVX2, under the names the
** width-generic kernels use (simd/sse.h gives the same names 4 wide).
** A kernel file includes exactly one of the simd/ ISA headers; each brings
** simd/v4.h for the 4-wide triangle blocks.
*/
#ifndef RTCORE_SIMD_AVX2_H
#define RTCORE_SIMD_AVX2_H

#include <immintrin.h>
#include "rtcore/simd/v4.h"

#define VW 8
typedef __m256 vf;      /* also the lane masks of comparisons */

static inline vf vf_set1(float x) { return _mm256_set1_ps(x); }
static inline vf vf_load(const float *p) { return _mm256_load_ps(p); }
static inline vf vf_loadu(const float *p) { return _mm256_loadu_ps(p); }
static inline void vf_store(float *p, vf a) { _mm256_store_ps(p, a); }
/* base[idx[i]] in lane i < n; the other lanes read base[0]. */
static inline vf vf_gather(const float *base, const uint32_t *idx, int n)
{
    __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane);
    return _mm256_i32gather_ps(base, _mm256_maskload_epi32((const int *)idx, m), 4);
}
static inline vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm256_div_ps(a, b); }
/* min/max return b when either operand is NaN: kernels pass the value
   that may be NaN first so that it drops out. */
static inline vf vf_min(vf a, vf b) { return _mm256_min_ps(a, b); }
static inline vf vf_max(vf a, vf b) { return _mm256_max_ps(a, b); }
static inline vf vf_lt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline vf vf_le(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline vf vf_ge(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline vf vf_eq(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline vf vf_ne(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
static inline vf vm_and(vf a, vf b) { return _mm256_and_ps(a, b); }
static inline vf vm_or(vf a, vf b) { return _mm256_or_ps(a, b); }
static inline int vm_bits(vf m) { return _mm256_movemask_ps(m); }
/* vm_bits(vf_le(a, b)) in one step where AVX-512VL compares into a mask
   register: the walk waits on these bits at every node. */
static inline int vf_le_bits(vf a, vf b)
{
#ifdef __AVX512VL__
    return _mm256_cmp_ps_mask(a, b, _CMP_LE_OQ);
#else
    return vm_bits(vf_le(a, b));
#endif
}
/* Lanes of m pick a, the others b. */
static inline vf vf_select(vf m, vf a, vf b) { return _mm256_blendv_ps(b, a, m); }
/* The mask whose lane i is set where bit i of bits is. */
static inline vf vm_from_bits(int bits)
{
    const __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    __m256i b = _mm256_and_si256(_mm256_set1_epi32(bits), sel);
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(b, sel));
}
static inline float vf_hmin(vf a)
{
    a = _mm256_min_ps(a, _mm256_permute2f128_ps(a, a, 1));
    a = _mm256_min_ps(a, _mm256_shuffle_ps(a, a, _MM_SHUFFLE(1, 0, 3, 2)));
    a = _mm256_min_ps(a, _mm256_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm256_cvtss_f32(a);
}

#endif
