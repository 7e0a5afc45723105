surface test()
{
    float b = s > 0.5;
    Ci = b;
}

/* EXPECT
45_comparison_as_value.sl:3:17: error: a comparison cannot be used as a value
    float b = s > 0.5;
                ^
*/
