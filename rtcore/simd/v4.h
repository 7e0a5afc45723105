/*
** simd/v4.h: 4-wide float vectors for the triangle blocks, which are 4
** wide at every node width (node.h). Every simd/ header includes it, so a
** kernel tests a block with these whatever its VW is; built with -mavx2
** or -mavx512f the same intrinsics come out VEX-encoded.
*/
#ifndef RTCORE_SIMD_V4_H
#define RTCORE_SIMD_V4_H

#include <smmintrin.h>

typedef __m128 v4;      /* also the lane masks of comparisons */

static inline v4 v4_set1(float x) { return _mm_set1_ps(x); }
static inline v4 v4_load(const float *p) { return _mm_load_ps(p); }
static inline v4 v4_loadu(const float *p) { return _mm_loadu_ps(p); }
static inline void v4_store(float *p, v4 a) { _mm_store_ps(p, a); }
static inline v4 v4_add(v4 a, v4 b) { return _mm_add_ps(a, b); }
static inline v4 v4_sub(v4 a, v4 b) { return _mm_sub_ps(a, b); }
static inline v4 v4_mul(v4 a, v4 b) { return _mm_mul_ps(a, b); }
static inline v4 v4_div(v4 a, v4 b) { return _mm_div_ps(a, b); }
/* min/max return b when either operand is NaN: kernels pass the value
   that may be NaN first so that it drops out. */
static inline v4 v4_min(v4 a, v4 b) { return _mm_min_ps(a, b); }
static inline v4 v4_max(v4 a, v4 b) { return _mm_max_ps(a, b); }
static inline v4 v4_lt(v4 a, v4 b) { return _mm_cmplt_ps(a, b); }
static inline v4 v4_le(v4 a, v4 b) { return _mm_cmple_ps(a, b); }
static inline v4 v4_ge(v4 a, v4 b) { return _mm_cmpge_ps(a, b); }
static inline v4 v4_eq(v4 a, v4 b) { return _mm_cmpeq_ps(a, b); }
static inline v4 v4_ne(v4 a, v4 b) { return _mm_cmpneq_ps(a, b); }
static inline v4 v4_and(v4 a, v4 b) { return _mm_and_ps(a, b); }
static inline v4 v4_or(v4 a, v4 b) { return _mm_or_ps(a, b); }
static inline int v4_bits(v4 m) { return _mm_movemask_ps(m); }
/* Lanes of m pick a, the others b. */
static inline v4 v4_select(v4 m, v4 a, v4 b) { return _mm_blendv_ps(b, a, m); }
/* The mask whose lane i is set where bit i of bits is. */
static inline v4 v4_from_bits(int bits)
{
    const __m128i sel = _mm_setr_epi32(1, 2, 4, 8);
    __m128i b = _mm_and_si128(_mm_set1_epi32(bits), sel);
    return _mm_castsi128_ps(_mm_cmpeq_epi32(b, sel));
}
static inline float v4_hmin(v4 a)
{
    a = _mm_min_ps(a, _mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 0, 3, 2)));
    a = _mm_min_ps(a, _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtss_f32(a);
}

#endif
