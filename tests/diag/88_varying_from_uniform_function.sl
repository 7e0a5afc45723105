uniform float f()
{
    return u;
}

surface test()
{
    Ci = f();
}

/* EXPECT
88_varying_from_uniform_function.sl:3:12: error: cannot return varying value from uniform function 'f'
    return u;
           ^
*/
