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

void print_builds(const BuildRow *rows, int n, size_t ntris, int reps);
void print_traces(const TraceRow *rows, int n, int reps);

#endif
