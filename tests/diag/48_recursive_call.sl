float fact(float n)
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

surface test()
{
    Ci = fact(3);
}

/* EXPECT
48_recursive_call.sl:3:29: error: recursive call to 'fact': RSL functions cannot be recursive
    return n <= 1 ? 1 : n * fact(n - 1);
                            ^
*/
