/* 69_matrix_spaces: matrices taken from named spaces, composed, inverted by division and applied to points, vectors and normals. */
surface matrixspaces(
    float Kd = 0.8;
    float gridsize = 0.5;
    string gridspace = "world";)
{
    matrix toworld = matrix "world" 1;
    matrix tocamera = matrix "camera" 1;
    matrix toobject = matrix "object" 1;
    matrix ident = 1;
    matrix worldtocamera = tocamera / toworld;
    matrix roundtrip = (toworld / toobject) * (toobject / toworld);
    matrix spin = rotate(ident, radians(45), vector(0, 1, 0));
    matrix composed = translate(spin, vector(0.5, 0, 0)) * toworld;
    point Pw = transform(gridspace, P);
    point Pc = transform(worldtocamera, Pw);
    point Pspun = transform(composed, P);
    vector Iw = vtransform(toworld, I);
    normal Nw = ntransform(toworld, N);
    float err = 0, r, c, gx, gz, grid;

    /* roundtrip should be the identity; measure how far off it is. */
    for (r = 0; r < 4; r += 1)
        for (c = 0; c < 4; c += 1)
            err += abs(comp(roundtrip, r, c) - comp(ident, r, c));

    gx = mod(xcomp(Pw) / gridsize, 1);
    gz = mod(zcomp(Pw) / gridsize, 1);
    grid = 1 - step(0.05, gx) * step(0.05, gz);

    Oi = Os;
    Ci = Os * Cs * Kd * diffuse(faceforward(normalize(N), I)) *
         (1 - 0.5 * grid) *
         clamp(1 - err + 0.001 * (zcomp(Pc) + xcomp(Pspun) + (normalize(Iw) . normalize(Nw))), 0, 1);
}
