/*
** trace.h: running a kernel over a ray set on N threads and timing it.
*/
#ifndef RTBENCH_TRACE_H
#define RTBENCH_TRACE_H

#include <stdint.h>

#include "bench/rtbench/backend.h"
#include "bench/rtbench/rays.h"

/* Traces s with kernel k of backend b on nthreads threads, reps times,
   storing the best time in *seconds: wall time, or with cpu the CPU time
   of the slowest thread (what a run takes on an idle machine, where the
   threads run side by side, yet not stretched by other processes taking
   turns on the cores). hit[i] gets ray i's primID or
   NO_HIT (for occlusion sets: 0 when blocked, else NO_HIT); t[i] gets its
   hit distance (closest-hit sets only). False with a message in err when
   memory or threads run out. */
bool trace_set(const Backend *b, void *scene, Kernel k, const RaySet *s,
               int nthreads, int reps, bool cpu, uint32_t *hit, float *t,
               double *seconds, char *err, size_t errlen);

/* The run's checksum: the sum of (hit+1) over hits and the hit count; for
   occlusion results both are the occluded count. */
void checksum(const uint32_t *hit, size_t n, uint64_t *sum, uint64_t *count);

#endif
