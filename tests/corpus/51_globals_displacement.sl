/* 51_globals_displacement: reads the displacement globals (P dPdu dPdv N Ng I E u v du dv s t ncomps time dtime) and writes P and N. */
displacement dispglobals(
    float Km = 0.02;
    float frequency = 8;
    float animspeed = 0;)
{
    point pos = P;
    vector tu = dPdu, tv = dPdv;
    normal shadingN = normalize(N), geomN = normalize(Ng);
    vector inc = I;
    point eye = E;
    float uu = u, vv = v, duu = du, dvv = dv, ss = s, tt = t;
    uniform float nc = ncomps;
    uniform float phase = animspeed * (time + 0.5 * dtime);
    float bump, facing, fw;

    /* Band-limit the bumps using the parametric step sizes. */
    fw = max(length(tu * duu), length(tv * dvv));
    bump = sin(2 * PI * (frequency * (ss + tt) + phase)) *
           (1 - smoothstep(0.1, 0.5, fw * frequency));
    bump += 0.25 * (float noise(uu * frequency, vv * frequency));
    facing = abs(shadingN . normalize(inc)) + 0.01 * distance(eye, pos);

    P += Km * bump * shadingN * (nc / 3) * clamp(facing, 0, 1);
    N = calculatenormal(P);
    if ((N . geomN) < 0)
        N = -N;
}
