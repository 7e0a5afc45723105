/* 08_fbm_turbulence: fractal sum and turbulence as functions nested in the shader body, using extern parameters and early breaks. */
surface fractalnoise(
    float Ka = 1, Kd = 0.8;
    uniform float octaves = 8;
    float lacunarity = 2.0, gain = 0.5;
    float freq = 4;
    color lowcolor = color(0.1, 0.2, 0.5);
    color highcolor = color(1, 0.95, 0.8);)
{
    float fbm(point p)
    {
        extern float octaves;
        extern float lacunarity, gain;
        uniform float i, amp = 1;
        float sum = 0;
        point pp = p;

        for (i = 0; i < octaves; i += 1) {
            if (amp < 0.001)
                break;
            sum += amp * (2 * (float noise(pp)) - 1);
            amp *= gain;
            pp *= lacunarity;
        }
        return sum;
    }

    float turbulence(point p; float width)
    {
        extern float octaves;
        float i = 0, sum = 0, f = 1;
        float cutoff = 0.5 / max(width, 1e-6);

        while (i < octaves) {
            /* Stop before the octaves alias. */
            if (f > cutoff)
                break;
            sum += abs(float pnoise(p * f, point(32, 32, 32))) / f;
            f *= 2;
            i += 1;
        }
        return sum;
    }

    point PP = transform("shader", P) * freq;
    float w = sqrt(area(PP));
    float n = 0.5 + 0.5 * fbm(PP);
    float tb = turbulence(PP, w);
    normal Nf = faceforward(normalize(N), I);
    color Ct = mix(lowcolor, highcolor, clamp(n + 0.25 * tb, 0, 1));

    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(Nf));
}
