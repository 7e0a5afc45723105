float half(float x)
{
    if (x < 0)
        return;
    return x / 2;
}

surface test()
{
    Ci = half(s);
}

/* EXPECT
27_missing_return_value.sl:4:9: error: non-void function 'half' must return a value
        return;
        ^
*/
