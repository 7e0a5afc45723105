surface test()
{
    float x = foo + 1;
    Ci = x;
}

/* EXPECT
01_unknown_ident.sl:3:15: error: unknown identifier 'foo'
    float x = foo + 1;
              ^
*/
