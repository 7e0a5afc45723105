surface test()
{
    Ci = ▒;
}

/* EXPECT
97_non_ascii.sl:3:10: error: non-ASCII characters in program
    Ci = ▒;
         ^
97_non_ascii.sl:3:13: error: expected an expression before ';'
    Ci = ▒;
            ^
*/
