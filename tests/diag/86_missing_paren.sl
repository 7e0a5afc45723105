surface test()
{
    float a = (1 + 2;
    Ci = a;
}

/* EXPECT
86_missing_paren.sl:3:21: error: expected ')' before ';'
    float a = (1 + 2;
                    ^
*/
