surface test()
{
    float x = sqrt("four");
    Ci = x;
}

/* EXPECT
05_wrong_arg_type.sl:3:20: error: argument 1 of 'sqrt' must be 'float', not 'string'
    float x = sqrt("four");
                   ^
*/
