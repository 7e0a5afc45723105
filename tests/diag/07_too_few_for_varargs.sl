surface test()
{
    float m = min(s);
    float n = atan(s, t, 1);
    Ci = m + n;
}

/* EXPECT
07_too_few_for_varargs.sl:3:15: error: 'min' takes at least 2 arguments, not 1
    float m = min(s);
              ^
07_too_few_for_varargs.sl:4:15: error: 'atan' takes 1 or 2 arguments, not 3
    float n = atan(s, t, 1);
              ^
*/
