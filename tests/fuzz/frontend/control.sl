/* Loops, branches, arrays, illuminance and the ternary operator. */
surface control(float n = 4; float a[3] = { 1, 2, 3 }; output varying float o = 0;)
{
    float i, sum = 0;
    for (i = 0; i < n; i += 1) {
        if (i == 2)
            continue;
        sum += a[i] * (i > 1 ? 2 : 1);
        if (sum > 100)
            break;
    }
    while (sum > 1)
        sum /= 2;
    color c = 0;
    illuminance(P, N, PI / 2) {
        c += Cl * normalize(L) . normalize(N);
    }
    o = sum;
    Ci = c + sum;
}
