light test(float intensity = 1;)
{
    Cl = intensity;
    Ci = Cl;
}

/* EXPECT
17_global_Ci_in_light.sl:4:5: error: 'Ci' is not available in light shaders, only in surface, volume and imager shaders
    Ci = Cl;
    ^
*/
