surface test()
{
    uniform float lights = 0;
    uniform float i;
    illuminance (P, N, PI/2) {
        for (i = 0; i < 2; i += 1)
            lights += 0.5;
    }
    Ci = lights;
}

/* EXPECT
59_uniform_counted_in_illuminance.sl:7:13: error: cannot assign to uniform variable 'lights' under a varying condition
            lights += 0.5;
            ^
59_uniform_counted_in_illuminance.sl:5:5: note: the condition is varying here
    illuminance (P, N, PI/2) {
    ^
59_uniform_counted_in_illuminance.sl:9:10: note: 'lights' is read here, outside the condition
    Ci = lights;
         ^
*/
