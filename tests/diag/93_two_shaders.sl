// RSLC: -S -o /dev/null
surface one()
{
    Ci = 1;
}

surface two()
{
    Ci = 0;
}

/* EXPECT
93_two_shaders.sl: error: 2 shaders in one file: an object holds one
*/
