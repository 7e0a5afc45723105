/* catmatte: Lambertian direct light from the lights in category cat
   alone. */
surface catmatte(string cat = "")
{
    normal Nf = faceforward(normalize(N), I);
    Ci = 0;
    illuminance(cat, P, Nf, PI / 2)
        Ci += Cl * (normalize(L) . Nf);
    Oi = 1;
}
