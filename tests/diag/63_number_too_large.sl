surface test()
{
    float x = 1e999;
    Ci = x;
}

/* EXPECT
63_number_too_large.sl:3:15: error: number '1e999' is too large
    float x = 1e999;
              ^
*/
