float twice(float x = 1)
{
    return 2 * x;
}

surface test()
{
    Ci = twice(u);
}

/* EXPECT
70_formal_with_default.sl:1:23: error: function parameter 'x' cannot have a default value
float twice(float x = 1)
                      ^
*/
