/* Light category test: the sum of the Cl of the lights in category
   `cat`. */
surface catsurf(string cat = "")
{
    Ci = 0;
    illuminance(cat, P)
        Ci += Cl;
    Oi = 1;
}
