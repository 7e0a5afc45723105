/* A comparison used as a value is the float 1 or 0 (PRMan, aqsl): a
   float, which cannot be assigned to a string. */
surface test()
{
    float b = s > 0.5;
    string name = s > 0.5;
    Ci = b;
}

/* EXPECT
45_comparison_as_value.sl:6:21: error: cannot assign 'float' to 'name' of type 'string'
    string name = s > 0.5;
                    ^
*/
