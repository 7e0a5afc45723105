surface test()
{
    Ci = Cs;
    if (s > 0.5)
        return;
}

/* EXPECT
25_return_in_shader.sl:5:9: error: 'return' outside a function
        return;
        ^
*/
