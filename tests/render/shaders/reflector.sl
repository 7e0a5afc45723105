/* reflector: exactly what the mirror direction sees, by trace(). */
surface reflector()
{
    Oi = 1;
    Ci = trace(P, reflect(normalize(I), normalize(N)));
}
