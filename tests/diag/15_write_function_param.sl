float twice(float x)
{
    x *= 2;
    return x;
}

surface test()
{
    Ci = twice(s);
}

/* EXPECT
15_write_function_param.sl:3:5: error: cannot assign to 'x': it is not an output parameter
    x *= 2;
    ^
*/
