/* 47_message_light: light-side message passing: surface() reads the surface shader's parameters, attribute() reads state, output parameters. */
light messagelight(
    float intensity = 1;
    color lightcolor = 1;
    point from = point "shader" (0, 0, 0);
    output varying color specularcolor = 1;
    output uniform float __nonspecular = 0;)
{
    float surfKd = 1;
    color surfTint = 1;
    uniform float matte = 0;
    uniform float sides = 2;

    /* Ask the surface being lit for its parameters. */
    if (surface("Kd", surfKd) == 0)
        surfKd = 1;
    if (surface("tint", surfTint) == 0)
        surfTint = 1;
    attribute("Matte", matte);
    attribute("Sides", sides);

    /* Published values read back by lightsource() in surfaces. */
    specularcolor = lightcolor * surfTint;
    if (matte > 0 || sides < 2)
        __nonspecular = 1;

    illuminate(from) {
        Cl = intensity * lightcolor * clamp(surfKd, 0, 1) / max(L . L, 1e-4);
    }
}
