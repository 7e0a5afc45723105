/* 13_types_arrays: every data type, fixed-length arrays as parameters and locals, array initialisers and indexing, array formals. */
float sumfour(float a[4])
{
    uniform float k;
    float acc = 0;

    for (k = 0; k < 4; k += 1)
        acc += a[k];
    return acc;
}

surface typesarrays(
    float weights[4] = {0.1, 0.2, 0.3, 0.4};
    color palette[3] = {color(1, 0, 0), color(0, 1, 0), color(0, 0, 1)};
    string labels[2] = {"first", "second"};
    point anchors[2] = {point(0, 0, 0), point(1, 1, 1)};)
{
    float f = 1.5;
    color c = color(0.25, 0.5, 0.75);
    point p = point(1, 2, 3);
    vector v = vector(0, 1, 0);
    normal n = normal(0, 0, 1);
    matrix m = matrix(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
    string str = "hello";
    float vals[5] = {1, 2, 3, 4, 5};
    uniform float ufs[3] = {0.5, 0.25, 0.125};
    vector dirs[3];
    normal norms[2] = {normal(1, 0, 0), normal(0, 1, 0)};
    matrix mats[2];
    string words[3] = {"a", "b", "c"};
    float total = 0;
    uniform float i;
    color acc = 0;

    dirs[0] = v;
    dirs[1] = vector(1, 0, 0);
    dirs[2] = dirs[0] ^ dirs[1];
    mats[0] = m;
    mats[1] = matrix "object" 1;

    for (i = 0; i < 5; i += 1)
        total += vals[i];
    for (i = 0; i < 4; i += 1)
        total += weights[i] * ufs[mod(i, 3)];
    vals[2] = total / 5;
    total += sumfour(weights) + vals[2];

    for (i = 0; i < 3; i += 1)
        acc += palette[i] * weights[i + 1];

    f *= length(anchors[1] - anchors[0]) + (n . dirs[2]) +
         comp(mats[1], 0, 0) + xcomp(p) + (norms[0] . norms[1]);
    if (labels[0] == "first" && str != words[1])
        acc += c * 0.1;

    Oi = Os;
    Ci = Os * (acc + Cs * clamp(total * f * 0.01, 0, 1));
}
