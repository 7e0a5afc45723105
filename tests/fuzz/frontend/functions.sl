/* Nested and recursive-looking functions, output parameters, derivatives. */
float f(float x; output float y) { y = x * x; return y + 1; }
color g(color c) { float k; float h(float z) { extern float k; return z * k; } k = 2; return c * h(1); }
displacement functions(float amp = 0.1;)
{
    float y;
    float d = f(amp, y) + Du(s) * du + Dv(t) * dv + area(P);
    P += d * normalize(N);
    N = calculatenormal(P);
}
