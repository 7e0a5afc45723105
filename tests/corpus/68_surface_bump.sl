/* 68_surface_bump: bump mapping inside a surface shader, perturbing a local copy of P and rebuilding the normal with calculatenormal. */
surface bumpedplastic(
    float Ka = 1, Kd = 0.5, Ks = 0.5;
    float roughness = 0.1;
    float bumpscale = 0.02;
    float bumpfreq = 15;
    string bumpmap = "";)
{
    normal Nn = normalize(N);
    point PP = transform("shader", P) * bumpfreq;
    float height;
    point Pb;
    normal Nb, Nf;
    vector V = -normalize(I);

    if (bumpmap != "")
        height = float texture(bumpmap, s, t);
    else
        height = 0.5 * (float noise(PP)) + 0.25 * (float noise(PP * 2.2));

    /* Move a copy of P and differentiate it; the geometry is unchanged. */
    Pb = P + bumpscale * height * Nn;
    Nb = normalize(calculatenormal(Pb));
    /* Keep the bumped normal on the same side as the true one. */
    if ((Nb . Nn) < 0)
        Nb = -Nb;
    Nf = faceforward(Nb, I);

    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) +
               Ks * specular(Nf, V, roughness));
}
