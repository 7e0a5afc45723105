/* distantlight: parallel light shining from "from" towards "to".
   shadowname "raytrace" traces shadow rays against the light's
   direction; any other name is a shadow map. */
light distantlight(float intensity = 1; color lightcolor = 1;
                   point from = point "shader" (0, 0, 0);
                   point to = point "shader" (0, 0, 1);
                   string shadowname = "";)
{
    solar(to - from, 0) {
        Cl = intensity * lightcolor;
        if (shadowname == "raytrace")
            Cl *= transmission(Ps, Ps - 1e6 * normalize(L));
        else if (shadowname != "")
            Cl *= 1 - shadow(shadowname, Ps);
    }
}
