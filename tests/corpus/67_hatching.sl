/* 67_hatching: pen-and-ink hatching, illuminance restricted to a category named by a string parameter, cross-hatching in dark areas. */
surface hatching(
    float frequency = 60;
    float linewidth = 0.5;
    float crossthreshold = 0.35;
    string keycategory = "key";
    color ink = color(0.05, 0.05, 0.1);
    color paper = color(0.97, 0.95, 0.9);)
{
    normal Nf = faceforward(normalize(N), I);
    float lum = 0, hatch1, hatch2, ink1, ink2;
    float ss = s * frequency, tt = t * frequency;

    /* Only the key lights decide the tone. */
    illuminance(keycategory, P, Nf, PI / 2) {
        lum += (normalize(L) . Nf) * (comp(Cl, 0) + comp(Cl, 1) + comp(Cl, 2)) / 3;
    }
    lum = clamp(lum, 0, 1);

    /* Line thickness grows as the tone darkens. */
    hatch1 = abs(mod(ss + tt, 1) - 0.5) * 2;
    hatch2 = abs(mod(ss - tt, 1) - 0.5) * 2;
    ink1 = 1 - smoothstep(linewidth * (1 - lum), linewidth * (1 - lum) + 0.1, hatch1);
    ink2 = (lum < crossthreshold) ?
           1 - smoothstep(linewidth * (crossthreshold - lum), linewidth * (crossthreshold - lum) + 0.1, hatch2) :
           0;

    Oi = Os;
    Ci = Os * mix(paper, ink, max(ink1, ink2));
}
