surface test()
{
    vector l = L;
    Ci = l . N;
}

/* EXPECT
21_L_outside_illuminance.sl:3:16: error: 'L' is only available inside illuminance
    vector l = L;
               ^
*/
