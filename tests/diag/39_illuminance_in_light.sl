light test()
{
    illuminance (P) {
        Cl = 1;
    }
}

/* EXPECT
39_illuminance_in_light.sl:3:5: error: 'illuminance' is only allowed in surface and volume shaders
    illuminance (P) {
    ^
*/
