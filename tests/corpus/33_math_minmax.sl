/* 33_math_minmax: min and max with two and more arguments on floats, colours and points; clamp, mix, step and smoothstep. */
surface minmax(
    float lo = 0.2, hi = 0.8;
    color cA = color(1, 0.2, 0.1), cB = color(0.1, 0.3, 1);)
{
    float a = s, b = t, c = 1 - s, d = u * v;
    float mn2 = min(a, b), mx2 = max(a, b);
    float mn4 = min(a, b, c, d), mx3 = max(a, b, c);
    color cmin = min(cA, cB, Cs), cmax = max(cA, cB);
    point pmin = min(P, point(0, 0, 0)), pmax = max(P, point(1, 1, 1), point(-1, -1, -1));
    float cl = clamp(a, lo, hi);
    color ccl = clamp(Cs, color(0.1, 0.1, 0.1), color(0.9, 0.9, 0.9));
    float fm = mix(a, b, 0.5);
    color cm = mix(cA, cB, smoothstep(lo, hi, a));
    point pm = mix(pmin, pmax, 0.5);
    float st = step(0.5, b);
    float ss = smoothstep(lo, hi, b);
    float pattern;

    pattern = 0.2 * (mn2 + mx2 + mn4 + mx3) + 0.1 * (cl + fm + st + ss);
    pattern *= 0.5 + 0.5 * clamp(length(pm - P) * 0.01, 0, 1);

    Oi = Os;
    Ci = Os * mix(cmin + cmax, cm * ccl, 0.5) * clamp(pattern, 0, 1);
}
