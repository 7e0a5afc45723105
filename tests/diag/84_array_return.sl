float[3] f()
{
    return 1;
}

surface test()
{
    Ci = 1;
}

/* EXPECT
84_array_return.sl:1:6: error: expected identifier before '['
float[3] f()
     ^
*/

/* EXPECT
84_array_return.sl:1:6: error: expected identifier before '['
float[3] f()
     ^
*/
