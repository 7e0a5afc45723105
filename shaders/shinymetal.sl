/* shinymetal: metal plus a reflection looked up in an environment map. */
surface shinymetal(float Ka = 1, Ks = 1, Kr = 1, roughness = .1;
                   string texturename = "";)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector D = reflect(I, normalize(Nf));
    D = vtransform("world", D);
    color env = 0;
    if (texturename != "")
        env = Kr * color environment(texturename, D);
    Oi = Os;
    Ci = Os * Cs * (Ka * ambient() + Ks * specular(Nf, V, roughness) + env);
}
