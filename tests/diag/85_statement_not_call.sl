surface test()
{
    float a = 1;
    a + 1;
    Ci = a;
}

/* EXPECT
85_statement_not_call.sl:4:5: error: a statement must be an assignment or a function call, not an expression
    a + 1;
    ^
*/
