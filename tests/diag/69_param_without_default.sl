surface test(float Kd;)
{
    Ci = Kd;
}

/* EXPECT
69_param_without_default.sl:1:20: error: shader parameter 'Kd' has no default value
surface test(float Kd;)
                   ^
*/
