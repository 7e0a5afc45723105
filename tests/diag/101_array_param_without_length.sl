// RSLC: -S -o /dev/null
float first(float a[])
{
    return a[0];
}

surface test()
{
    float b[2] = { 1, 2 };
    Ci = first(b);
}

/* EXPECT
101_array_param_without_length.sl:2:19: error: array parameter 'a' without a length is not supported
float first(float a[])
                  ^
*/
