/* 63_granite: granite from several octaves of cellnoise speckles and smooth noise, summed in a uniform-counter loop. */
surface granite(
    float Ka = 0.1, Kd = 0.8, Ks = 0.3;
    float roughness = 0.08;
    float grainsize = 0.02;
    color feldspar = color(0.78, 0.72, 0.7);
    color quartz = color(0.9, 0.9, 0.88);
    color mica = color(0.1, 0.1, 0.12);)
{
    point PP = transform("shader", P) / grainsize;
    float speck = 0, smooth = 0, scalef = 1;
    uniform float i;
    float dark, pale;
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color Ct;

    for (i = 0; i < 4; i += 1) {
        speck += (float cellnoise(PP * scalef)) / (i + 1);
        smooth += (float noise(PP * scalef * 0.25)) / (i + 1);
        scalef *= 1.9;
    }
    speck /= 2.083;
    smooth /= 2.083;

    dark = step(0.72, speck);
    pale = smoothstep(0.35, 0.45, smooth) * (1 - dark);
    Ct = mix(feldspar, quartz, pale);
    Ct = mix(Ct, mica, dark);

    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) +
               Ks * (0.5 + dark) * specular(Nf, V, roughness));
}
