surface test()
{
    Ci = 1 @ 2;
}

/* EXPECT
62_stray_character.sl:3:12: error: stray '@' in program
    Ci = 1 @ 2;
           ^
62_stray_character.sl:3:12: error: expected ';' after expression
    Ci = 1 @ 2;
           ^
*/
