/* 18_return_types: user functions returning void, float, color, point, vector, normal, matrix and string. */
void report(string what; float val)
{
    printf("%s = %f\n", what, val);
}

float halve(float x)
{
    return x * 0.5;
}

color grey(float x)
{
    return color(x, x, x);
}

point lift(point p; float h)
{
    return p + vector(0, h, 0);
}

vector axisof(float which)
{
    vector r;

    if (which < 0.5)
        r = vector(1, 0, 0);
    else if (which < 1.5)
        r = vector(0, 1, 0);
    else
        r = vector(0, 0, 1);
    return r;
}

normal flipped(normal n)
{
    return -n;
}

matrix shifted(float dx)
{
    matrix ident = 1;

    return translate(ident, vector(dx, 0, 0));
}

string brightness(uniform float x)
{
    string r = "dark";

    if (x > 0.5)
        r = "bright";
    return r;
}

surface returntypes(float Kd = 0.8; float verbose = 0;)
{
    float h = halve(s + t);
    color g = grey(h);
    point lifted = lift(P, h);
    vector ax = axisof(floor(3 * u));
    normal nf = flipped(flipped(normalize(N)));
    matrix mx = shifted(h);
    string word = brightness(Kd);
    point moved = transform(mx, lifted);

    if (verbose > 0) {
        report("h", h);
        printf("%s\n", word);
    }
    Oi = Os;
    Ci = Os * Cs * g * Kd * diffuse(faceforward(nf, I)) *
         (0.5 + 0.5 * abs(ax . normalize(moved - P + vector(0, 0, 1e-3))));
}
