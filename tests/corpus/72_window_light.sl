/* 72_window_light: area-like window light built from solar(axis, angle) with a mullion pattern projected in shader space. */
light windowlight(
    float intensity = 1;
    color lightcolor = color(1, 0.98, 0.9);
    vector direction = vector "shader" (0, -0.5, 1);
    float spread = radians(10);
    float panes = 3;
    float mullion = 0.05;
    float windowsize = 2;)
{
    uniform vector D = normalize(direction);

    solar(D, spread) {
        /* Project the shaded point onto the window plane in shader space. */
        point Psh = transform("shader", Ps);
        float wx = xcomp(Psh) / windowsize + 0.5, wy = ycomp(Psh) / windowsize + 0.5;
        float inside = step(0, wx) * step(wx, 1) * step(0, wy) * step(wy, 1);
        float fx = mod(wx * panes, 1), fy = mod(wy * panes, 1);
        float bars = step(mullion, fx) * step(mullion, fy);
        float soft = smoothstep(cos(spread), 1, normalize(L) . D);

        Cl = intensity * lightcolor * inside * bars * (0.5 + 0.5 * soft);
    }
}
