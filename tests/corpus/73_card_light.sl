/* 73_card_light: PRMan's light globals for the lit surface (Ns, I), an ambient occlusion light in Aqsis's map form, and pow of colors. */
light cardlight(
    float intensity = 1;
    color lightcolor = color(1, 0.95, 0.9);
    float sharpness = 8;
    string occlmap = "";
    float samples = 16;)
{
    /* A reflection card: bright where the viewer's reflection off the
       surface runs along the light's axis. */
    normal n = normalize(Ns);
    vector r = reflect(normalize(I), n);
    float facing = max(0, r . vector "shader" (0, 0, -1));
    color tint = pow(lightcolor, sharpness * 0.25);
    float open = 1;
    if (occlmap != "")
        open = 1 - occlusion(occlmap, Ps, n, samples, "bias", 0.01);
    solar(vector "shader" (0, 0, 1), PI / 2) {
        Cl = intensity * tint * pow(facing, sharpness) * open;
    }
}
