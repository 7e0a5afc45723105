/* 04_checker: two-colour checkerboard in s/t chosen with ?:, softened at the edges by a derivative-sized smoothstep. */
surface checker(
    float Ka = .2, Kd = .8;
    float frequency = 8;
    color blackcolor = color(0.05, 0.05, 0.05);
    color whitecolor = 1;)
{
    float ss = s * frequency, tt = t * frequency;
    float sidx = floor(ss), tidx = floor(tt);
    float sfrac = ss - sidx, tfrac = tt - tidx;
    float parity = mod(sidx + tidx, 2);
    float fw, edge;
    normal Nf = faceforward(normalize(N), I);
    color Ct;

    Ct = (parity < 0.5) ? whitecolor : blackcolor;

    /* Fade towards grey where a square is too small to resolve. */
    fw = max(abs(Du(ss) * du) + abs(Dv(ss) * dv),
             abs(Du(tt) * du) + abs(Dv(tt) * dv));
    edge = smoothstep(0, fw, sfrac) * smoothstep(0, fw, 1 - sfrac) *
           smoothstep(0, fw, tfrac) * smoothstep(0, fw, 1 - tfrac);
    Ct = mix(0.5 * (whitecolor + blackcolor), Ct, clamp(edge, 0, 1));

    Oi = Os;
    Ci = Os * Ct * (Ka * ambient() + Kd * diffuse(Nf));
}
