/* 43_shading_funcs: ambient, diffuse, specular, specularbrdf inside illuminance, phong and trace for a mirror term. */
surface shadingfuncs(
    float Ka = 0.1, Kd = 0.5, Ks = 0.3, Kp = 0.2, Kr = 0.2;
    float roughness = 0.1;
    float phongsize = 30;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color amb = ambient();
    color dif = diffuse(Nf);
    color spc = specular(Nf, V, roughness);
    color phg = phong(Nf, V, phongsize);
    color brdf = 0;
    color mirror = 0;

    /* specularbrdf evaluates a single light's contribution. */
    illuminance(P, Nf, PI / 2) {
        brdf += Cl * specularbrdf(normalize(L), Nf, V, roughness);
    }

    if (Kr > 0)
        mirror = trace(P, reflect(I, Nf));

    Oi = Os;
    Ci = Os * (Cs * (Ka * amb + Kd * dif) +
               Ks * 0.5 * (spc + brdf) + Kp * phg + Kr * mirror);
}
