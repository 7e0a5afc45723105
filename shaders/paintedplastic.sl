/* paintedplastic: plastic whose diffuse colour is modulated by a texture. */
surface paintedplastic(float Ks = .5, Kd = .5, Ka = 1, roughness = .1;
                       color specularcolor = 1;
                       string texturename = "";)
{
    color Ct = Cs;
    if (texturename != "")
        Ct *= color texture(texturename);
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) +
               specularcolor * Ks * specular(Nf, V, roughness));
}
