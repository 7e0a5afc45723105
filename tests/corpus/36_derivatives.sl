/* 36_derivatives: Du, Dv and Deriv of floats, colours and points, the globals du and dv, and area() for filter widths. */
surface derivs(float Kd = 0.8; float frequency = 12;)
{
    float ss = s * frequency, tt = t * frequency;
    float dsdu = Du(ss), dsdv = Dv(ss);
    float dtdu = Du(tt), dtdv = Dv(tt);
    float swidth = abs(dsdu * du) + abs(dsdv * dv);
    float twidth = abs(dtdu * du) + abs(dtdv * dv);
    color dCdu = Du(Cs), dCdv = Dv(Cs);
    vector dPu = Du(P), dPv = Dv(P);
    float dsdt = Deriv(ss, tt);
    color dCds = Deriv(Cs, s);
    point dPds = Deriv(P, s);
    float fw = sqrt(area(P));
    float lines, fade;

    /* Grid lines one filter width wide, faded out when too fine. */
    lines = 1 - smoothstep(0, swidth, mod(ss, 1)) * smoothstep(0, twidth, mod(tt, 1));
    fade = 1 - smoothstep(0.2, 0.6, max(swidth, twidth));
    lines *= fade;

    Oi = Os;
    Ci = Os * (Cs * (1 - lines) +
               0.01 * (dCdu + dCdv + dCds) * (dsdt + fw + length(dPu ^ dPv) + length(vector(dPds)))) *
         Kd * diffuse(faceforward(normalize(N), I));
}
