/* 22_illuminate_forms: light using illuminate(from) and illuminate(from, axis, angle), picked by a uniform switch. */
light dualemitter(
    float intensity = 1;
    color lightcolor = 1;
    point from = point "shader" (0, 0, 0);
    vector axis = vector "shader" (0, 0, 1);
    float angle = radians(45);
    uniform float conemode = 1;
    float decay = 2;)
{
    uniform vector A = normalize(axis);
    uniform float cosedge = cos(angle);

    if (conemode > 0) {
        /* Cone of half-angle "angle" about A, soft towards the edge. */
        illuminate(from, A, angle) {
            float cosang = normalize(L) . A;

            Cl = intensity * lightcolor * smoothstep(cosedge, 1, cosang) /
                 pow(max(length(L), 1e-3), decay);
        }
    } else {
        /* Omnidirectional point source. */
        illuminate(from)
            Cl = intensity * lightcolor / pow(max(length(L), 1e-3), decay);
    }
}
