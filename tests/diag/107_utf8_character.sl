surface test()
{
    float café = 1;
    Ci = € + caf;
}

/* EXPECT
107_utf8_character.sl:3:14: error: non-ASCII character U+00E9 in program
    float café = 1;
             ^
107_utf8_character.sl:4:10: error: non-ASCII character U+20AC in program
    Ci = € + caf;
         ^
107_utf8_character.sl:4:14: error: expected an expression before '+'
    Ci = € + caf;
             ^
*/
