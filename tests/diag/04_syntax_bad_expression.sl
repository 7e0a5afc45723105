surface test(float Kd = 1;)
{
    Ci = (Kd + ;
}

/* EXPECT
04_syntax_bad_expression.sl:3:16: error: expected an expression before ';'
    Ci = (Kd + ;
               ^
*/
