/* tilts: moves P along the normal by k times s and recomputes N from the
   moved P. On a flat patch whose s runs along its side of length L, the
   moved surface rises k over L: its normal leans atan(k / L) towards -s. */
displacement tilts(float k = 1)
{
    P += k * s * normalize(N);
    N = calculatenormal(P);
}
