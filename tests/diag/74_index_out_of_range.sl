surface test()
{
    float a[3] = { 1, 2, 3 };
    Ci = a[5];
}

/* EXPECT
74_index_out_of_range.sl:4:12: error: index 5 is out of range for 'float[3]'
    Ci = a[5];
           ^
*/
