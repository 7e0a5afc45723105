surface test()
{
    Ci = 1;
}

surface test()
{
    Ci = 0;
}

/* EXPECT
71_shader_redefinition.sl:6:9: error: redefinition of shader 'test'
surface test()
        ^
71_shader_redefinition.sl:1:9: note: previous definition is here
surface test()
        ^
*/
