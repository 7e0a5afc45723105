/* 66_starfield: night-sky surface, stars placed per cell with cellnoise, sized and tinted per star, twinkling with time. */
surface starfield(
    float density = 400;
    float brightness = 1.5;
    float twinkle = 0.3;
    float starsize = 0.25;
    color skycolor = color(0.01, 0.01, 0.04);)
{
    float ss = s * sqrt(density), tt = t * sqrt(density);
    float cs = floor(ss), ct = floor(tt);
    point cellid = point(cs, ct, 0);
    point jitter = point cellnoise(cellid);
    float dx = (ss - cs) - xcomp(jitter);
    float dy = (tt - ct) - ycomp(jitter);
    float present = step(0.7, float cellnoise(cs + 17, ct + 31));
    float radius = starsize * (0.3 + 0.7 * zcomp(jitter));
    float core = 1 - smoothstep(0, radius, sqrt(dx * dx + dy * dy));
    float flicker = 1 + twinkle * (2 * (float noise(cs * 7.1, time * 4)) - 1);
    float hue = 0.55 + 0.15 * (float cellnoise(cellid + vector(5, 5, 5)));
    color starcolor = color "hsv" (hue, 0.25, 1);
    color grain = 0.01 * (color random());

    Oi = 1;
    Ci = skycolor + grain + present * core * core * flicker * brightness * starcolor;
}
