/* plastic: diffuse base colour plus a white (specularcolor) highlight. */
surface plastic(float Ks = .5, Kd = .5, Ka = 1, roughness = .1;
                color specularcolor = 1;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) +
               specularcolor * Ks * specular(Nf, V, roughness));
}
