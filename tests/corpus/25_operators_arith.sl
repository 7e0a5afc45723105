/* 25_operators_arith: binary + - * / and unary minus on float, color, point, vector and normal operands, with float promotion. */
surface arith(float a = 3, b = 4;)
{
    float f1 = a + b, f2 = a - b, f3 = a * b, f4 = a / b, f5 = -a;
    float f6 = -(a + b) * 2 - -f5;
    float f7 = f1 + f2 * f3 - f4 / (f5 + 0.5);
    color c1 = Cs + color(0.1, 0.1, 0.1);
    color c2 = Cs - 0.05;
    color c3 = Cs * Os;
    color c4 = Cs * 0.5;
    color c5 = 2 * Cs;
    color c6 = Cs / 2;
    color c7 = -Cs;
    color c8 = 1 - Cs;
    point p1 = P + vector(0, 1, 0);
    vector v1 = P - point(0, 0, 0);
    point p2 = P * 2;
    point p3 = 0.5 * P;
    vector v2 = v1 / 2;
    vector v3 = -v1;
    vector v4 = (p1 - p3) - (p2 - P);
    normal n1 = N * 0.5 + normal(0, 0, 1);
    normal n2 = -N;
    float k;

    k = (f1 + f2 + f3 + f4 + f5 + f6 + f7) / 100;
    k += length(v2 + v3 + v4) * 0.001 + length(n1 + n2) * 0.001;
    Oi = Os;
    Ci = Os * ((c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8) / 8) * clamp(abs(k), 0, 1);
}
