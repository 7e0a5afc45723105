/* indirect: the light arriving from the hemisphere around N, by
   indirectdiffuse(). */
surface indirect(float samples = 256;)
{
    Oi = 1;
    normal Nf = faceforward(normalize(N), I);
    Ci = indirectdiffuse(P, Nf, samples);
}
