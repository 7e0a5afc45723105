surface test()
{
    vector3 x = 1;
    Ci = 1;
}

/* EXPECT
81_unknown_type.sl:3:5: error: unknown type 'vector3'
    vector3 x = 1;
    ^
*/
