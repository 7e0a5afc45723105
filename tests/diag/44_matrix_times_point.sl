surface test()
{
    matrix m = 1;
    point q = m * P;
    Ci = length(q);
}

/* EXPECT
44_matrix_times_point.sl:4:17: error: cannot multiply 'matrix' by 'point'; use transform()
    point q = m * P;
                ^
*/
