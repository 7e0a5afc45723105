/* 59_oren_nayar: Oren-Nayar rough diffuse in a top-level function using extern P, L and Cl inside illuminance. */
color orennayar(normal Nn; vector V; float sigma)
{
    extern point P;
    float sigma2 = sigma * sigma;
    float A = 1 - 0.5 * sigma2 / (sigma2 + 0.33);
    float B = 0.45 * sigma2 / (sigma2 + 0.09);
    float cos_r = Nn . V;
    float theta_r = acos(clamp(cos_r, -1, 1));
    vector Vperp = normalize(V - Nn * cos_r);
    color C = 0;

    illuminance(P, Nn, PI / 2) {
        extern vector L;
        extern color Cl;
        vector Ln = normalize(L);
        float cos_i = Ln . Nn;
        float theta_i = acos(clamp(cos_i, -1, 1));
        float amax = max(theta_i, theta_r);
        float amin = min(theta_i, theta_r);
        vector Lperp = normalize(Ln - Nn * cos_i);
        float cosphi = max(0, Vperp . Lperp);

        C += Cl * cos_i * (A + B * cosphi * sin(amax) * tan(amin));
    }
    return C;
}

surface roughdiffuse(
    float Ka = 0.1, Kd = 0.9;
    float sigma = 0.4;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);

    Oi = Os;
    Ci = Os * Cs * (Ka * ambient() + Kd * orennayar(Nf, V, sigma));
}
