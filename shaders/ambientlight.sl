/* ambientlight: constant light from no direction (L is left zero). */
light ambientlight(float intensity = 1; color lightcolor = 1;)
{
    Cl = intensity * lightcolor;
}
