void report(float x)
{
    printf("%f\n", x);
    return x;
}

surface test()
{
    report(s);
    Ci = Cs;
}

/* EXPECT
28_void_returns_value.sl:4:12: error: void function 'report' cannot return a value
    return x;
           ^
*/
