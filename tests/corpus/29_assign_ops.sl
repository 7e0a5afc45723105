/* 29_assign_ops: = += -= *= /= on float, color, point, vector, array elements, output globals and in for-loop headers. */
surface assignops(float Kd = 0.8; float stepsize = 0.25;)
{
    float f = 1;
    color c = Cs;
    point p = P;
    vector v = vector(1, 2, 3);
    float arr[3] = {1, 2, 3};
    float i;

    f += 2;
    f -= 0.5;
    f *= 3;
    f /= 2;

    c += color(0.1, 0, 0);
    c -= 0.05;
    c *= Os;
    c *= 0.9;
    c /= 1.1;

    p += vector(0, 0, 1);
    p -= v;
    p *= 2;
    p /= 2;

    v += normalize(N);
    v -= vector(0.5, 0.5, 0.5);
    v *= 0.5;
    v /= 4;

    arr[0] += f;
    arr[1] -= 1;
    arr[2] *= arr[0];
    arr[2] /= 3;

    for (i = 0; i < 1; i += stepsize)
        f -= 0.01;

    Oi = Os;
    Ci = c * Kd;
    Ci *= diffuse(faceforward(normalize(N), I));
    Ci += 0.01 * (arr[0] + arr[1] + arr[2]) * Os;
    Ci -= 0.001 * length(v) * f;
    Ci /= 1 + 0.001 * length(p - P);
    Ci *= Oi;
}
