/* 55_include_macros2: second corpus_util.h user: multi-line and stringizing macros, #if defined, #elif, #undef and bias/gain helpers. */
#include "corpus_util.h"

#define QUALITY 2
#define NAMEOF(x) #x
#define LAYER(res, col, amt) \
    res = mix(res, col, clamp(amt, 0, 1))

#if defined(QUALITY) && QUALITY > 1
#define SAMPLES 8
#elif defined(QUALITY)
#define SAMPLES 4
#else
#define SAMPLES 1
#endif

#define TEMP_SCALE 3
#undef TEMP_SCALE
#ifdef TEMP_SCALE
#error "TEMP_SCALE should have been undefined"
#endif

surface macros2(
    float Kd = 0.8;
    float contrast = 0.7;
    color stain = color(0.4, 0.3, 0.2);
    float verbose = 0;)
{
    color Ct = Cs;
    float acc = 0, k;
    point PP = transform("shader", P);

    for (k = 0; k < SAMPLES; k += 1)
        acc += CU_SQR(float noise(PP * (k + 1))) / SAMPLES;

    acc = cu_bias(contrast, clamp(acc, 0.001, 0.999));
    LAYER(Ct, stain, acc);
    LAYER(Ct, Ct * 0.5, CU_PULSE(0.45, 0.55, t));

    if (verbose > 0)
        printf("%s %f\n", NAMEOF(macros2), acc);

    Oi = Os;
    Ci = Os * Ct * Kd * diffuse(faceforward(normalize(N), I));
}
