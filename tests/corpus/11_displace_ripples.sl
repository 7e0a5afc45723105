/* 11_displace_ripples: displacement with damped concentric sine ripples animated by time, rebuilding N with calculatenormal. */
displacement ripples(
    float Km = 0.05;
    float frequency = 20;
    float damping = 3;
    float speed = 0;
    point centre = point "shader" (0, 0, 0);
    string space = "shader";)
{
    point PP = transform(space, P);
    point C = transform(space, centre);
    float r = distance(PP, C);
    float phase = 2 * PI * speed * time;
    float amp;
    normal Nn = normalize(N);
    float spacescale;

    amp = Km * exp(-damping * r) * sin(2 * PI * frequency * r - phase);

    /* Km is measured in the named space: convert to current space. */
    spacescale = length(vtransform(space, "current", vector(1, 0, 0)));

    P += amp * spacescale * Nn;
    N = calculatenormal(P);
}
