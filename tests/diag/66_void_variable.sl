surface test()
{
    void x;
    Ci = 1;
}

/* EXPECT
66_void_variable.sl:3:10: error: variable 'x' cannot be void
    void x;
         ^
*/
