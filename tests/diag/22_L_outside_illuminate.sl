light test(point from = point "shader" (0, 0, 0);)
{
    Cl = length(L);
    illuminate (from) {
        Cl = 1 / (L . L);
    }
}

/* EXPECT
22_L_outside_illuminate.sl:3:17: error: 'L' is only available inside illuminate or solar
    Cl = length(L);
                ^
*/
