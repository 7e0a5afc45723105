surface test(string s = "\777";)
{
    Ci = 1;
}

/* EXPECT
83_escape_out_of_range.sl:1:25: error: escape sequence out of range
surface test(string s = "\777";)
                        ^
*/
