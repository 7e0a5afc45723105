/* showtex: a texture's color at (s, t), opaque. */
surface showtex(string texturename = "";)
{
    Oi = 1;
    Ci = color texture(texturename, s, t);
}
