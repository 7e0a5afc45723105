surface test()
{
    illuminate (P) {
        Ci = 1;
    }
}

/* EXPECT
38_illuminate_in_surface.sl:3:5: error: 'illuminate' is only allowed in light shaders
    illuminate (P) {
    ^
*/
