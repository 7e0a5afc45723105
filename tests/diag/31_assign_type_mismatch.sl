surface test()
{
    float f = Cs;
    color c = 1;
    c = P;
    Ci = c * f;
}

/* EXPECT
31_assign_type_mismatch.sl:3:15: error: cannot assign 'color' to 'f' of type 'float'
    float f = Cs;
              ^
31_assign_type_mismatch.sl:5:9: error: cannot assign 'point' to 'c' of type 'color'
    c = P;
        ^
*/
