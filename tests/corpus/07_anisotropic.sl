/* 07_anisotropic: Ward anisotropic highlights along the dPdu brush direction, computed in a function using extern P, L and Cl. */
color ward_aniso(normal Nn; vector V; vector xdir; float xrough, yrough)
{
    extern point P;
    color C = 0;
    vector X = normalize(xdir);
    vector Y = normalize(Nn ^ X);
    float cos_r = max(Nn . V, 1e-4);

    illuminance(P, Nn, PI / 2) {
        extern vector L;
        extern color Cl;
        vector Ln = normalize(L);
        float cos_i = Ln . Nn;

        if (cos_i > 0) {
            vector H = normalize(V + Ln);
            float hx = (H . X) / xrough, hy = (H . Y) / yrough;
            float hn = H . Nn;
            float rho = exp(-2 * (hx * hx + hy * hy) / (1 + hn)) /
                        sqrt(cos_i * cos_r);

            C += Cl * cos_i * rho;
        }
    }
    return C / (4 * xrough * yrough);
}

surface brushedmetal(
    float Ka = 0.1, Kd = 0.2, Ks = 1;
    float uroughness = 0.3, vroughness = 0.05;
    color specularcolor = 1;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector brush = normalize(dPdu);

    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) +
               specularcolor * Ks * ward_aniso(Nf, V, brush, uroughness, vroughness));
}
