/* noisebump: P moved along the normal by noise and N recomputed from it
   (the path tracer's derivative bug of issue 14 left such a surface
   black). */
displacement noisebump(float Km = 0.05)
{
    P += Km * noise(P) * normalize(N);
    N = calculatenormal(P);
}
