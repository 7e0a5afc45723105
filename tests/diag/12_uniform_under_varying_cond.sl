surface test(float Kd = 1;)
{
    uniform float k = 0;
    if (s > 0.5)
        k = 1;
    Ci = k * Kd;
}

/* EXPECT
12_uniform_under_varying_cond.sl:5:9: error: cannot assign to uniform variable 'k' under a varying condition
        k = 1;
        ^
12_uniform_under_varying_cond.sl:4:11: note: the condition is varying here
    if (s > 0.5)
          ^
12_uniform_under_varying_cond.sl:6:10: note: 'k' is read here, outside the condition
    Ci = k * Kd;
         ^
*/
