/* 60_cloth_weave: plain-weave cloth, alternating warp and weft threads with rounded profiles and fibre noise. */
surface weave(
    float Ka = 0.1, Kd = 0.8, Ks = 0.15;
    float roughness = 0.3;
    float frequency = 40;
    float threadwidth = 0.8;
    color warpcolor = color(0.2, 0.25, 0.6);
    color weftcolor = color(0.75, 0.7, 0.55);)
{
    float ss = s * frequency, tt = t * frequency;
    float si = floor(ss), ti = floor(tt);
    float sf = ss - si, tf = tt - ti;
    float warpontop = mod(si + ti, 2);
    float warpprofile = sin(PI * clamp((sf - 0.5 * (1 - threadwidth)) / threadwidth, 0, 1));
    float weftprofile = sin(PI * clamp((tf - 0.5 * (1 - threadwidth)) / threadwidth, 0, 1));
    float fibres = 0.85 + 0.15 * (float noise(ss * 8, tt * 0.5));
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color Ct;
    float shade;

    if (warpontop > 0.5) {
        Ct = warpcolor;
        shade = warpprofile;
    } else {
        Ct = weftcolor;
        shade = weftprofile;
    }
    /* Gaps between threads show darker. */
    shade = 0.3 + 0.7 * shade * fibres;

    Oi = Os;
    Ci = Os * (Ct * shade * (Ka * ambient() + Kd * diffuse(Nf)) +
               Ks * shade * specular(Nf, V, roughness));
}
