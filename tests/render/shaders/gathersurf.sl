/* gather test: rays along dir (camera space) in a cone of `angle`.
   show 0: the mean surface:Ci of the hits; show 1: (hits, misses) as
   fractions of the samples and the mean ray:length / 10. */
surface gathersurf(float angle = 0, samples = 4, show = 0; vector dir = vector "camera" (0, 0, 1))
{
    color c = 0, sum = 0;
    float d = 0, hits = 0, misses = 0, len = 0;
    gather("illuminance", P, dir, angle, samples, "surface:Ci", c, "ray:length", d) {
        hits += 1;
        sum += c;
        len += d;
    } else {
        misses += 1;
    }
    if (show == 0)
        Ci = hits > 0 ? sum / hits : 0;
    else
        Ci = color(hits / samples, misses / samples, hits > 0 ? len / hits / 10 : 0);
    Oi = 1;
}
