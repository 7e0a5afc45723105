/* 03_brick: running-bond brick and mortar in s/t with floor, mod, filterstep (2 and 3 argument forms) and cellnoise tinting. */
surface brick(
    float Ka = 1, Kd = .9;
    float brickwidth = .25, brickheight = .08;
    float mortarthickness = .01;
    color brickcolor = color(0.5, 0.15, 0.14);
    color mortarcolor = color(0.5, 0.5, 0.5);)
{
    uniform float bmwidth = brickwidth + mortarthickness;
    uniform float bmheight = brickheight + mortarthickness;
    uniform float mwf = mortarthickness * 0.5 / bmwidth;
    uniform float mhf = mortarthickness * 0.5 / bmheight;
    float ss, tt, sbrick, tbrick, w, h, twidth, tint;
    normal Nf = faceforward(normalize(N), I);
    color Ct;

    ss = s / bmwidth;
    tt = t / bmheight;

    /* Shift every other row by half a brick. */
    if (mod(tt * 0.5, 1) > 0.5)
        ss += 0.5;
    sbrick = floor(ss);
    tbrick = floor(tt);
    ss -= sbrick;
    tt -= tbrick;

    /* Antialiased mortar lines. */
    twidth = abs(Du(tt) * du) + abs(Dv(tt) * dv);
    w = filterstep(mwf, ss, "width", 1) - filterstep(1 - mwf, ss);
    h = filterstep(mhf, tt - 0.5 * twidth, tt + 0.5 * twidth) -
        filterstep(1 - mhf, tt - 0.5 * twidth, tt + 0.5 * twidth);

    /* Each brick gets its own shade. */
    tint = 0.8 + 0.4 * (float cellnoise(sbrick + 0.5, tbrick + 0.5));
    Ct = mix(mortarcolor, brickcolor * tint, w * h);

    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(Nf));
}
