/* 48_message_volume: volume-side message passing with incident() and opposite(), attribute() and option() in an interior shader. */
volume tintedinterior(
    float density = 0.5;
    color absorb = color(0.2, 0.05, 0.02);
    output varying float pathlength = 0;)
{
    float insideeta = 1, outsideeta = 1;
    color incidentCs = 1;
    uniform float clip[2] = {0.1, 1000};
    uniform float matte = 0;
    float d;
    color trans;

    /* Parameters of the volume shaders on either side of the surface. */
    if (incident("eta", insideeta) == 0)
        insideeta = 1;
    if (opposite("eta", outsideeta) == 0)
        outsideeta = 1;
    if (incident("tint", incidentCs) == 0)
        incidentCs = 1;
    option("Clipping", clip);
    attribute("Matte", matte);

    d = min(length(I), clip[1]);
    pathlength = d;

    /* Beer-Lambert absorption along the ray. */
    trans = color(exp(-density * comp(absorb, 0) * d),
                  exp(-density * comp(absorb, 1) * d),
                  exp(-density * comp(absorb, 2) * d));
    Ci = Ci * trans * incidentCs * ((insideeta > outsideeta) ? 1 : 0.95);
    Oi = Oi * ((matte > 0) ? 1 : 1 - 0.1 * density);
}
