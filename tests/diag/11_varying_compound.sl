surface test()
{
    uniform float k = 1;
    k += t;
    Ci = k;
}

/* EXPECT
11_varying_compound.sl:4:5: error: cannot assign varying value to uniform variable 'k'
    k += t;
    ^
11_varying_compound.sl:4:10: note: 't' is varying
    k += t;
         ^
*/
