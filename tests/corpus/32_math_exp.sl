/* 32_math_exp: pow exp sqrt inversesqrt, log with one and two arguments, mod abs sign floor ceil round. */
surface expmath(float base = 10; float period = 0.2;)
{
    float x = s * 4 + 0.01, y = t * 4 - 2;
    float p1 = pow(x, 1.5);
    float e1 = exp(-x);
    float r1 = sqrt(x);
    float r2 = inversesqrt(x);
    float l1 = log(x);
    float l2 = log(x, base);
    float m1 = mod(x, period);
    float a1 = abs(y);
    float g1 = sign(y);
    float f1 = floor(x), c1 = ceil(x), o1 = round(x);
    float pattern;

    /* Everything lands roughly in [0,1]. */
    pattern = 0.1 * p1 / 8 + 0.1 * e1 + 0.1 * r1 / 2 + 0.05 * r2;
    pattern += 0.05 * (l1 + l2) + m1 / period * 0.2;
    pattern += 0.05 * a1 + 0.05 * g1;
    pattern += 0.02 * (f1 + c1 + o1);

    Oi = Os;
    Ci = Os * Cs * clamp(pattern, 0, 1) * diffuse(faceforward(normalize(N), I));
}
