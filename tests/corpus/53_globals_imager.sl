/* 53_globals_imager: reads the imager globals (P Ci Oi alpha ncomps time dtime) and writes Ci, Oi and alpha. */
imager imagerglobals(
    float grain = 0.02;
    float scanlines = 0;
    color matte = color(0.1, 0.1, 0.1);)
{
    point raster = P;
    color pixel = Ci;
    color pixelop = Oi;
    float coverage = alpha;
    uniform float nc = ncomps;
    uniform float seed = time + dtime;
    float x = xcomp(raster), y = ycomp(raster);
    float noiseval;

    /* Film grain that changes every frame, and optional scan lines. */
    noiseval = grain * (2 * (float cellnoise(x, y + 1000 * seed)) - 1);
    pixel += noiseval;
    if (scanlines > 0 && mod(floor(y), 2) == 1)
        pixel *= 1 - scanlines;

    /* Put the matte colour behind uncovered pixels. */
    Ci = pixel + (1 - coverage) * matte * (nc / 3);
    Oi = pixelop + (1 - coverage) * (1 - pixelop);
    alpha = 1;
}
