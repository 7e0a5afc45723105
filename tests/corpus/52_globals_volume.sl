/* 52_globals_volume: reads the volume shader globals (P I E Ci Oi ncomps time dtime) and writes Ci and Oi. */
volume volumeglobals(
    float density = 0.1;
    color scatter = color(0.6, 0.7, 0.8);
    float drift = 0;)
{
    point endpoint = P;
    vector ray = I;
    point eye = E;
    color incoming = Ci;
    color incomingop = Oi;
    uniform float nc = ncomps;
    uniform float shift = drift * (time + dtime);
    point start = endpoint - ray;
    float dist = length(ray);
    float lumpy = float noise(endpoint + vector(shift, 0, 0));
    float trans;

    /* Attenuate by the distance travelled, noisier away from the eye. */
    trans = exp(-density * dist * (0.75 + 0.5 * lumpy));
    trans = mix(trans, 1, clamp(0.001 * distance(start, eye), 0, 0.1));

    Ci = incoming * trans + (1 - trans) * scatter * (nc / 3);
    Oi = incomingop * trans + (1 - trans);
}
