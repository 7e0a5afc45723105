/* 16_extern_nested: functions nested in the shader body and inside another function, reading and writing outer variables via extern. */
surface externnested(
    float Knoise = 0.5;
    float freq = 3;)
{
    color base = Cs;
    float counter = 0;

    /* Reads a shader parameter, as in the RISpec example. */
    color shadernoise(point p)
    {
        extern float Knoise;

        return Knoise * (color noise(transform("shader", p)));
    }

    float layered(point p)
    {
        extern float freq;
        float acc = 0;
        point lp = p;

        /* Nested one level deeper: updates layered's acc and the shader's counter. */
        void addoctave(float octscale)
        {
            extern float acc;
            extern point lp;
            extern float freq;
            extern float counter;

            acc += (float noise(lp * freq * octscale)) / octscale;
            counter += 1;
        }

        addoctave(1);
        addoctave(2);
        addoctave(4);
        return acc;
    }

    void tint(output color c)
    {
        extern color base;
        extern point P;

        c = base * (0.75 + 0.25 * (float noise(P)));
    }

    color C;

    tint(C);
    C += shadernoise(P) * layered(P);
    Oi = Os;
    Ci = Os * C * diffuse(faceforward(normalize(N), I)) / max(counter, 1);
}
