float twice(float x)
{
    return 2 * x;
}

surface test()
{
    Ci = twice(u, v);
}

/* EXPECT
80_too_many_arguments.sl:8:10: error: 'twice' takes 1 argument, not 2
    Ci = twice(u, v);
         ^
*/
