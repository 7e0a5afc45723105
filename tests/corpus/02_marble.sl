/* 02_marble: veined marble from an absolute-noise turbulence loop and a colour spline without a basis name. */
surface marble(
    float Ka = 1, Kd = .8, Ks = .4, roughness = .08;
    float veinfreq = 2;
    uniform float octaves = 6;
    color basecolor = color(0.92, 0.91, 0.88);
    color veincolor = color(0.25, 0.28, 0.35);)
{
    point PS = transform("shader", P);
    point PP = PS * veinfreq;
    float turb = 0, amp = 1;
    uniform float i;
    float x;
    color Ct;
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);

    for (i = 0; i < octaves; i += 1) {
        turb += amp * abs(2 * (float noise(PP)) - 1);
        amp *= 0.5;
        PP *= 2.0;
    }

    /* Sine bands across x, warped by the turbulence. */
    x = 0.5 + 0.5 * sin((xcomp(PS) + turb) * PI);
    Ct = spline(x,
                basecolor, basecolor,
                mix(basecolor, veincolor, 0.3),
                basecolor,
                mix(basecolor, veincolor, 0.7),
                veincolor, veincolor);

    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) +
               Ks * specular(Nf, V, roughness));
}
