void setit(output float x; float v)
{
    x = v;
}

surface test()
{
    uniform float u = 0;
    setit(u, s);
    Ci = u;
}

/* EXPECT
55_output_uniform_from_varying.sl:9:11: error: cannot assign varying value to uniform variable 'u'
    setit(u, s);
          ^
*/
