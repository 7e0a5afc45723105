/* 31_math_trig: sin cos tan asin acos, atan with one and two arguments, radians, degrees and the constant PI. */
surface trig(float angle = 45; float waves = 6;)
{
    uniform float rad = radians(angle);
    uniform float deg = degrees(rad);
    float x = 2 * s - 1, y = 2 * t - 1;
    float theta = atan(y, x);
    float slope = atan(y / max(abs(x), 1e-3));
    float r = sqrt(x * x + y * y);
    float a1 = sin(theta * waves), a2 = cos(r * PI * waves);
    float a3 = tan(clamp(r, 0, 1) * PI / 4);
    float a4 = asin(clamp(y, -1, 1)), a5 = acos(clamp(x, -1, 1));
    float pattern;

    /* Rotate the coordinates by "angle" degrees. */
    float xr = x * cos(rad) - y * sin(rad);
    float yr = x * sin(rad) + y * cos(rad);

    pattern = 0.5 + 0.25 * a1 * a2 + 0.1 * a3;
    pattern += 0.05 * (a4 + a5 + slope) / PI;
    pattern += 0.05 * sin(2 * PI * xr) * cos(2 * PI * yr);
    pattern *= (deg > 90) ? 0.5 : 1;

    Oi = Os;
    Ci = Os * Cs * clamp(pattern, 0, 1) * diffuse(faceforward(normalize(N), I));
}
