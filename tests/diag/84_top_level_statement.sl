float x = 1;

surface test()
{
    Ci = 1;
}

/* EXPECT
84_top_level_statement.sl:1:9: error: expected '(' before '='
float x = 1;
        ^
*/
