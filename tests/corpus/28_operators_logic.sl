/* 28_operators_logic: relational operators, && and ||, logical ! and nested ?: conditionals, == and != on colours and strings. */
surface logicops(
    float lo = 0.25, hi = 0.75;
    string mode = "bands";
    color key = color(1, 0, 0);)
{
    float x = s, y = t;
    float inside, band, flag = 0;
    color C;

    inside = (x > lo && x < hi && y >= lo && y <= hi) ? 1 : 0;
    band = (x < lo || y < lo) ? 0 : ((x > hi || y > hi) ? 2 : 1);

    if (!(x == y) && !(inside > 0 || band != 1))
        flag = 1;
    if (!(x < y))
        flag += 0.5;
    if ((x > 0.5 && y > 0.5) || (x < 0.5 && y < 0.5))
        flag += 0.25;

    if (Cs == key || Cs != color(1, 1, 1))
        C = Cs;
    else
        C = color(0.5, 0.5, 0.5);

    if (mode == "bands")
        C *= 0.5 + 0.25 * band;
    else if (mode != "inside")
        C *= flag;
    else
        C *= inside;

    Oi = Os;
    Ci = Os * C * diffuse(faceforward(normalize(N), I));
}
