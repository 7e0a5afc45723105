surface test()
{
    float kt;
    fresnel(I, N, 1.5, 0.5, kt);
    Ci = kt;
}

/* EXPECT
47_output_arg_not_variable.sl:4:24: error: argument 4 of 'fresnel' must be a variable: the parameter is 'output'
    fresnel(I, N, 1.5, 0.5, kt);
                       ^
*/
