/* corpus_util.h: helper macros and functions shared by corpus shaders that #include it. */
#ifndef CORPUS_UTIL_H
#define CORPUS_UTIL_H

/* Rec. 601 luminance of a colour. */
#define CU_LUMINANCE(c) (0.299 * comp((c), 0) + 0.587 * comp((c), 1) + 0.114 * comp((c), 2))
#define CU_SQR(x) ((x) * (x))
/* 1 between a and b, 0 elsewhere. */
#define CU_PULSE(a, b, x) (step((a), (x)) - step((b), (x)))
#define CU_OCTAVES 4

/* Perlin's bias: remaps x in [0,1] so that 0.5 goes to b. */
float cu_bias(float b, x)
{
    return pow(x, log(b) / log(0.5));
}

/* Perlin's gain: an S-shaped bias around 0.5. */
float cu_gain(float g, x)
{
    float r;

    if (x < 0.5)
        r = cu_bias(1 - g, 2 * x) / 2;
    else
        r = 1 - cu_bias(1 - g, 2 - 2 * x) / 2;
    return r;
}

/* Signed fractional Brownian motion with a uniform octave count. */
float cu_fbm(point p; uniform float octaves)
{
    uniform float i;
    float sum = 0, amp = 1;
    point pp = p;

    for (i = 0; i < octaves; i += 1) {
        sum += amp * (2 * (float noise(pp)) - 1);
        amp *= 0.5;
        pp *= 2;
    }
    return sum;
}

#endif
