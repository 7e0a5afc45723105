/* occl: the occlusion of the hemisphere around N, as a grey. */
surface occl(float samples = 256; float maxdist = 0;)
{
    Oi = 1;
    normal Nf = faceforward(normalize(N), I);
    Ci = occlusion(P, Nf, samples, "maxdist", maxdist);
}
