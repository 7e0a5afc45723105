surface test(Kd = 1;)
{
    Ci = Kd;
}

/* EXPECT
90_expected_type.sl:1:14: error: expected a type before identifier 'Kd'
surface test(Kd = 1;)
             ^
*/
