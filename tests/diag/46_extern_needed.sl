surface test(float Kn = 0.5;)
{
    float bumpy(point p)
    {
        return Kn * noise(p);
    }
    float scaled(point p)
    {
        extern float Kn;
        return Kn * noise(p * 2);
    }
    Ci = bumpy(P) + scaled(P);
}

/* EXPECT
46_extern_needed.sl:5:16: error: 'Kn' belongs to an enclosing scope; function 'bumpy' must declare it 'extern' to use it
        return Kn * noise(p);
               ^
*/
