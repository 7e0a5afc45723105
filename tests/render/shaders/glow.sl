/* glow: a coloured diffuse surface that also emits, for the path
   tracer's diffuse() lobes read from one run (check_path). */
surface glow(float Kd = 1, Ke = 0;)
{
    normal Nf = faceforward(normalize(N), I);
    Oi = Os;
    Ci = Ke * Cs + Kd * Cs * diffuse(Nf);
}
