surface test()
{
    float x = pow(2);
    Ci = x;
}

/* EXPECT
06_wrong_arg_count.sl:3:15: error: 'pow' takes 2 arguments, not 1
    float x = pow(2);
              ^
*/
