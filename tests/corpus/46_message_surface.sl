/* 46_message_surface: surface-side message passing: atmosphere, displacement, lightsource, incident, opposite, attribute, option, rendererinfo. */
surface messages(
    float Kd = 0.8, Ks = 0.2;
    float roughness = 0.2;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    float bumpamt = 0, fogdensity = 0, nonspec = 0;
    float etain = 1, etaout = 1;
    color lightspec = 1;
    uniform float rate = 1, sides = 2, fmt[3] = {0, 0, 0};
    uniform float shutter[2] = {0, 0};
    uniform float version[4] = {0, 0, 0, 0};
    uniform string objname = "", renderer = "";
    color Cspec = 0;

    /* Values published by the other shaders attached to this primitive. */
    if (displacement("amplitude", bumpamt) == 0)
        bumpamt = 0;
    if (atmosphere("density", fogdensity) == 0)
        fogdensity = 0;
    /* Parameters of the interior and exterior volume shaders. */
    if (incident("eta", etain) == 0)
        etain = 1;
    if (opposite("eta", etaout) == 0)
        etaout = 1;

    illuminance(P, Nf, PI / 2) {
        vector H = normalize(normalize(L) + V);

        if (lightsource("__nonspecular", nonspec) == 0)
            nonspec = 0;
        if (lightsource("specularcolor", lightspec) == 0)
            lightspec = 1;
        Cspec += (1 - nonspec) * Cl * lightspec * pow(max(0, Nf . H), 1 / roughness);
    }

    /* Renderer state. */
    attribute("ShadingRate", rate);
    attribute("Sides", sides);
    attribute("identifier:name", objname);
    option("Format", fmt);
    option("Shutter", shutter);
    rendererinfo("renderer", renderer);
    rendererinfo("version", version);

    Oi = Os;
    Ci = Os * (Cs * Kd * diffuse(Nf) * (1 - 0.5 * fogdensity) + Ks * Cspec) *
         ((sides > 1 && objname != "hidden") ? 1 : 0.5) * (1 + 0.1 * bumpamt) *
         ((etain > etaout) ? 1 : 0.9);
}
