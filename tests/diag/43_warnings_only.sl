surface test(string map = "";)
{
    float x;
    color c = texture(map, "sharpness", 2);
    Ci = c * x;
}

/* EXPECT
43_warnings_only.sl:4:28: warning: unknown option 'sharpness' for 'texture'
    color c = texture(map, "sharpness", 2);
                           ^
43_warnings_only.sl:5:14: warning: variable 'x' may be used uninitialized
    Ci = c * x;
             ^
*/
