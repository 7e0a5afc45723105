/* 19_control_flow: if / else if / else chains, while and for loops with break and continue, nested blocks with local scope. */
surface controlflow(float steps = 8; float threshold = 0.7;)
{
    float x = s, y = t;
    float acc = 0, i, j;
    color C = 0;

    if (x < 0.25)
        C = color(1, 0, 0);
    else if (x < 0.5)
        C = color(0, 1, 0);
    else if (x < 0.75) {
        C = color(0, 0, 1);
    } else {
        C = color(1, 1, 0);
    }

    i = 0;
    while (i < steps) {
        i += 1;
        if (mod(i, 2) == 0)
            continue;
        acc += 1 / i;
        if (acc > threshold)
            break;
    }

    for (j = 0; j < steps; j += 1) {
        float k = j / steps;

        if (k > y)
            break;
        if (k < 0.1)
            continue;
        acc += 0.01;
    }

    {
        float inner = acc * 0.5;

        acc = inner + 0.5 * acc;
    }

    if (acc > 1) {
        if (y > 0.5)
            acc = 1;
        else
            acc = 0.9;
    }

    Oi = Os;
    Ci = Os * C * clamp(acc, 0, 1);
}
