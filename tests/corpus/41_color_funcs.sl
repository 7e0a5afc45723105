/* 41_color_funcs: comp and setcomp on colours, ctransform to and between colour spaces, and the ncomps global. */
surface colorfuncs(
    float hueshift = 0.1;
    float satscale = 1.2;
    float Kd = 0.8;)
{
    color hsv = ctransform("hsv", Cs);
    color back;
    color lum = ctransform("rgb", "xyz", Cs);
    color viahsl = ctransform("hsl", "rgb", color(0.5, 0.5, 0.5));
    float h = comp(hsv, 0), sat = comp(hsv, 1), val = comp(hsv, 2);
    float i, total = 0;

    /* Rotate the hue and boost the saturation in HSV space. */
    h = mod(h + hueshift, 1);
    sat = clamp(sat * satscale, 0, 1);
    setcomp(hsv, 0, h);
    setcomp(hsv, 1, sat);
    setcomp(hsv, 2, val);
    back = ctransform("hsv", "rgb", hsv);

    /* Average every component, however many the renderer uses. */
    for (i = 0; i < ncomps; i += 1)
        total += comp(back, i);
    total /= ncomps;

    setcomp(back, 0, comp(back, 0) * (0.9 + 0.1 * total));

    Oi = Os;
    Ci = Os * (back + 0.05 * comp(lum, 1) + 0.05 * viahsl) * Kd *
         diffuse(faceforward(normalize(N), I));
}
