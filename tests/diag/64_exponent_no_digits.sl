surface test()
{
    float x = 1e+;
    Ci = x;
}

/* EXPECT
64_exponent_no_digits.sl:3:15: error: exponent has no digits in '1e+'
    float x = 1e+;
              ^
*/
