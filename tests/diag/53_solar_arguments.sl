light test()
{
    solar (P) {
        Cl = 1;
    }
}

/* EXPECT
53_solar_arguments.sl:3:5: error: invalid arguments to 'solar' (point); expected ([vector axis, float angle])
    solar (P) {
    ^
*/
