/* 34_filterstep: antialiased stripes with filterstep in its 2- and 3-argument forms, with and without "width" and "filter" options. */
surface stripes(
    float Kd = 0.8;
    float frequency = 10;
    float duty = 0.5;
    float blurwidth = 1.5;
    color stripecolor = color(0.1, 0.1, 0.4);)
{
    float ss = mod(s * frequency, 1);
    float tt = mod(t * frequency, 1);
    float dss = abs(Du(s * frequency) * du) + abs(Dv(s * frequency) * dv);
    float a, b, c, d, mask;

    /* Two-argument form: a step filtered over the shading area. */
    a = filterstep(duty, ss);

    /* Three-argument form: filtered over the interval [ss - dss, ss + dss]. */
    b = filterstep(duty, ss - dss, ss + dss);

    /* Options: widen the filter, choose its shape. */
    c = filterstep(duty, tt, "width", blurwidth);
    d = filterstep(duty, tt - 0.01, tt + 0.01, "width", blurwidth, "filter", "gaussian");

    mask = clamp(0.5 * (a + b) * 0.5 * (c + d), 0, 1);

    Oi = Os;
    Ci = Os * mix(Cs, stripecolor, mask) * Kd * diffuse(faceforward(normalize(N), I));
}
