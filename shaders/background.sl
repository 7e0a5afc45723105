/* background: fills whatever the geometry left uncovered with bgcolor. */
imager background(color bgcolor = 1;)
{
    Ci += (1 - alpha) * bgcolor;
    Oi = 1;
    alpha = 1;
}
