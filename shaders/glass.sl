/* glass: a clear dielectric of index eta (outside 1), by trace(): the
   Fresnel reflection and transmission at the surface, entering where
   the ray meets the side N points to. */
surface glass(float eta = 1.5;)
{
    normal Nn = normalize(N);
    vector In = normalize(I);
    float ratio = In . Nn < 0 ? 1 / eta : eta;
    normal Nf = faceforward(Nn, In);
    float kr, kt;
    vector R, T;
    fresnel(In, Nf, ratio, kr, kt, R, T);
    Oi = 1;
    Ci = kr * trace(P, R) + kt * trace(P, T);
}
