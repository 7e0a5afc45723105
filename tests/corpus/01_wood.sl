/* 01_wood: procedural wood, noise-perturbed rings in shader space with grain and plastic-style lighting. */
surface wood(
    float Ka = 1, Kd = .75, Ks = .3, roughness = .15;
    float ringscale = 12;
    float grainy = 0.6;
    float swirl = 0.3;
    color lightwood = color(0.69, 0.44, 0.25);
    color darkwood = color(0.35, 0.22, 0.08);)
{
    point PP = transform("shader", P);
    point PQ, PG;
    float r, grain;
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color Ct;

    /* Perturb the lookup point so that the rings wander. */
    PQ = PP + swirl * (vector noise(PP * 2));
    r = sqrt(xcomp(PQ) * xcomp(PQ) + ycomp(PQ) * ycomp(PQ)) * ringscale;
    r += abs(float noise(r));
    r = mod(r, 1);
    r = smoothstep(0, 0.8, r) - smoothstep(0.83, 1.0, r);

    /* Fine grain, stretched along the trunk axis. */
    PG = point(xcomp(PP) * 4, ycomp(PP) * 4, zcomp(PP) * 40);
    grain = float noise(PG);
    grain = mix(1, pow(grain, 0.4), grainy);

    Ct = mix(lightwood, darkwood, r) * grain;
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) +
               Ks * (1 - 0.5 * r) * specular(Nf, V, roughness));
}
