/* 50_globals_light: reads the light shader globals (P dPdu dPdv N Ng u v du dv s t Ps E ncomps time dtime; L in illuminate) and writes Cl Ol. */
light lightglobals(
    float intensity = 1;
    color lightcolor = 1;
    point from = point "shader" (0, 0, 0);
    float flicker = 0;)
{
    point onlight = P;
    vector lu = dPdu, lv = dPdv;
    normal ln = N, lg = Ng;
    float texsum = s + t + u + v + du + dv;
    point shaded = Ps;
    point eye = E;
    uniform float nc = ncomps;
    uniform float wobble = 1 + flicker * sin(2 * PI * 7 * time) * (1 + dtime);
    float facing = (length(lu ^ lv) > 0) ? 1 : 0.5;
    float eyedist = distance(eye, shaded);
    float lnsum = length(ln + lg) + distance(onlight, from);

    illuminate(from) {
        float d2 = L . L;

        Cl = intensity * wobble * lightcolor / max(d2, 1e-6);
        Cl *= facing * (1 + 0.0001 * (texsum + lnsum + eyedist)) * (nc / 3);
        Ol = 1;
    }
}
