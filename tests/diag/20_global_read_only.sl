surface test()
{
    s = s * 2;
    Ci = s;
}

/* EXPECT
20_global_read_only.sl:3:5: error: cannot assign to 's': it is read-only in surface shaders
    s = s * 2;
    ^
*/
