surface test()
{
    uniform float k = t;
    Ci = k;
}

/* EXPECT
13_varying_initializer.sl:3:23: error: cannot assign varying value to uniform variable 'k'
    uniform float k = t;
                      ^
13_varying_initializer.sl:3:23: note: 't' is varying
    uniform float k = t;
                      ^
*/
