/* glossy: RSL's two highlight models side by side, for the path
   tracer's glossy lobes (check_path). */
surface glossy(float Kd = 0, Ks = 0, Kp = 0, roughness = .1, size = 4;)
{
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    Oi = Os;
    Ci = Kd * diffuse(Nf) + Ks * specular(Nf, V, roughness) + Kp * phong(Nf, V, size);
}
