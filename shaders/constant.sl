/* constant: flat colour, no lighting. */
surface constant()
{
    Oi = Os;
    Ci = Os * Cs;
}
