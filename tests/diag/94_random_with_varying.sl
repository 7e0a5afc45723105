// random() in a uniform context draws once per batch; with anything
// else varying the value stays varying.
surface test()
{
    uniform float a = random() * 2;
    uniform float k = random() + t;
    uniform color c = 0;
    c = color(random(), noise(P), 0);
    Ci = a + k + c;
}

/* EXPECT
94_random_with_varying.sl:6:32: error: cannot assign varying value to uniform variable 'k'
    uniform float k = random() + t;
                               ^
94_random_with_varying.sl:6:34: note: 't' is varying
    uniform float k = random() + t;
                                 ^
94_random_with_varying.sl:8:5: error: cannot assign varying value to uniform variable 'c'
    c = color(random(), noise(P), 0);
    ^
94_random_with_varying.sl:8:31: note: 'P' is varying
    c = color(random(), noise(P), 0);
                              ^
*/
