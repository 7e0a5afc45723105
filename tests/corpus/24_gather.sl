/* 24_gather: ray-traced occlusion and colour bleeding with gather(), "surface:Ci" and "ray:length" outputs, with and without else. */
surface gatherao(
    float Kd = 0.8;
    float samples = 32;
    float maxangle = radians(85);
    float bleed = 0.5;
    color envcolor = color(0.8, 0.85, 1.0);)
{
    normal Nf = faceforward(normalize(N), I);
    vector R = reflect(I, Nf);
    color hitc = 0, bounce = 0, sky = 0, glossy = 0;
    float hitdist = 0, hits = 0, misses = 0, glossyhits = 0;
    float total, occl;

    gather("illuminance", P, Nf, maxangle, samples,
           "surface:Ci", hitc, "ray:length", hitdist) {
        hits += 1;
        bounce += hitc / (1 + hitdist * hitdist);
    } else {
        misses += 1;
        sky += envcolor;
    }

    /* A narrow glossy lobe; a single statement as the body and no else. */
    gather("illuminance", P, R, radians(5), 4, "surface:Ci", hitc)
        glossy += hitc;
    glossyhits = 4;

    total = max(hits + misses, 1);
    occl = hits / total;
    Oi = Os;
    Ci = Os * Cs * (Kd * diffuse(Nf) * (1 - occl) + (sky + bleed * bounce) / total) +
         0.1 * glossy / glossyhits;
}
