/* ramp: bumps a surface up along its normal in proportion to s. */
displacement ramp(float Km = 1;)
{
    P += Km * s * normalize(N);
    N = calculatenormal(P);
}
