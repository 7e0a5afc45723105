surface test()
{
    if (!Cs)
        Ci = 1;
}

/* EXPECT
72_not_of_color.sl:3:9: error: invalid operand to '!' ('color')
    if (!Cs)
        ^
*/
