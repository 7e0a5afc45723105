/* 70_dented: dented-metal displacement from clamped turbulence, octave loop cut off by the filter width with break. */
displacement dented(
    float Km = 1;
    float power = 3;
    float frequency = 1;
    uniform float maxoctaves = 6;)
{
    point PP = transform("shader", P) * frequency;
    float size = 1, magnitude = 0, i;
    float fw = sqrt(area(PP));
    normal Nn = normalize(N);

    for (i = 0; i < maxoctaves; i += 1) {
        /* Octaves finer than the shading rate would only alias. */
        if (size * fw > 0.5)
            break;
        magnitude += abs(0.5 - (float noise(PP * (1 / size)))) * size;
        size *= 0.5;
    }
    magnitude = pow(magnitude, power);

    P -= Km * magnitude * Nn;
    N = calculatenormal(P);
}
