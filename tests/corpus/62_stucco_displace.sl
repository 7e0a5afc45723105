/* 62_stucco_displace: stucco displacement, thresholded noise bumps in shader space scaled back to current space. */
displacement stucco(
    float Km = 0.03;
    float power = 5;
    float frequency = 10;
    float threshold = 0.55;
    output varying float amplitude = 0;)
{
    point PP = transform("shader", P) * frequency;
    float magnitude;
    normal Nn = normalize(N);
    normal Nshad = ntransform("shader", Nn);
    float scalefactor = length(Nshad);

    magnitude = pow(float noise(PP), power);
    magnitude = smoothstep(threshold, 1, 0.5 + magnitude);

    /* Published for the surface shader's displacement() query. */
    amplitude = Km * magnitude;

    P += Nn * (amplitude / max(scalefactor, 1e-6));
    N = calculatenormal(P);
}
