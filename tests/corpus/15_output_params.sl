/* 15_output_params: output shader parameters for message passing, and output function formals (scalars, vectors, an array). */
void splitcolor(color c; output float r, g, b)
{
    r = comp(c, 0);
    g = comp(c, 1);
    b = comp(c, 2);
}

float normalizeweights(output float w[3])
{
    float tot = w[0] + w[1] + w[2];

    if (tot > 0) {
        w[0] /= tot;
        w[1] /= tot;
        w[2] /= tot;
    }
    return tot;
}

void orthobasis(normal Nn; output vector tangent, bitangent)
{
    vector ref = (abs(xcomp(Nn)) < 0.9) ? vector(1, 0, 0) : vector(0, 1, 0);

    tangent = normalize(Nn ^ ref);
    bitangent = Nn ^ tangent;
}

surface outputs(
    float Kd = 0.8;
    output varying float luminance = 0;
    output varying color basecolor = 0;
    output uniform string tag = "outputs";)
{
    float r, g, b;
    float w[3] = {1, 2, 1};
    float tot;
    vector T, B;
    normal Nf = faceforward(normalize(N), I);

    splitcolor(Cs, r, g, b);
    tot = normalizeweights(w);
    luminance = w[0] * r + w[1] * g + w[2] * b;
    orthobasis(Nf, T, B);
    basecolor = Cs * (0.5 + 0.5 * abs(T . normalize(dPdu)) * tot / 4);
    tag = "done";

    Oi = Os;
    Ci = Os * basecolor * Kd * diffuse(Nf) * (0.5 + 0.5 * luminance);
}
