surface test()
{
    float x = 1;
    float y = x[0];
    Ci = y;
}

/* EXPECT
34_index_non_array.sl:4:15: error: cannot index 'x': it is not an array
    float y = x[0];
              ^
*/
