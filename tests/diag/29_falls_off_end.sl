float positive(float x)
{
    if (x > 0)
        return 1;
}

surface test()
{
    Ci = positive(s - 0.5);
}

/* EXPECT
29_falls_off_end.sl:1:7: warning: non-void function 'positive' may end without returning a value
float positive(float x)
      ^
*/
