light test(float intensity = 1;)
{
    Cl = intensity;
    L = 0;
}

/* EXPECT
104_L_set_in_ambient_light.sl:4:5: warning: 'L' set outside illuminate or solar has no effect: only they give a light its direction
    L = 0;
    ^
*/
