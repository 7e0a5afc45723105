/* 44_texture_calls: texture() with no coordinates, (s,t), four corners, channel selection name[n], float/color results and options. */
surface texcalls(
    string texname = "";
    string bumpname = "";
    float blur = 0.01;
    float Kd = 0.8;)
{
    color Ct = Cs;
    float alphamask = 1, height = 0;
    float ss = s, tt = 1 - t;
    float ds = 0.5 * abs(Du(ss) * du), dt = 0.5 * abs(Dv(tt) * dv);

    if (texname != "") {
        /* Implicit (s,t) and explicit coordinates. */
        Ct = color texture(texname);
        Ct = 0.5 * (Ct + color texture(texname, ss, tt));

        /* One channel, as a float: channel 3 is alpha. */
        alphamask = float texture(texname[3], ss, tt);

        /* Four-corner filter region with options. */
        Ct = color texture(texname, ss - ds, tt - dt, ss + ds, tt - dt,
                           ss - ds, tt + dt, ss + ds, tt + dt,
                           "blur", blur, "filter", "gaussian");

        /* Channel selection with a colour result and many options. */
        Ct = mix(Ct, color texture(texname[0], ss, tt, "swidth", 2, "twidth", 2,
                                   "sblur", blur, "tblur", blur, "fill", 1), 0.5);
    }
    if (bumpname != "")
        height = texture(bumpname[1], s, t, "blur", 0.01, "width", 2);

    Oi = Os * alphamask;
    Ci = Oi * Ct * Kd * (1 + 0.1 * height) * diffuse(faceforward(normalize(N), I));
}
