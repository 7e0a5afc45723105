float luma(color c)
{
    return comp(c, 1);
}

float luma(color c)
{
    return (comp(c, 0) + comp(c, 1) + comp(c, 2)) / 3;
}

surface test()
{
    Ci = luma(Cs);
}

/* EXPECT
49_function_redefinition.sl:6:7: error: redefinition of function 'luma'
float luma(color c)
      ^
49_function_redefinition.sl:1:7: note: previous definition is here
float luma(color c)
      ^
*/
