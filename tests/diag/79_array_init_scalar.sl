surface test()
{
    float x = { 1, 2 };
    Ci = x;
}

/* EXPECT
79_array_init_scalar.sl:3:15: error: cannot initialize 'x' with an array initializer
    float x = { 1, 2 };
              ^
*/
