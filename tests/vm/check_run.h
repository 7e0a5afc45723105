/*
** check_run.h: the compile-run-verify suite's case format. A case is an
** RSL surface shader named "t", the variable to check after it runs (a
** global such as Ci, or an output parameter), and an independent C
** computation of the expected value at each grid point (u, v) of a 4 x 4
** grid (vm/grid.h has the other globals). check_run.c compiles each case
** at -O0 and at -O2, runs both on the VM and compares every point.
**
** Expected values come from the RISpec definitions or by hand, never from
** our own output: write them as C that a reader can check.
*/
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

typedef void (*RunExpect)(float u, float v, float *out);

typedef struct RunCase {
    const char *name;
    const char *src;          /* defines surface t */
    const char *var;          /* what to compare */
    int ncomp;                /* its floats: 1, 3 or 16 */
    RunExpect expect;
    float tol;                /* absolute tolerance per component */
} RunCase;

/* The opening of a case's shader t with an output parameter r of each
   type, for cases that check r. */
#define R_FLOAT "surface t(output varying float r = 0) { "
#define R_POINT "surface t(output varying point r = 0) { "
#define R_VECTOR "surface t(output varying vector r = 0) { "
#define R_NORMAL "surface t(output varying normal r = 0) { "
#define R_MATRIX "surface t(output varying matrix r = 0) { "

/* The case tables, one per file (tests/vm/run_*.c). */
extern const RunCase run_basic[];
extern const int run_basic_count;
extern const RunCase run_shaders[];
extern const int run_shaders_count;
extern const RunCase run_ops[];
extern const int run_ops_count;
extern const RunCase run_flow[];
extern const int run_flow_count;
extern const RunCase run_math[];
extern const int run_math_count;
extern const RunCase run_geom[];
extern const int run_geom_count;
extern const RunCase run_host[];
extern const int run_host_count;
extern const RunCase run_compat[];
extern const int run_compat_count;

#endif /* CHECK_RUN_H */
