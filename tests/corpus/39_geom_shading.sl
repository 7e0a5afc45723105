/* 39_geom_shading: faceforward with two and three arguments, reflect, refract, fresnel in both forms, depth and calculatenormal. */
surface geomshading(float eta = 1.33; float Kr = 0.5;)
{
    normal Nn = normalize(N);
    vector In = normalize(I);
    normal Nf = faceforward(Nn, In);
    normal Nf3 = faceforward(Nn, In, Ng);
    vector R = reflect(In, Nf);
    vector T = refract(In, Nf, 1 / eta);
    float kr, kt, kr2, kt2;
    vector Rf, Tf;
    float dep = depth(P);
    normal Nc = calculatenormal(P + 0.01 * (float noise(P * 10)) * Nn);
    float fog;

    fresnel(In, Nf, 1 / eta, kr, kt);
    fresnel(In, Nf3, 1 / eta, kr2, kt2, Rf, Tf);

    fog = smoothstep(0, 1, dep);

    Oi = Os;
    Ci = Os * mix(Cs * diffuse(normalize(Nc)) +
                  Kr * kr * (0.5 + 0.5 * ycomp(R)) +
                  kt * (0.5 + 0.5 * zcomp(T)) +
                  0.1 * kr2 * (Rf . Tf) * kt2,
                  color(0.5, 0.5, 0.6), fog);
}
