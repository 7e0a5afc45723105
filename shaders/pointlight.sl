/* pointlight: light radiating from a point, falling off with distance
   squared. shadowname "raytrace" traces shadow rays towards the light;
   any other name is a shadow map. */
light pointlight(float intensity = 1; color lightcolor = 1;
                 point from = point "shader" (0, 0, 0);
                 string shadowname = "";)
{
    illuminate(from) {
        Cl = intensity * lightcolor / (L . L);
        if (shadowname == "raytrace")
            Cl *= transmission(Ps, from);
        else if (shadowname != "")
            Cl *= 1 - shadow(shadowname, Ps);
    }
}
