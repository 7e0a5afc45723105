surface test(float Kd = 1;)
{
    float a = undefined1;
    color c = Cs + P;
    Kd = a;
    a = nosuchfunc(a);
    Ci = c;
}

/* EXPECT
42_many_errors.sl:3:15: error: unknown identifier 'undefined1'
    float a = undefined1;
              ^
42_many_errors.sl:4:18: error: invalid operands to '+' ('color' and 'point')
    color c = Cs + P;
                 ^
42_many_errors.sl:5:5: error: cannot assign to 'Kd': it is not an output parameter
    Kd = a;
    ^
42_many_errors.sl:6:9: error: unknown function 'nosuchfunc'
    a = nosuchfunc(a);
        ^
*/
