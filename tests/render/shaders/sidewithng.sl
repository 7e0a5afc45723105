/* sidewithng: whether calculatenormal(P) lies on the side of Ng: white
   where they point the same way, black where opposite, grey at right
   angles (Ci = (1 + cos) / 2 of the angle between them). */
surface sidewithng()
{
    float c = normalize(calculatenormal(P)) . normalize(Ng);
    Ci = (1 + c) / 2;
    Oi = 1;
}
