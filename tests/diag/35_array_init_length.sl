surface test()
{
    float a[3] = {1, 2};
    Ci = a[0];
}

/* EXPECT
35_array_init_length.sl:3:18: error: array initializer has 2 elements, but 'a' has 3
    float a[3] = {1, 2};
                 ^
*/
