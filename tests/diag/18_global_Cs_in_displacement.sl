displacement test(float Km = 0.1;)
{
    P += Km * comp(Cs, 0) * normalize(N);
    N = calculatenormal(P);
}

/* EXPECT
18_global_Cs_in_displacement.sl:3:20: error: 'Cs' is not available in displacement shaders, only in surface shaders
    P += Km * comp(Cs, 0) * normalize(N);
                   ^
*/
