/* 05_glass: dielectric glass, fresnel-weighted reflection and refraction traced with trace(), refract() and an optional environment map. */
surface glass(
    float Ka = 0.1, Ks = 0.8, Kr = 1, Kt = 1;
    float roughness = 0.05;
    float eta = 1.5;
    color transmitcolor = color(0.9, 0.95, 1.0);
    string envname = "";)
{
    normal Nn = normalize(N);
    vector In = normalize(I);
    normal Nf = faceforward(Nn, In);
    vector V = -In;
    float kr, kt, ior;
    vector R, T;
    color Crefl = 0, Crefr = 0;

    /* Entering the glass or leaving it? */
    ior = ((In . Nn) < 0) ? 1 / eta : eta;
    fresnel(In, Nf, ior, kr, kt, R, T);
    kt = 1 - kr;

    if (envname != "") {
        Crefl = color environment(envname, vtransform("world", R));
    } else {
        Crefl = trace(P, R);
    }

    if (kt > 0) {
        vector Tdir = refract(In, Nf, ior);

        /* refract returns a zero vector on total internal reflection. */
        if (length(Tdir) > 0)
            Crefr = transmitcolor * trace(P, Tdir);
    }

    Oi = 1;
    Ci = Ka * Cs * ambient() + Ks * specular(Nf, V, roughness) +
         Kr * kr * Crefl + Kt * kt * Crefr;
}
