surface base()
{
    Ci = Cs;
}

surface layered()
{
    base();
    Ci *= 0.5;
}

/* EXPECT
41_call_shader.sl:8:5: error: 'base' is a surface shader and cannot be called
    base();
    ^
*/
