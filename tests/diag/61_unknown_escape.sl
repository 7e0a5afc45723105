surface test(string s = "a\qb";)
{
    Ci = 1;
}

/* EXPECT
61_unknown_escape.sl:1:25: warning: unknown escape sequence '\q'
surface test(string s = "a\qb";)
                        ^
*/
