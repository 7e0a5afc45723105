/* mirror: a perfect mirror by ray tracing, over a little plastic. */
surface mirror(float Kr = 0.8, Ka = 1, Kd = 0.2, Ks = 0.5, roughness = 0.05;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    vector R = reflect(normalize(I), Nf);
    Oi = Os;
    Ci = Os * (Cs * (Ka * ambient() + Kd * diffuse(Nf)) + Ks * specular(Nf, V, roughness)
               + Kr * trace(P, R));
}
