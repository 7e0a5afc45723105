/* 71_iridescence: thin-film iridescence, hue driven by viewing angle and film thickness through color "hsv", weighted by fresnel. */
surface iridescent(
    float Ka = 0.05, Kd = 0.2, Ks = 0.8, Kr = 0.6;
    float roughness = 0.05;
    float thickness = 1;
    float thicknessnoise = 0.3;
    float eta = 1.4;)
{
    normal Nn = normalize(N);
    vector In = normalize(I);
    normal Nf = faceforward(Nn, In);
    vector V = -In;
    float cosv = abs(Nf . V);
    float film = thickness * (1 + thicknessnoise * (2 * (float noise(transform("object", P) * 5)) - 1));
    float hue = mod(film * (1 + cosv) * 1.7, 1);
    color filmcolor = color "hsv" (hue, 0.8, 1);
    float kr, kt;
    color Crefl = 0;

    fresnel(In, Nf, 1 / eta, kr, kt);
    if (Kr > 0)
        Crefl = trace(P, reflect(In, Nf));

    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) +
               filmcolor * (Ks * specular(Nf, V, roughness) + Kr * kr * Crefl));
}
