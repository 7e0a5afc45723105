float name()
{
    return "plastic";
}

surface test()
{
    Ci = name();
}

/* EXPECT
26_return_type_mismatch.sl:3:12: error: cannot return 'string' from 'name', which returns 'float'
    return "plastic";
           ^
*/
