/* 42_string_funcs: string parameters and locals, concat, format, printf, match, string comparison and string arrays. */
surface strings(
    string prefix = "tex";
    string basename = "wall";
    string ext = ".tx";
    float debug = 0;)
{
    string full = concat(prefix, "/", basename, ext);
    string twoparts = concat(prefix, basename);
    string described = format("%s (debug %f)", full, debug);
    string kinds[3] = {"brick", "wall", "tile"};
    float ismatch = match("^wall", basename);
    float istex = match("tx$", full);
    uniform float k;
    float which = 0;

    for (k = 0; k < 3; k += 1) {
        if (kinds[k] == basename)
            which = k + 1;
    }

    if (debug > 0) {
        printf("%s\n", described);
        printf("%s %f %f\n", twoparts, ismatch, istex);
        printf("P=%p N=%p C=%c u=%f v=%f\n", P, N, Cs, u, v);
    }

    Oi = Os;
    Ci = Os * Cs * (0.5 + 0.15 * which + 0.05 * ismatch) *
         diffuse(faceforward(normalize(N), I));
}
