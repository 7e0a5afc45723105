/*
** simd/sse.h: 4-wide float vectors on SSE4.2, under the names the
** width-generic kernels use (simd/avx2.h gives the same names 8 wide).
** A kernel file includes exactly one of the two.
*/
#ifndef RTCORE_SIMD_SSE_H
#define RTCORE_SIMD_SSE_H

#include <smmintrin.h>

#define VW 4
typedef __m128 vf;      /* also the lane masks of comparisons */

static inline vf vf_set1(float x) { return _mm_set1_ps(x); }
static inline vf vf_load(const float *p) { return _mm_load_ps(p); }
static inline vf vf_loadu(const float *p) { return _mm_loadu_ps(p); }
static inline void vf_store(float *p, vf a) { _mm_store_ps(p, a); }
static inline vf vf_add(vf a, vf b) { return _mm_add_ps(a, b); }
static inline vf vf_sub(vf a, vf b) { return _mm_sub_ps(a, b); }
static inline vf vf_mul(vf a, vf b) { return _mm_mul_ps(a, b); }
static inline vf vf_div(vf a, vf b) { return _mm_div_ps(a, b); }
/* min/max return b when either operand is NaN: kernels pass the value
   that may be NaN first so that it drops out. */
static inline vf vf_min(vf a, vf b) { return _mm_min_ps(a, b); }
static inline vf vf_max(vf a, vf b) { return _mm_max_ps(a, b); }
static inline vf vf_le(vf a, vf b) { return _mm_cmple_ps(a, b); }
static inline vf vf_ge(vf a, vf b) { return _mm_cmpge_ps(a, b); }
static inline vf vf_eq(vf a, vf b) { return _mm_cmpeq_ps(a, b); }
static inline vf vf_ne(vf a, vf b) { return _mm_cmpneq_ps(a, b); }
static inline vf vm_and(vf a, vf b) { return _mm_and_ps(a, b); }
static inline vf vm_or(vf a, vf b) { return _mm_or_ps(a, b); }
static inline int vm_bits(vf m) { return _mm_movemask_ps(m); }
/* Lanes of m pick a, the others b. */
static inline vf vf_select(vf m, vf a, vf b) { return _mm_blendv_ps(b, a, m); }
/* The mask whose lane i is set where bit i of bits is. */
static inline vf vm_from_bits(int bits)
{
    const __m128i sel = _mm_setr_epi32(1, 2, 4, 8);
    __m128i b = _mm_and_si128(_mm_set1_epi32(bits), sel);
    return _mm_castsi128_ps(_mm_cmpeq_epi32(b, sel));
}
static inline float vf_hmin(vf a)
{
    a = _mm_min_ps(a, _mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 0, 3, 2)));
    a = _mm_min_ps(a, _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtss_f32(a);
}

#endif
