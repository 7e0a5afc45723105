float scale(float a; float b)
{
    return a * b;
}

color scale(color a; float b)
{
    return a * b;
}

surface test()
{
    Ci = scale("red", 2);
}

/* EXPECT
08_no_user_overload.sl:13:10: error: no function 'scale' taking (string, float)
    Ci = scale("red", 2);
         ^
08_no_user_overload.sl:1:7: note: candidate: float scale(float, float)
float scale(float a; float b)
      ^
08_no_user_overload.sl:6:7: note: candidate: color scale(color, float)
color scale(color a; float b)
      ^
*/
