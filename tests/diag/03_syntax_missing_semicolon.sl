surface test()
{
    float x = 1
    Ci = x;
}

/* EXPECT
03_syntax_missing_semicolon.sl:3:16: error: expected ';' after expression
    float x = 1
               ^
*/
