/* 12_vignette: imager darkening pixels towards the frame corners, using raster P, alpha and option("Format"). */
imager vignette(
    float strength = 0.6;
    float roundness = 2;
    float inner = 0.4, outer = 1.1;
    color tint = color(0, 0, 0);)
{
    uniform float fmt[3] = {640, 480, 1};
    uniform float xres, yres;
    float x, y, r, fade;

    /* Fall back to the default resolution if the option is unknown. */
    if (option("Format", fmt) == 0) {
        fmt[0] = 640;
        fmt[1] = 480;
    }
    xres = fmt[0];
    yres = fmt[1];

    x = 2 * xcomp(P) / xres - 1;
    y = 2 * ycomp(P) / yres - 1;
    r = pow(pow(abs(x), roundness) + pow(abs(y), roundness), 1 / roundness);
    fade = strength * smoothstep(inner, outer, r);

    Ci = mix(Ci, tint * alpha, fade);
}
