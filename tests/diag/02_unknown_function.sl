surface test()
{
    float x = bar(1, "a");
    Ci = x;
}

/* EXPECT
02_unknown_function.sl:3:15: error: unknown function 'bar'
    float x = bar(1, "a");
              ^
*/
