/* steps: Du(s), the parameter step du and the area of the shading
   element (area(P)), each scaled as given, as a color. */
surface steps(float dus = 1, ars = 1)
{
    Oi = 1;
    Ci = color(Du(s), dus * du, ars * area(P));
}
