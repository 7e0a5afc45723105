surface test()
{
    Ci = 1;

/* EXPECT
65_missing_closing_brace.sl:4:1: error: expected '}' at end of file

^
*/
