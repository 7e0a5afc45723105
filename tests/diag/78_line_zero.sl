surface test()
{
#line 0
    Ci = nope;
}

/* EXPECT
78_line_zero.sl:0:10: error: unknown identifier 'nope'
*/
