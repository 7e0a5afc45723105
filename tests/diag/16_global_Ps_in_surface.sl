surface test()
{
    point p = Ps;
    Ci = length(p);
}

/* EXPECT
16_global_Ps_in_surface.sl:3:15: error: 'Ps' is not available in surface shaders, only in light shaders
    point p = Ps;
              ^
*/
