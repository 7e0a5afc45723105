/* Message passing test: blue is the surface's mark, read through
   surface() after the surface has run. */
volume msgatmo()
{
    float mark = 0; /* varying: a per-point call */
    surface("mark", mark);
    Ci = color(comp(Ci, 0), comp(Ci, 1), mark);
}
