surface test()
{
    Ci = color(1, "red", 0);
}

/* EXPECT
96_triple_component.sl:3:19: error: triple component must be a float, not 'string'
    Ci = color(1, "red", 0);
                  ^
*/
