// RSLC: -S -o /dev/null
float twice(float x)
{
    return 2 * x;
}

/* EXPECT
92_no_shader.sl: error: no shader to compile: the file defines only functions
*/
