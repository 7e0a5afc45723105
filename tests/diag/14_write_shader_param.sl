surface test(float Kd = 1;)
{
    Kd = 2;
    Ci = Kd;
}

/* EXPECT
14_write_shader_param.sl:3:5: error: cannot assign to 'Kd': it is not an output parameter
    Kd = 2;
    ^
*/
