/* 20_break_continue_n: multi-level "break 2" and "continue 2" leaving or restarting outer loops from nested for and while loops. */
surface multilevel(
    uniform float rows = 6, cols = 6;
    float Kd = 0.8;)
{
    float i, j;
    float hits = 0, found = 0;
    float cell;

    for (i = 0; i < rows; i += 1) {
        for (j = 0; j < cols; j += 1) {
            cell = float cellnoise(i + s * rows, j + t * cols);
            if (cell < 0.1)
                continue 2;     /* skip the rest of this row */
            if (cell > 0.95) {
                found = 1;
                break 2;        /* leave both loops */
            }
            hits += cell;
        }
    }

    j = 0;
    while (j < cols) {
        j += 1;
        for (i = 0; i < rows; i += 1) {
            if (i > j)
                continue 2;     /* next iteration of the while */
            if (i + j > rows + cols - 3)
                break 2;        /* out of the while */
            hits += 0.01;
        }
    }

    i = 0;
    while (i < 3) {
        i += 1;
        j = 0;
        while (j < 3) {
            j += 1;
            if (hits > 10)
                break 1;        /* explicit level 1 */
            if (j == i)
                continue 1;
            hits += 0.001;
        }
    }

    Oi = Os;
    Ci = Os * Cs * Kd * diffuse(faceforward(normalize(N), I)) *
         ((found > 0) ? 1 : clamp(hits / (rows * cols), 0, 1));
}
