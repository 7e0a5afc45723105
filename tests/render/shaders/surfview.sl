/* surfview: an ambient light whose color shows PRMan's light globals for
   the surface being lit: red and green the x and z of its unit normal
   Ns (made positive), blue the z of its unit incident ray I less the
   size of I's x and y. */
light surfview()
{
    normal n = normalize(Ns);
    vector i = normalize(I);
    Cl = color(abs(xcomp(n)), abs(zcomp(n)), zcomp(i) - abs(xcomp(i)) - abs(ycomp(i)));
}
