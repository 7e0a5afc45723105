/* catarea: arealight.sl's light, unshadowed, in the categories
   __category (none unless the instance gives it). */
light catarea(float intensity = 1; float samples = 16; string __category = "")
{
    illuminate(P, N, PI / 2)
        Cl = intensity * ((L . normalize(N)) / length(L)) / (L . L);
}
