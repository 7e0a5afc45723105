/* 38_geom_components: xcomp ycomp zcomp, setxcomp setycomp setzcomp, length, normalize, distance, ptlined and point rotate. */
surface geomcomp(float angle = 30; float linewidth = 0.02;)
{
    point PP = transform("shader", P);
    point Q = PP;
    vector V = vector(1, 2, 2);
    normal Nc = normalize(N);
    float x = xcomp(PP), y = ycomp(PP), z = zcomp(PP);
    float nz = zcomp(Nc);
    float len = length(V);
    vector Vn = normalize(V);
    point A = point(0, 0, 0), B = point(1, 1, 0);
    float d = distance(PP, A);
    float dl = ptlined(A, B, PP);
    point R = rotate(PP, radians(angle), A, point(0, 0, 1));
    float line;

    setxcomp(Q, x * 2);
    setycomp(Q, y + z);
    setzcomp(Q, 0);
    setzcomp(V, ycomp(Vn));
    setycomp(Nc, 0);

    line = 1 - smoothstep(0, linewidth, dl);

    Oi = Os;
    Ci = Os * Cs * (0.5 + 0.5 * line) *
         clamp(0.1 * (len + d + xcomp(R) + xcomp(Q)) + 0.1 * nz + 0.01 * length(V) +
               0.01 * length(Nc), 0, 1);
}
