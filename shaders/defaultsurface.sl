/* defaultsurface: RenderMan's surface for primitives given none. It sees
   no lights: a headlight at the eye, Ka + Kd cos^2 of the angle between
   the view ray and the normal, so silhouettes darken and facing parts are
   brightest. */
surface defaultsurface(float Kd = .8, Ka = .2)
{
    float c = normalize(I) . normalize(N);
    Oi = Os;
    Ci = Os * Cs * (Ka + Kd * c * c);
}
