/* 26_operators_geom: dot product '.' and cross product '^' on vectors, normals and points, with explicit grouping. */
surface geomops(float Kd = 0.8; float strength = 0.5;)
{
    vector X = normalize(dPdu), Y = normalize(dPdv);
    normal Nn = normalize(N);
    vector In = normalize(I);
    vector Z = X ^ Y;
    float d1 = X . Y;
    float d2 = Nn . Z;
    float d3 = (X ^ Y) . Nn;
    vector T = Nn ^ X;
    vector B = Nn ^ T;
    float lenT = sqrt(T . T);
    point Q = P + (Nn . In) * T;
    float vol = (P - Q) . (dPdu ^ dPdv);
    vector tripleX = X ^ (Y ^ Z);
    float facing = -(In . Nn);
    float shade;

    /* Mix the pieces into a shading term. */
    shade = 0.5 + 0.5 * clamp(d1 + d2 * d3 + facing - lenT * 0.1, -1, 1);
    shade *= 1 - strength * clamp(abs(vol) + length(tripleX) * 0.01 + (B . B) * 0.001, 0, 1);

    Oi = Os;
    Ci = Os * Cs * Kd * diffuse(faceforward(Nn, I)) * shade;
}
