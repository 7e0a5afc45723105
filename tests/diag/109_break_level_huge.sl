surface test()
{
    float i;
    for (i = 0; i < 3; i += 1)
        continue 1e30;
    Ci = 1;
}

/* EXPECT
109_break_level_huge.sl:5:9: error: invalid 'continue' level 1e+30
        continue 1e30;
        ^
*/
