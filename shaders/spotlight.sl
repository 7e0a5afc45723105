/* spotlight: a point light restricted to a cone with a smooth edge.
   shadowname "raytrace" traces shadow rays towards the light; any other
   name is a shadow map. */
light spotlight(float intensity = 1; color lightcolor = 1;
                point from = point "shader" (0, 0, 0);
                point to = point "shader" (0, 0, 1);
                float coneangle = radians(30);
                float conedeltaangle = radians(5);
                float beamdistribution = 2;
                string shadowname = "";)
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
            Cl *= 1 - shadow(shadowname, Ps);
    }
}
