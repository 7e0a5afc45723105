/* 09_spotlight_soft: spotlight variant with a shadow map and options, distance falloff exponent, soft penumbra and a light category. */
light shadowspot(
    float intensity = 1;
    color lightcolor = 1;
    point from = point "shader" (0, 0, 0);
    point to = point "shader" (0, 0, 1);
    float coneangle = radians(30), conedeltaangle = radians(5);
    float beamdistribution = 2;
    float falloff = 2;
    string shadowname = "";
    float samples = 16, blur = 0.01, bias = 0.05;
    string __category = "key";
    float __nonspecular = 0;)
{
    uniform vector axis = normalize(to - from);
    uniform float cosoutside = cos(coneangle);
    uniform float cosinside = cos(coneangle - conedeltaangle);
    float cosangle, atten, unoccluded;

    illuminate(from, axis, coneangle) {
        float dist = length(L);

        cosangle = (L . axis) / dist;
        atten = pow(cosangle, beamdistribution) *
                smoothstep(cosoutside, cosinside, cosangle);
        atten /= pow(dist, falloff);

        unoccluded = 1;
        if (shadowname != "")
            unoccluded = 1 - shadow(shadowname, Ps, "samples", samples,
                                    "blur", blur, "bias", bias);
        Cl = atten * unoccluded * intensity * lightcolor;
    }
}
