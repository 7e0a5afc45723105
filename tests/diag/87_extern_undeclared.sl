surface test()
{
    float helper()
    {
        extern float nothere;
        return nothere;
    }
    Ci = helper();
}

/* EXPECT
87_extern_undeclared.sl:5:22: error: extern variable 'nothere' is not declared in an enclosing scope
        extern float nothere;
                     ^
87_extern_undeclared.sl:6:16: error: unknown identifier 'nothere'
        return nothere;
               ^
*/
