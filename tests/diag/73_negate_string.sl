surface test(string s = "a";)
{
    string t = -s;
    Ci = 1;
}

/* EXPECT
73_negate_string.sl:3:16: error: invalid operand to '-' ('string')
    string t = -s;
               ^
*/
