/* 49_globals_surface: reads every surface global (Cs Os P dPdu dPdv N Ng u v du dv s t E I ncomps time dtime dPdtime; L Cl Ol) and writes Ci Oi. */
surface surfaceglobals(float Kd = 0.8; float motionscale = 0.1;)
{
    color base = Cs;
    color opac = Os;
    point pos = P;
    vector tu = dPdu, tv = dPdv;
    normal shadingN = N, geomN = Ng;
    float uu = u, vv = v, duu = du, dvv = dv;
    float ss = s, tt = t;
    point eye = E;
    vector inc = I;
    uniform float nc = ncomps, tm = time, dtm = dtime;
    vector motion = dPdtime;
    normal Nf = faceforward(normalize(shadingN), inc);
    color lit = 0, transmitted = 0;
    float param, facing, blur;

    /* L, Cl and Ol exist only inside illuminance. */
    illuminance(pos, Nf, PI / 2) {
        vector Ln = normalize(L);

        lit += Cl * (Ln . Nf);
        transmitted += Ol;
    }

    param = mod(uu + vv + ss + tt, 1) + 0.01 * (duu + dvv) * length(tu ^ tv);
    facing = abs(normalize(geomN) . normalize(eye - pos));
    blur = clamp(motionscale * length(motion) * (dtm + 0.01 * tm), 0, 1);

    Oi = opac;
    Ci = opac * base * Kd * (lit + 0.1 * transmitted) *
         mix(0.5 + 0.5 * param, 1, blur) * (0.75 + 0.25 * facing) * (nc / 3);
}
