surface test()
{
    color c = color "hvs" (0.5, 1, 1);
    Ci = c;
}

/* EXPECT
33_unknown_color_space.sl:3:15: warning: unknown color space 'hvs'
    color c = color "hvs" (0.5, 1, 1);
              ^
*/
