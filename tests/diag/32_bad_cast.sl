surface test()
{
    matrix m = matrix P;
    string n = string 1;
    Ci = comp(m, 0, 0);
}

/* EXPECT
32_bad_cast.sl:3:16: error: cannot cast 'point' to 'matrix'
    matrix m = matrix P;
               ^
32_bad_cast.sl:4:16: error: cannot cast 'float' to 'string'
    string n = string 1;
               ^
*/
