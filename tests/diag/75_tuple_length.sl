surface test()
{
    color c = (1, 2);
    Ci = c;
}

/* EXPECT
75_tuple_length.sl:3:15: error: a parenthesised list must have 3 elements (a triple) or 16 (a matrix), not 2
    color c = (1, 2);
              ^
*/
