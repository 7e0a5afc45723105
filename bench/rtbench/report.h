/*
** report.h: rtbench's output tables.
*/
#ifndef RTBENCH_REPORT_H
#define RTBENCH_REPORT_H

#include <stdint.h>

#include "bench/rtbench/backend.h"

typedef struct BuildRow {
    int threads;
    BuildInfo info;
} BuildRow;

typedef struct TraceRow {
    const char *set;
    Kernel kernel;
    int threads;
    size_t rays;
    double ours, theirs;    /* Mrays/s; theirs < 0 when Embree did not run */
    uint64_t hits, sum;     /* our checksum */
    size_t differ;          /* rays whose result differs from Embree's */
} TraceRow;

/* The fastest kernel of each tracer on one set at one thread count: what
   the comparison with Embree is judged by. Kernels are -1 when that
   tracer did not run. */
typedef struct BestRow {
    const char *set;
    int threads;
    int ours_kernel, theirs_kernel;
    double ours, theirs;    /* Mrays/s */
} BestRow;

void print_builds(const BuildRow *rows, int n, size_t ntris, int reps);
void print_traces(const TraceRow *rows, int n, int reps, bool cpu);
/* One BestRow per set and thread count of rows, in their order of first
   appearance; best must have room for n. Returns how many. */
int best_kernels(const TraceRow *rows, int n, BestRow *best);
void print_best(const BestRow *best, int n);

#endif
