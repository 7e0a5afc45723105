/*
** trace.c: the timed loop shared by all backends. Each thread takes one
** contiguous chunk of the ray array and walks it a kernel's width at a
** time: load the lanes, fire, read the hits back. Loading and reading back
** are inside the timed region for both backends alike.
*/
#include "config.h"
#include "bench/rtbench/trace.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

const char *const kernel_names[KERNEL_COUNT] = {
    "single", "packet4", "packet8", "packet16", "stream"
};

size_t kernel_width(Kernel k)
{
    static const size_t width[KERNEL_COUNT] = { 1, 4, 8, 16, STREAM_RAYS };
    return width[k];
}

/* clock's reading in seconds. */
static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double now_seconds(void)
{
    return clock_seconds(CLOCK_MONOTONIC);
}

void device_config(char *buf, size_t len, int threads, const char *isa)
{
    snprintf(buf, len, "threads=%d%s%s", threads, isa ? ",isa=" : "", isa ? isa : "");
}

void *lanes_alloc(Lanes *l, size_t n, int extra, void **x)
{
    enum { LANE_ARRAYS = 10, MAX_ARRAYS = 32 };
    size_t stride = (n * 4 + 63) & ~(size_t)63;
    int count = LANE_ARRAYS + extra;
    char *block = count <= MAX_ARRAYS ? aligned_alloc(64, stride * count) : NULL;
    if (!block)
        return NULL;
    void *a[MAX_ARRAYS];
    for (int i = 0; i < count; i++)
        a[i] = block + i * stride;
    *l = (Lanes){ { a[0], a[1], a[2] }, { a[3], a[4], a[5] }, a[6], a[7],
                  a[8], a[9], NULL };
    for (int i = 0; i < extra; i++)
        x[i] = a[LANE_ARRAYS + i];
    return block;
}

typedef struct Worker {
    const Backend *b;
    void *state;
    Lanes lanes;
    Kernel k;
    bool occlusion;
    const Ray *rays;
    size_t n;
    uint32_t *hit;
    float *t;
    double cpu;             /* CPU seconds of its last run */
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    double cpu0 = clock_seconds(CLOCK_THREAD_CPUTIME_ID);
    const Lanes *l = &w->lanes;
    size_t width = kernel_width(w->k);
    for (size_t i = 0; i < w->n; i += width) {
        size_t m = w->n - i < width ? w->n - i : width;
        for (size_t j = 0; j < m; j++) {
            const Ray *r = &w->rays[i + j];
            for (int c = 0; c < 3; c++) {
                l->org[c][j] = r->org[c];
                l->dir[c][j] = r->dir[c];
            }
            l->tnear[j] = r->tnear;
            l->tfar[j] = r->tfar;
            l->geomID[j] = NO_HIT;
        }
        if (l->valid)
            for (size_t j = 0; j < width; j++)
                l->valid[j] = j < m ? -1 : 0;
        w->b->fire(w->state, w->k, w->occlusion, m);
        for (size_t j = 0; j < m; j++) {
            if (w->occlusion) {
                w->hit[i + j] = l->tfar[j] == -INFINITY ? 0 : NO_HIT;
            } else {
                w->hit[i + j] = l->geomID[j] == NO_HIT ? NO_HIT : l->primID[j];
                w->t[i + j] = l->tfar[j];
            }
        }
    }
    w->cpu = clock_seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    return NULL;
}

bool trace_set(const Backend *b, void *scene, Kernel k, const RaySet *s,
               int nthreads, int reps, bool cpu, uint32_t *hit, float *t,
               double *seconds, char *err, size_t errlen)
{
    Worker *w = calloc(nthreads, sizeof *w);
    pthread_t *tid = calloc(nthreads, sizeof *tid);
    /* Chunks are whole packets so no packet straddles two threads. */
    size_t per = (s->n + nthreads - 1) / nthreads;
    per = (per + 15) & ~(size_t)15;
    bool ok = w && tid;
    for (int i = 0; ok && i < nthreads; i++) {
        size_t lo = i * per < s->n ? i * per : s->n;
        size_t hi = lo + per < s->n ? lo + per : s->n;
        w[i] = (Worker){ .b = b, .k = k, .occlusion = s->occlusion,
                         .rays = s->rays + lo, .n = hi - lo, .hit = hit + lo,
                         .t = t + lo };
        w[i].state = b->begin(scene, k, s->coherent, &w[i].lanes);
        ok = w[i].state != NULL;
    }
    *seconds = INFINITY;
    for (int rep = 0; ok && rep < reps; rep++) {
        double t0 = now_seconds();
        int started = 0;
        if (nthreads == 1)
            work(&w[0]);
        else
            while (started < nthreads &&
                   pthread_create(&tid[started], NULL, work, &w[started]) == 0)
                started++;
        for (int i = 0; i < started; i++)
            pthread_join(tid[i], NULL);
        ok = nthreads == 1 || started == nthreads;
        double dt = now_seconds() - t0;
        if (cpu) {
            dt = 0;
            for (int i = 0; i < nthreads; i++)
                dt = w[i].cpu > dt ? w[i].cpu : dt;
        }
        if (dt < *seconds)
            *seconds = dt;
    }
    for (int i = 0; w && i < nthreads; i++)
        if (w[i].state)
            b->end(w[i].state);
    free(w);
    free(tid);
    if (!ok)
        snprintf(err, errlen, "rtbench: error: %s: out of memory or threads",
                 b->name);
    return ok;
}

void checksum(const uint32_t *hit, size_t n, uint64_t *sum, uint64_t *count)
{
    *sum = *count = 0;
    for (size_t i = 0; i < n; i++)
        if (hit[i] != NO_HIT) {
            *sum += (uint64_t)hit[i] + 1;
            (*count)++;
        }
}
