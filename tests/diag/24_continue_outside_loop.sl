surface test()
{
    if (s > 0.5)
        continue;
    Ci = s;
}

/* EXPECT
24_continue_outside_loop.sl:4:9: error: 'continue' is not inside a loop
        continue;
        ^
*/
