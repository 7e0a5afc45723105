/* halfci: sets Ci only on the half of the object where x > 0 and never
   sets Oi, so the renderer's starting Ci and Oi show (check_render's
   unset_ci_is_black_and_opaque). */
surface halfci()
{
    point Po = transform("object", P);
    if (xcomp(Po) > 0)
        Ci = color(1, 0.5, 0.25);
}
