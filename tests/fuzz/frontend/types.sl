/* Every type, space casts, matrices, strings and builtins. */
light types(point from = point "shader" (0, 0, 0); string tex = "";
            uniform matrix m = 1;)
{
    vector v = vector "world" (1, 0, 0);
    normal nn = normalize(normal(v));
    matrix m2 = m * matrix "camera" 1;
    string s = concat(tex, format("%f %p", 1, from));
    float f = match("a.*", s) + noise(P) + cellnoise(v) + spline(0.5, 0, 1, 2, 3);
    color c = color "hsv" (f, 1, 1);
    illuminate(from) {
        Cl = c * texture(tex, s, t) + environment("env", v) + shadow("sh", Ps);
    }
    printf("%m %c %s\n", m2, c, s);
}
