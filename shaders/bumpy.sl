/* bumpy: displaces the surface along its normal by a texture's first channel. */
displacement bumpy(float Km = 1; string texturename = "";)
{
    float amp = 0;
    if (texturename != "")
        amp = Km * float texture(texturename[0], s, t);
    P += amp * normalize(N);
    N = calculatenormal(P);
}
