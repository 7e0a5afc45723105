surface test()
{
    float i;
    for (i = 0; i < 3; i += 1)
        break 0;
    Ci = 1;
}

/* EXPECT
76_break_level.sl:5:9: error: invalid 'break' level 0
        break 0;
        ^
*/
