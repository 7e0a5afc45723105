surface test()
{
    float f = float "world" 1;
    Ci = f;
}

/* EXPECT
82_space_on_float.sl:3:15: error: a 'float' cannot be given a coordinate space
    float f = float "world" 1;
              ^
*/
