/* occl: the occlusion of the hemisphere around N, as a grey; given a
   map, through Aqsis's form occlusion(map, P, N, samples). */
surface occl(float samples = 256; float maxdist = 0; string map = "")
{
    Oi = 1;
    normal Nf = faceforward(normalize(N), I);
    if (map != "")
        Ci = occlusion(map, P, Nf, samples, "maxdist", maxdist);
    else
        Ci = occlusion(P, Nf, samples, "maxdist", maxdist);
}
