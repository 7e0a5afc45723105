surface test()
{
    Ci = 1;
}

/* EXPECT
98_stray_byte.sl:3:12: error: stray byte 0x01 in program
    Ci = 1;
           ^
*/
