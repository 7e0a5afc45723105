void flag(output uniform float k; varying float x)
{
    if (x > 0)
        k = 1;
}
surface t()
{
    uniform float k = 0;
    flag(k, s);
    Ci = k;
}

/* EXPECT
111_uniform_output_formal_under_varying.sl:4:9: error: cannot assign to uniform variable 'k' under a varying condition
        k = 1;
        ^
111_uniform_output_formal_under_varying.sl:3:11: note: the condition is varying here
    if (x > 0)
          ^
111_uniform_output_formal_under_varying.sl:1:32: note: 'k' is an output parameter, read by the caller after the condition
void flag(output uniform float k; varying float x)
                               ^
*/
