surface test()
{
    Ci = 0;
    gather("illuminance", P, N, 0, 4, "surface:Ci", 1) {
        Ci += 1;
    }
}

/* EXPECT
100_gather_output_needs_variable.sl:4:53: error: option 'surface:Ci' of 'gather' needs a variable to store into
    gather("illuminance", P, N, 0, 4, "surface:Ci", 1) {
                                                    ^
*/
