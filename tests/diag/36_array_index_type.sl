surface test()
{
    float a[3] = {1, 2, 3};
    Ci = a["one"] + a[3];
}

/* EXPECT
36_array_index_type.sl:4:12: error: array index must be a float, not 'string'
    Ci = a["one"] + a[3];
           ^
36_array_index_type.sl:4:23: error: index 3 is out of range for 'float[3]'
    Ci = a["one"] + a[3];
                      ^
*/
