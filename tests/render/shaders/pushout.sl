/* pushout: moves P a constant distance along the normal and recomputes
   N from the moved P, as BMRT's dented does with a varying distance. A
   sphere stays a sphere (of a larger radius) with the same normals. */
displacement pushout(float d = 0.1)
{
    P += d * normalize(N);
    N = calculatenormal(P);
}
