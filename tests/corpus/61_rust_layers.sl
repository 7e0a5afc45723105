/* 61_rust_layers: rust patches eating through paint over metal, layered with noise thresholds, smoothstep and mix. */
surface rustedpaint(
    float Ka = 0.1, Kd = 0.7, Ks = 0.5;
    float roughness = 0.15;
    float rustamount = 0.45;
    float freq = 3;
    color paintcolor = color(0.1, 0.35, 0.2);
    color rustcolor = color(0.45, 0.2, 0.07);
    color metalcolor = color(0.55, 0.55, 0.6);)
{
    point PP = transform("shader", P) * freq;
    float n = 0, amp = 1;
    uniform float oct;
    float rustmask, chipmask, spec;
    normal Nf = faceforward(normalize(N), I);
    vector V = -normalize(I);
    color Ct;

    for (oct = 0; oct < 5; oct += 1) {
        n += amp * (float noise(PP));
        amp *= 0.5;
        PP *= 2.1;
    }
    n /= 1.9375;

    /* Rust where the noise is high; bare metal at the rim of the rust. */
    rustmask = smoothstep(1 - rustamount, 1 - rustamount + 0.08, n);
    chipmask = smoothstep(1 - rustamount - 0.06, 1 - rustamount, n) * (1 - rustmask);

    Ct = mix(paintcolor, metalcolor, chipmask);
    Ct = mix(Ct, rustcolor * (0.7 + 0.6 * (float noise(PP * 4))), rustmask);
    spec = Ks * (1 - rustmask) * (1 + chipmask);

    Oi = Os;
    Ci = Os * (Ct * (Ka * ambient() + Kd * diffuse(Nf)) +
               spec * specular(Nf, V, roughness + 0.2 * chipmask));
}
