/* 45_environment_shadow: environment() and shadow() in one- and four-sample forms with channels and options, plus textureinfo. */
surface envshadow(
    string envname = "";
    string shadowname = "";
    float Kr = 0.5;
    float samples = 16;)
{
    normal Nf = faceforward(normalize(N), I);
    vector R = vtransform("world", reflect(I, Nf));
    vector dRu = vtransform("world", Du(R) * du), dRv = vtransform("world", Dv(R) * dv);
    color Cenv = 0;
    float envred = 0, inshadow = 0;
    uniform float res[2] = {0, 0};
    uniform float channels = 0;
    uniform string maptype = "";
    uniform matrix camtoworld = 1, proj = 1;
    point Pw = transform("world", P);

    if (envname != "") {
        Cenv = color environment(envname, R);
        Cenv += color environment(envname, R - dRu - dRv, R + dRu - dRv,
                                  R - dRu + dRv, R + dRu + dRv);
        Cenv += color environment(envname, R, "blur", 0.05, "width", 2);
        envred = float environment(envname[0], R, "fill", 0);
        Cenv /= 3;

        textureinfo(envname, "resolution", res);
        textureinfo(envname, "channels", channels);
        textureinfo(envname, "type", maptype);
    }

    if (shadowname != "") {
        inshadow = shadow(shadowname, P);
        inshadow += shadow(shadowname, P, "samples", samples, "bias", 0.01, "blur", 0.002);
        inshadow += float shadow(shadowname[0], P - dPdu * du, P + dPdu * du,
                                 P - dPdv * dv, P + dPdv * dv);
        inshadow /= 3;
        textureinfo(shadowname, "viewingmatrix", camtoworld);
        textureinfo(shadowname, "projectionmatrix", proj);
    }

    Oi = Os;
    Ci = Os * (Cs * diffuse(Nf) * (1 - inshadow) + Kr * Cenv * (1 + 0.1 * envred)) *
         ((res[0] > 0 || maptype == "environment" || channels > 0) ? 1 : 0.9);
}
