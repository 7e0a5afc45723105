light t(output uniform float __nonspecular = 0;)
{
    color tint = 1;
    if (surface("tint", tint) == 0)
        __nonspecular = 1;
    illuminate(point "shader" (0,0,0)) {
        Cl = 1;
    }
}

/* EXPECT
110_uniform_output_under_varying.sl:5:9: error: cannot assign to uniform variable '__nonspecular' under a varying condition
        __nonspecular = 1;
        ^
110_uniform_output_under_varying.sl:4:31: note: the condition is varying here
    if (surface("tint", tint) == 0)
                              ^
110_uniform_output_under_varying.sl:1:30: note: '__nonspecular' is an output parameter, read by the renderer after the condition
light t(output uniform float __nonspecular = 0;)
                             ^
*/
