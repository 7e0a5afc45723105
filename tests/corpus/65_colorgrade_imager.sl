/* 65_colorgrade_imager: imager colour grading, exposure, white balance, HSV saturation, gamma and a soft clip on Ci. */
imager colorgrade(
    float exposure = 0;
    color whitebalance = color(1, 1, 1);
    float saturation = 1.1;
    float gammaval = 2.2;
    float knee = 0.8;)
{
    uniform float gain = pow(2, exposure);
    color c = Ci * gain * whitebalance;
    color hsv;
    float r, g, b;

    /* Saturation in HSV space. */
    hsv = ctransform("hsv", c);
    setcomp(hsv, 1, clamp(comp(hsv, 1) * saturation, 0, 1));
    c = ctransform("hsv", "rgb", hsv);

    /* Soft-clip each channel above the knee. */
    r = comp(c, 0);
    g = comp(c, 1);
    b = comp(c, 2);
    r = (r > knee) ? knee + (1 - knee) * (1 - exp(-(r - knee) / (1 - knee))) : r;
    g = (g > knee) ? knee + (1 - knee) * (1 - exp(-(g - knee) / (1 - knee))) : g;
    b = (b > knee) ? knee + (1 - knee) * (1 - exp(-(b - knee) / (1 - knee))) : b;

    c = color(pow(max(r, 0), 1 / gammaval), pow(max(g, 0), 1 / gammaval),
              pow(max(b, 0), 1 / gammaval));
    Ci = clamp(c, color(0, 0, 0), color(1, 1, 1));
}
