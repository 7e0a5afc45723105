/* 27_operators_matrix: matrix construction, '*' and '/' on matrices, comp, setcomp, determinant, translate, rotate and scale. */
surface matrixops(float angle = 30; float sx = 2;)
{
    matrix ident = 1;
    matrix zero = 0;
    matrix shadermat = matrix "shader" 1;
    matrix worldmat = matrix "world" 1;
    matrix mexp = matrix(2, 0, 0, 0,
                         0, 2, 0, 0,
                         0, 0, 2, 0,
                         1, 2, 3, 1);
    matrix spaced = matrix "object" (1, 0, 0, 0,
                                     0, 1, 0, 0,
                                     0, 0, 1, 0,
                                     0, 0, 0, 1);
    matrix prod, quot, xf;
    float det, e;
    point Pt;

    prod = mexp * shadermat;
    quot = prod / shadermat;        /* prod times the inverse of shadermat */
    xf = translate(ident, vector(1, 0, 0));
    xf = rotate(xf, radians(angle), vector(0, 0, 1));
    xf = scale(xf, point(sx, sx, 1));
    det = determinant(quot) + determinant(xf);

    e = comp(mexp, 3, 0) + comp(worldmat, 0, 0);
    setcomp(zero, 3, 3, 1);
    setcomp(zero, 0, 0, e);
    setcomp(zero, 1, 1, e);
    setcomp(zero, 2, 2, e);

    Pt = transform(xf * spaced * zero, P);

    Oi = Os;
    Ci = Os * Cs * diffuse(faceforward(normalize(N), I)) *
         clamp(0.1 * abs(det) + 0.01 * length(vector(Pt)), 0, 1);
}
