/* 06_toon: cel shading, quantised diffuse bands and a hard highlight accumulated in illuminance, plus an ink silhouette. */
surface toon(
    float Kd = 1, Ks = 0.6;
    uniform float bands = 3;
    float shininess = 40;
    float outline = 0.25;
    color inkcolor = 0;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    float lambert = 0, hilite = 0;
    float edge;
    color Ct;

    illuminance(P, Nf, PI / 2) {
        vector Ln = normalize(L);
        vector H = normalize(Ln + V);

        lambert += (Ln . Nf) * comp(Cl, 1);
        hilite = max(hilite, pow(max(0, Nf . H), shininess));
    }

    lambert = floor(clamp(lambert, 0, 0.999) * bands) / (bands - 1);
    hilite = step(0.5, hilite);
    edge = (abs(Nf . V) < outline) ? 1 : 0;

    Ct = Cs * Kd * lambert + Ks * hilite;
    Ct = mix(Ct, inkcolor, edge);
    Oi = Os;
    Ci = Os * Ct;
}
