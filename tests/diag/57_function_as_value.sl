float f(float x)
{
    return x;
}

surface test()
{
    Ci = f + 1;
}

/* EXPECT
57_function_as_value.sl:8:10: error: 'f' is a function, not a variable
    Ci = f + 1;
         ^
*/
