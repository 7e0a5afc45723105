// RSLC: -S -o /dev/null
surface test()
{
    float i;
    for (i = 0; i < 2; i += 1) {
        illuminance(P) {
            break;
        }
    }
}

/* EXPECT
102_break_out_of_illuminance.sl:7:13: error: 'break' cannot leave an illuminance or gather statement
            break;
            ^
*/
