/* 30_casts_constructors: space-qualified triple, colour and matrix constructors, 16-float matrices and type casts. */
surface casts(float hue = 0.6; float sat = 0.7;)
{
    point pw = point "world" (0, 0, 0);
    point pc = point "camera" (1, 2, 3);
    point ps = point "shader" (xcomp(P), 0, 0);
    point pplain = point (1, 1, 1);
    vector vc = vector "camera" (0, 0, 1);
    vector vo = vector "object" (1, 0, 0);
    normal nw = normal "world" (0, 1, 0);
    normal nplain = normal (0, 0, 1);
    color hsv = color "hsv" (hue, sat, 0.9);
    color hsl = color "hsl" (hue, sat, 0.5);
    color rgb = color "rgb" (0.2, 0.4, 0.6);
    color yiq = color "YIQ" (0.5, 0.1, 0.1);
    color plain = color (0.3, 0.3, 0.3);
    matrix ms = matrix "shader" 1;
    matrix mc = matrix "camera" 1;
    matrix m16 = matrix (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    matrix m16w = matrix "world" (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, 0, 0, 1);
    float fn = float noise(P);
    color cn = color noise(P);
    point pn = point noise(P);
    vector vn = vector noise(P);
    color grey = color 0.5;
    color greyparen = color (0.25);
    point pone = point 1;
    vector vfromp = vector (P - pw);
    vector vcast = vector P;
    normal ncast = normal dPdu;
    point pfromv = point vc;
    float sum;

    sum = fn + length(vfromp) * 0.01 + (nw . nplain) + length(vcast - vector pn);
    sum += xcomp(transform(ms * mc, pc)) * 0.01 + determinant(m16 * m16w);
    sum += (vo . vn) + (ncast . vc) + zcomp(pfromv) + xcomp(pone) + xcomp(ps) + ycomp(pplain);

    Oi = Os;
    Ci = Os * (0.2 * (hsv + hsl + rgb + yiq + plain) + 0.1 * cn * grey + greyparen) *
         clamp(abs(sum) * 0.1, 0, 1);
}
