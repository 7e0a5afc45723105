/* 23_solar_forms: sky-and-sun light using solar() for light from all directions and solar(axis, angle) for the sun. */
light skysun(
    float skyintensity = 0.3, sunintensity = 1;
    color skycolor = color(0.5, 0.6, 0.9);
    color suncolor = color(1, 0.95, 0.85);
    point from = point "shader" (0, 0, 0);
    point to = point "shader" (0, -1, 0.2);
    float sunangle = radians(0.5);
    uniform float skyon = 1;)
{
    uniform vector sundir = normalize(to - from);

    if (skyon > 0) {
        solar() {
            /* L runs from the light towards the surface. */
            float elevation = -ycomp(vtransform("world", normalize(L)));

            Cl = skyintensity * skycolor * (0.5 + 0.5 * clamp(elevation, -1, 1));
        }
    }

    solar(sundir, sunangle)
        Cl = sunintensity * suncolor;
}
