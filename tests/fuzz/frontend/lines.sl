# 1 "lines.sl"
# 1 "<built-in>"
# 1 "lines.sl"
/* Line markers as cpp writes them, then an include's lines. */
# 1 "inc.h" 1
float twice(float x) { return 2 * x; }
# 6 "lines.sl" 2
surface lines(float Kd = 1; string name = "a";)
{
    Ci = twice(Kd) * color(s, t, 0);
}
