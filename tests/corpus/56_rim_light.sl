/* 56_rim_light: back light in the "rim" category, strongest when it faces the eye through the object, marked __nonspecular. */
light rimlight(
    float intensity = 1;
    color lightcolor = color(0.9, 0.95, 1);
    point from = point "shader" (0, 0, 0);
    point to = point "shader" (0, 0, 1);
    float spread = radians(60);
    float sharpness = 4;
    string __category = "rim";
    float __nonspecular = 1;)
{
    uniform vector axis = normalize(to - from);
    uniform float cosspread = cos(spread);

    illuminate(from) {
        vector Ln = normalize(L);
        vector toeye = normalize(E - Ps);
        float back, aim;

        /* L runs from the light to Ps: a back light points away from the eye. */
        back = max(0, -(Ln . toeye));
        aim = smoothstep(cosspread, 1, Ln . axis);
        Cl = intensity * lightcolor * pow(back, sharpness) * aim;
    }
}
