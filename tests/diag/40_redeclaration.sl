surface test()
{
    float x = 1;
    color x = 2;
    Ci = x;
}

/* EXPECT
40_redeclaration.sl:4:11: error: redefinition of 'x'
    color x = 2;
          ^
40_redeclaration.sl:3:11: note: previous declaration is here
    float x = 1;
          ^
*/
