surface test(float Kd = 1;)
{
    Ci = Kd(2);
}

/* EXPECT
56_not_a_function.sl:3:10: error: 'Kd' is not a function
    Ci = Kd(2);
         ^
*/
