/* 35_spline: spline with and without a basis name, on floats, colours and points, in argument-list and array forms. */
surface splines(float Kd = 0.8;)
{
    float knots[6] = {0, 0, 0.3, 0.8, 1, 1};
    color ramp[5] = {color(0, 0, 0.2), color(0, 0, 0.2), color(0.8, 0.2, 0.1),
                     color(1, 0.9, 0.5), color(1, 0.9, 0.5)};
    float x = clamp(s, 0, 1);
    float f1, f2, f3, f4, f5, f6, f7;
    color c1, c2;
    point p1;

    f1 = spline(x, 0, 0, 0.5, 1, 1);
    f2 = spline("catmull-rom", x, 0, 0.2, 0.4, 0.9, 1);
    f3 = spline("bezier", x, 0, 0.3, 0.6, 1);
    f4 = spline("bspline", x, 0, 0, 0.5, 1, 1);
    f5 = spline("linear", x, 0, 0, 1, 1);
    f6 = spline("hermite", x, 0, 1, 1, 0);
    f7 = spline(x, knots) + spline("bspline", x, knots);

    c1 = spline(x, ramp);
    c2 = spline("catmull-rom", t, color(1, 0, 0), color(1, 0, 0),
                color(0, 1, 0), color(0, 0, 1), color(0, 0, 1));
    p1 = spline("linear", x, point(0, 0, 0), point(0, 0, 0),
                point(1, 1, 1), point(1, 1, 1));

    Oi = Os;
    Ci = Os * (0.5 * (c1 + c2) * (f1 + f2 + f3 + f4 + f5 + f6 + f7) / 8 +
               0.1 * xcomp(p1)) * Kd * diffuse(faceforward(normalize(N), I));
}
