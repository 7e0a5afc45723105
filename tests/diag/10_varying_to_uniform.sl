surface test()
{
    uniform float k = 0;
    k = s * 2;
    Ci = k;
}

/* EXPECT
10_varying_to_uniform.sl:4:5: error: cannot assign varying value to uniform variable 'k'
    k = s * 2;
    ^
10_varying_to_uniform.sl:4:9: note: 's' is varying
    k = s * 2;
        ^
*/
