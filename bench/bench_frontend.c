/*
** bench_frontend.c: milliseconds per shader for the rslc front end.
**
** For each shader named on the command line (default: the standard
** library), it preprocesses once, then times parsing plus type checking
** over many repetitions and reports the best and mean, with cpp's time
** beside it for scale (cpp is an external process).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rslc/ast.h"
#include "rslc/check.h"
#include "rslc/cpp.h"
#include "rslc/diag.h"
#include "rslc/parse.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    int reps = 200;
    RslcCtx rc = { 0 };
    CppOptions cpp = { NULL, 0 };
    double total_best = 0, total_cpp = 0;
    int nshaders = 0;

    printf("%-24s %10s %12s %12s\n", "shader", "cpp ms", "front ms", "(mean)");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
            continue;
        }
        size_t len;
        double t0 = now_ms();
        char *text = cpp_run(argv[i], &cpp, &len);
        double cpp_ms = now_ms() - t0;
        if (!text)
            return 1;
        double best = 1e30, sum = 0;
        for (int r = 0; r < reps; r++) {
            t0 = now_ms();
            Unit *unit = parse_rsl(&rc, text, len, argv[i]);
            bool ok = unit && check_unit(&rc, unit);
            double dt = now_ms() - t0;
            check_free(&rc);
            ast_free_all(&rc);
            if (!ok) {
                fprintf(stderr, "bench_frontend: %s does not check\n", argv[i]);
                return 1;
            }
            sum += dt;
            if (dt < best)
                best = dt;
        }
        free(text);
        const char *base = strrchr(argv[i], '/');
        printf("%-24s %10.3f %12.4f %12.4f\n", base ? base + 1 : argv[i],
               cpp_ms, best, sum / reps);
        total_best += best;
        total_cpp += cpp_ms;
        nshaders++;
    }
    if (nshaders == 0) {
        fprintf(stderr, "usage: bench_frontend [--reps N] FILE.sl...\n");
        return 1;
    }
    printf("%-24s %10.3f %12.4f   (per shader, %d shaders, %d reps)\n",
           "average", total_cpp / nshaders, total_best / nshaders, nshaders,
           reps);
    rslc_ctx_free(&rc);
    return 0;
}
