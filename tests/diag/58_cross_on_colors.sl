surface test()
{
    vector v = Cs ^ Os;
    Ci = v . N;
}

/* EXPECT
58_cross_on_colors.sl:3:19: error: invalid operands to '^' ('color' and 'color')
    vector v = Cs ^ Os;
                  ^
*/
