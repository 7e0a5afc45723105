surface test(string name = "";)
{
    Ci = mix(Cs, name, 0.5);
}

/* EXPECT
09_no_builtin_overload.sl:3:10: error: no function 'mix' taking (color, string, float)
    Ci = mix(Cs, name, 0.5);
         ^
*/
