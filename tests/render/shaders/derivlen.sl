/* derivlen: the length of Deriv(P, s) over k: 1 on a flat patch whose
   s runs along a side of length k. */
surface derivlen(float k = 1)
{
    Ci = length(Deriv(P, s)) / k;
    Oi = 1;
}
