surface test()
{
    if (Cs)
        Ci = 1;
    while ("forever")
        Ci = 0;
}

/* EXPECT
50_condition_type.sl:3:9: error: condition must be a comparison or a float, not 'color'
    if (Cs)
        ^
50_condition_type.sl:5:12: error: condition must be a comparison or a float, not 'string'
    while ("forever")
           ^
*/
