surface test()
{
    float a[0];
    Ci = 1;
}

/* EXPECT
68_array_length_zero.sl:3:13: error: array length must be a whole number from 1 to 1048576
    float a[0];
            ^
*/
