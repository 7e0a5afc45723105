/* 57_gobo_light: slide projector spotlight that maps a texture ("slide") over its cone with barn-door edges. */
light goboslide(
    float intensity = 1;
    color lightcolor = 1;
    point from = point "shader" (0, 0, 0);
    point to = point "shader" (0, 0, 1);
    float coneangle = radians(25);
    string slidename = "";
    float slideblur = 0.005;
    float barn = 0.9;)
{
    uniform vector axis = normalize(to - from);
    uniform float tanhalf = tan(coneangle);
    uniform vector up = (abs(ycomp(axis)) < 0.99) ? vector(0, 1, 0) : vector(1, 0, 0);
    uniform vector xaxis = normalize(axis ^ up);
    uniform vector yaxis = axis ^ xaxis;

    illuminate(from, axis, coneangle) {
        float z = max(L . axis, 1e-6);
        float xs = (L . xaxis) / (z * tanhalf);
        float ys = (L . yaxis) / (z * tanhalf);
        float ss = 0.5 + 0.5 * xs, tt = 0.5 - 0.5 * ys;
        color slide = 1;
        float frame;

        if (slidename != "")
            slide = color texture(slidename, ss, tt, "blur", slideblur, "fill", 0);
        frame = (1 - smoothstep(barn, 1, abs(xs))) * (1 - smoothstep(barn, 1, abs(ys)));
        Cl = intensity * lightcolor * slide * frame / (L . L);
    }
}
