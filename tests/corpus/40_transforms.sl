/* 40_transforms: transform, vtransform and ntransform in every form (to space, from/to spaces, matrix, from space and matrix). */
surface transforms(string space = "object"; float freq = 3;)
{
    matrix m = matrix "world" 1;
    point p1 = transform("shader", P);
    point p2 = transform("object", "world", P);
    point p3 = transform(m, P);
    point p4 = transform("camera", m, P);
    point p5 = transform(space, P);
    point p6 = transform("raster", P);
    point p7 = transform("NDC", P);
    point p8 = transform("screen", P);
    vector v1 = vtransform("world", I);
    vector v2 = vtransform("camera", "object", I);
    vector v3 = vtransform(m, dPdu);
    vector v4 = vtransform("object", m, dPdv);
    normal n1 = ntransform("world", N);
    normal n2 = ntransform("object", "shader", N);
    normal n3 = ntransform(m, Ng);
    normal n4 = ntransform("world", m, Ng);
    point back = transform("current", p1);
    float pattern;

    pattern = float noise(p1 * freq) + 0.1 * (float noise(p2 + p3 + p4 + p5));
    pattern += 0.001 * xcomp(p6) + 0.01 * (ycomp(p7) + zcomp(p8));
    pattern += 0.01 * ((normalize(v1) . normalize(v2)) + length(v3 + v4));
    pattern += 0.01 * ((n1 . n2) + (n3 . n4)) + 0.001 * distance(back, P);

    Oi = Os;
    Ci = Os * Cs * clamp(pattern, 0, 1) * diffuse(faceforward(normalize(N), I));
}
