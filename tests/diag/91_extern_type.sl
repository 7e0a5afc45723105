surface test()
{
    float k = 1;
    float helper()
    {
        extern color k;
        return 1;
    }
    Ci = helper();
}

/* EXPECT
91_extern_type.sl:6:22: error: extern declaration of 'k' as 'color' does not match its type 'float'
        extern color k;
                     ^
91_extern_type.sl:3:11: note: 'k' is declared here
    float k = 1;
          ^
*/
