imager test()
{
    Ci = Ci * (N . N);
}

/* EXPECT
19_global_N_in_imager.sl:3:16: error: 'N' is not available in imager shaders, only in surface, light and displacement shaders
    Ci = Ci * (N . N);
               ^
19_global_N_in_imager.sl:3:20: error: 'N' is not available in imager shaders, only in surface, light and displacement shaders
    Ci = Ci * (N . N);
                   ^
*/
