// RSLC: -S -o /dev/null
color lit()
{
    illuminance(P) {
        return Cl;
    }
    return 0;
}

surface test()
{
    Ci = lit();
}

/* EXPECT
103_return_in_illuminance.sl:5:9: error: 'return' inside an illuminance, illuminate, solar or gather statement is not supported
        return Cl;
        ^
*/
