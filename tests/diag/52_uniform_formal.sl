float octaves(uniform float n)
{
    return n * 2;
}

surface test()
{
    Ci = octaves(1) + octaves(s);
}

/* EXPECT
52_uniform_formal.sl:8:31: error: cannot pass varying value to uniform parameter 'n' of 'octaves'
    Ci = octaves(1) + octaves(s);
                              ^
*/
