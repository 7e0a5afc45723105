surface test()
{
    float i;
    for (i = 0; i < 4; i += 1) {
        if (i > 2)
            break 3;
    }
    Ci = i;
}

/* EXPECT
23_break_levels.sl:6:13: error: 'break 3' is not inside 3 loops
            break 3;
            ^
*/
