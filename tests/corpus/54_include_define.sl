/* 54_include_define: #include "corpus_util.h", object-like and function-like #define macros, #ifdef, #ifndef, #if and #else. */
#include "corpus_util.h"

#define RINGS 6
#define BLEND(a, b, x) ((a) + ((b) - (a)) * (x))
#define USE_FBM

#ifndef DEBUG_LEVEL
#define DEBUG_LEVEL 0
#endif

surface includedefine(
    float Kd = 0.8;
    float freq = 4;
    color c1 = color(0.9, 0.8, 0.6);
    color c2 = color(0.3, 0.2, 0.1);)
{
    point PP = transform("shader", P) * freq;
    float pattern;
    color Ct;

#ifdef USE_FBM
    pattern = 0.5 + 0.5 * cu_fbm(PP, CU_OCTAVES);
#else
    pattern = float noise(PP);
#endif

    pattern = cu_gain(0.7, clamp(pattern, 0.001, 0.999));
    pattern = BLEND(pattern, CU_PULSE(0.4, 0.6, mod(pattern * RINGS, 1)), 0.5);

#if DEBUG_LEVEL > 0
    printf("pattern %f\n", pattern);
#endif

    Ct = BLEND(c1, c2, pattern);
    Ct *= 0.5 + 0.5 * CU_LUMINANCE(Cs);

    Oi = Os;
    Ci = Os * Ct * Kd * diffuse(faceforward(normalize(N), I));
}
