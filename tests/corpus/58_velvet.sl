/* 58_velvet: velvet with retroreflective backscatter and grazing-angle sheen accumulated in illuminance. */
surface velvet(
    float Ka = 0.05, Kd = 0.3, Ksheen = 0.8;
    float backscatter = 0.4, edginess = 6;
    float roughness = 0.1;
    color sheen = color(0.9, 0.6, 0.7);)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color shiny = 0;
    float cosine, sine;

    illuminance(P, Nf, PI / 2) {
        /* In a surface shader L points from P towards the light. */
        vector Ln = normalize(L);

        cosine = max(Ln . V, 0);
        shiny += pow(cosine, 1 / roughness) * backscatter * Cl * sheen;

        cosine = max(Nf . V, 0);
        sine = sqrt(1 - cosine * cosine);
        shiny += pow(sine, edginess) * (Ln . Nf) * Cl * sheen;
    }

    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + Ksheen * shiny);
}
