/* 21_illuminance_forms: the three illuminance forms (all lights, a cone about Nf, a light category) with lightsource() queries. */
surface illumforms(
    float Ka = 0.05, Kd = 0.7, Ks = 0.3, Krim = 0.5;
    float roughness = 0.2;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color Call = 0, Chemi = 0, Crim = 0, Cspec = 0;
    float nonspec;

    /* Every light, whatever its direction. */
    illuminance(P) {
        Call += Cl;
    }

    /* Lights in the hemisphere around Nf. */
    illuminance(P, Nf, PI / 2) {
        vector Ln = normalize(L);

        nonspec = 0;
        lightsource("__nonspecular", nonspec);
        Chemi += Cl * (Ln . Nf);
        if (nonspec < 1)
            Cspec += (1 - nonspec) * Cl * specularbrdf(Ln, Nf, V, roughness);
    }

    /* Only lights whose __category names "rim", from any direction. */
    illuminance("rim", P, Nf, PI) {
        Crim += Cl * pow(1 - abs(Nf . V), 3);
    }

    Oi = Os;
    Ci = Os * (Cs * (Ka * Call + Kd * Chemi) + Ks * Cspec + Krim * Crim);
}
