surface test(string map = "";)
{
    Ci = texture(map[Cs]);
}

/* EXPECT
89_texture_channel.sl:3:22: error: texture channel must be a float, not 'color'
    Ci = texture(map[Cs]);
                     ^
*/
