surface test()
{
    PI = 3;
    Ci = PI;
}

/* EXPECT
54_assign_constant.sl:3:5: error: cannot assign to constant 'PI'
    PI = 3;
    ^
*/
