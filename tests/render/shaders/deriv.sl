/* deriv: the derivatives of s and t over the surface, as a color. */
surface deriv()
{
    Oi = 1;
    Ci = color(Du(s), Dv(t), abs(Du(t)) + abs(Dv(s)));
}
