/* 14_uniform_varying: explicit uniform and varying on parameters, locals and function formals, with only uniform-to-varying flow. */
float scaled(uniform float k; float x)
{
    return k * x;
}

surface storageclasses(
    uniform float Kd = 0.8;
    varying float Kvar = 0.5;
    uniform color tintu = color(1, 0.9, 0.8);
    varying color tintv = 1;
    float plain = 2;)
{
    uniform float ucount = 0;
    uniform float uscale = plain * 0.5;
    varying float vsum = 0;
    float implicitvar = s;
    uniform vector up = vector "world" (0, 1, 0);
    varying vector vdir = normalize(N);
    uniform string uname = "storage";
    uniform matrix um = matrix "shader" 1;
    uniform float i;

    /* Uniform values may flow into varying variables, never the reverse. */
    vsum = ucount + uscale;
    for (i = 0; i < 4; i += 1) {
        ucount += 1;
        vsum += Kvar * implicitvar;
    }
    vsum += scaled(uscale, t);
    vsum *= 1 + 0.01 * determinant(um);
    implicitvar = (vdir . up) * 0.5 + 0.5;
    if (ucount > 100)
        printf("%s: %f\n", uname, ucount);

    Oi = Os;
    Ci = Os * Cs * tintu * tintv * Kd * diffuse(faceforward(normalize(N), I)) *
         clamp(vsum * implicitvar / (ucount + 1), 0, 1);
}
