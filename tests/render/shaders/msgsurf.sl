/* Message passing test: red the displacement's amp, green the sum of
   the lights' tags, and mark (for the atmosphere) 0.5 when shadername()
   names this shader and shadername("displacement") msgdisp. */
surface msgsurf(float Kd = 1; output varying float mark = 0)
{
    float amp = -1, sum = 0; /* varying: a per-point call (see host.h) */
    displacement("amp", amp);
    illuminance(P) {
        float tag = 0;
        if (lightsource("tag", tag) == 1)
            sum += tag;
    }
    mark = shadername() == "msgsurf" && shadername("displacement") == "msgdisp" ? 0.5 : 0;
    Ci = color(amp, sum, 0);
    Oi = 1;
}
