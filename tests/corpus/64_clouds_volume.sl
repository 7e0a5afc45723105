/* 64_clouds_volume: ray-marched cloud volume, stepping from the eye along I with a while loop and early exit when opaque. */
volume cloudmarch(
    float density = 1;
    float stepsize = 0.1;
    float freq = 0.8;
    float coverage = 0.45;
    uniform float maxsteps = 100;
    color cloudcolor = color(0.95, 0.95, 1);)
{
    vector dir = normalize(I);
    float raylen = length(I);
    point Pstart = P - I;
    float dist = 0.5 * stepsize * (float cellnoise(P * 100));
    float steps = 0;
    float trans = 1, dens;
    color scattered = 0;
    point Psample;

    while (dist < raylen && steps < maxsteps) {
        Psample = transform("shader", Pstart + dist * dir);
        dens = float noise(Psample * freq) + 0.5 * (float noise(Psample * freq * 2.03));
        dens = density * smoothstep(coverage, coverage + 0.3, dens / 1.5);
        if (dens > 0) {
            float absorb = exp(-dens * stepsize);

            scattered += trans * (1 - absorb) * cloudcolor;
            trans *= absorb;
            if (trans < 0.01)
                break;
        }
        dist += stepsize;
        steps += 1;
    }

    Ci = scattered + trans * Ci;
    Oi = (1 - trans) + trans * Oi;
}
