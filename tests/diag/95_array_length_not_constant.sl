// An array length may be a constant expression (aqsl and PRMan accept
// "float a[(1+1+1)]"), but not one that needs a value of the shader.
surface test(float n = 3)
{
    float ok[(1 + 1) * 2 - 1];
    float a[n], b[2 / 4];
    Ci = ok[2];
}

/* EXPECT
95_array_length_not_constant.sl:6:13: error: array length must be a constant: a number, or numbers joined by + - * /
    float a[n], b[2 / 4];
            ^
95_array_length_not_constant.sl:6:19: error: array length must be a whole number from 1 to 1048576
    float a[n], b[2 / 4];
                  ^
*/
