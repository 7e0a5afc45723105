/* envmirror: Kr times the environment map envname along the mirror
   direction, read in world space as RenderMan's maps are (shinymetal.sl),
   plus Kt times what trace() sees along it and Kd of diffuse() (either
   left out at 0). */
surface envmirror(float Kr = 1, Kt = 0, Kd = 0; string envname = "")
{
    normal Nf = faceforward(normalize(N), I);
    vector R = reflect(normalize(I), Nf);
    Oi = 1;
    Ci = Kr * color environment(envname, vtransform("world", R));
    if (Kt != 0)
        Ci += Kt * trace(P, R);
    if (Kd != 0)
        Ci += Kd * diffuse(Nf);
}
