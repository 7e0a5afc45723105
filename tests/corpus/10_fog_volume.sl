/* 10_fog_volume: height-attenuated exponential fog volume with noisy density, using P, I, E and world-space transforms. */
volume heightfog(
    float density = 0.2;
    float falloff = 1.5;
    float baseheight = 0;
    float noisefreq = 0.5, noiseamp = 0.3;
    color fogcolor = color(0.7, 0.75, 0.8);)
{
    point Pw = transform("world", P);
    point Ew = transform("world", E);
    float raylen = length(I);
    float h = 0.5 * (ycomp(Pw) + ycomp(Ew)) - baseheight;
    float dens = density * exp(-falloff * max(h, 0));
    float n = float noise(Pw * noisefreq);
    float tau, fade;

    /* Thicker near the ground, lumpy everywhere. */
    dens *= 1 + noiseamp * (2 * n - 1);
    tau = max(dens, 0) * raylen;
    fade = 1 - exp(-tau);

    Ci = mix(Ci, fogcolor, fade);
    Oi = mix(Oi, color(1, 1, 1), fade);
}
