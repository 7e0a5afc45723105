/* 37_noise_family: random, noise, pnoise and cellnoise in every argument form and float/color/point/vector result type. */
surface noises(float freq = 4; float period = 8;)
{
    point PP = transform("shader", P) * freq;
    float x = s * freq, y = t * freq;
    float r1 = float random();
    color r2 = color random();
    point r3 = point random();
    float n1 = float noise(x);
    float n2 = float noise(x, y);
    float n3 = float noise(PP);
    float n4 = float noise(PP, time);
    color n5 = color noise(PP);
    point n6 = point noise(x, y);
    vector n7 = vector noise(PP, time);
    float p1 = float pnoise(x, period);
    float p2 = float pnoise(x, y, period, period);
    float p3 = float pnoise(PP, point(period, period, period));
    float p4 = float pnoise(PP, time, point(period, period, period), 1);
    color p5 = color pnoise(PP, point(period, period, period));
    vector p6 = vector pnoise(x, y, period, period);
    float c1 = float cellnoise(x);
    float c2 = float cellnoise(x, y);
    float c3 = float cellnoise(PP);
    float c4 = float cellnoise(PP, time);
    color c5 = color cellnoise(PP);
    point c6 = point cellnoise(x, y);
    float fsum, vsum;

    fsum = (n1 + n2 + n3 + n4 + p1 + p2 + p3 + p4 + c1 + c2 + c3 + c4) / 12;
    vsum = xcomp(n6) + ycomp(n7) + zcomp(p6) + xcomp(c6) + ycomp(r3);

    Oi = Os;
    Ci = Os * (0.4 * fsum * Cs + 0.2 * (n5 + p5 + c5) / 3 + 0.05 * r2 * r1 +
               0.05 * vsum);
}
