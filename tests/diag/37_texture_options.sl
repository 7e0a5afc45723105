surface test(string map = "grid.tx";)
{
    color c = texture(map, s, t, "blurr", 0.1);
    float f = texture(map[1], "width", "wide", "filter", "gaussian");
    Ci = c * f;
}

/* EXPECT
37_texture_options.sl:3:34: warning: unknown option 'blurr' for 'texture'
    color c = texture(map, s, t, "blurr", 0.1);
                                 ^
37_texture_options.sl:4:40: error: option 'width' of 'texture' must be 'float', not 'string'
    float f = texture(map[1], "width", "wide", "filter", "gaussian");
                                       ^
*/
