/* 17_overloads: user functions overloaded on argument types, on argument count, and on return type alone (chosen by cast or context). */
float luma(color c)
{
    return 0.2126 * comp(c, 0) + 0.7152 * comp(c, 1) + 0.0722 * comp(c, 2);
}

float luma(float f)
{
    return f;
}

float luma(color c; float gammaval)
{
    return pow(luma(c), gammaval);
}

/* Same name and arguments, different return types. */
float snoise(point p)
{
    return 2 * (float noise(p)) - 1;
}

vector snoise(point p)
{
    return 2 * (vector noise(p)) - 1;
}

color snoise(point p)
{
    return 2 * (color noise(p)) - 1;
}

point midway(point a, b)
{
    return a + 0.5 * (b - a);
}

color midway(color a, b)
{
    return 0.5 * (a + b);
}

float midway(float a, b)
{
    return 0.5 * (a + b);
}

surface overloads(
    float Kd = 0.8;
    float gammaval = 2.2;
    color warm = color(1, 0.8, 0.6);)
{
    point PP = transform("shader", P);
    float fn = float snoise(PP);
    vector vn = vector snoise(PP * 2);
    color cn = color snoise(PP * 4);
    float l1 = luma(Cs), l2 = luma(0.5), l3 = luma(Cs, gammaval);
    point pm = midway(PP, PP + vn);
    color cm = midway(Cs, warm);
    float fm = midway(l1, l3);
    normal Nf = faceforward(normalize(N), I);

    Oi = Os;
    Ci = Os * (cm + 0.1 * cn) * Kd * diffuse(Nf) *
         clamp(fm + l2 * fn + 0.05 * length(pm - PP), 0, 1);
}
