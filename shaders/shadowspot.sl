/* shadowspot: spotlight's cone, its light blocked as a shadow map says
   (PRMan's and BMRT's shadowed spotlight). shadowname names the map
   ("" for none, "raytrace" for shadow rays); blur widens the map's
   lookup by that fraction of the map, averaged over samples. */
light shadowspot(float intensity = 1; color lightcolor = 1;
                 point from = point "shader" (0, 0, 0);
                 point to = point "shader" (0, 0, 1);
                 float coneangle = radians(30);
                 float conedeltaangle = radians(5);
                 float beamdistribution = 2;
                 string shadowname = "";
                 float samples = 16;
                 float blur = 0;)
{
    uniform vector A = normalize(to - from);
    illuminate(from, A, coneangle) {
        float cosangle = (L . A) / length(L);
        float atten = pow(cosangle, beamdistribution) / (L . L);
        atten *= smoothstep(cos(coneangle), cos(coneangle - conedeltaangle),
                            cosangle);
        Cl = atten * intensity * lightcolor;
        if (shadowname == "raytrace")
            Cl *= transmission(Ps, from);
        else if (shadowname != "")
            Cl *= 1 - shadow(shadowname, Ps, "samples", samples, "blur", blur);
    }
}
