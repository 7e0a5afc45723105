surface test()
{
    float a[];
    Ci = 1;
}

/* EXPECT
67_array_needs_length.sl:3:11: error: array 'a' needs a length
    float a[];
          ^
*/
