surface test()
{
    float x, y;
    if (s > 0.5)
        y = 1;
    Ci = x + y;
}

/* EXPECT
30_uninitialized.sl:6:10: warning: variable 'x' may be used uninitialized
    Ci = x + y;
         ^
*/
