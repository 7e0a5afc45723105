/*
** tiles.c: the thread pool both integrators render their tiles with
** (tiles.h). The caller's thread is one of the workers; tiles are handed
** out by an atomic counter, so a slow tile never holds the others up.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "render/tiles.h"

typedef struct Pool {
    const TileWork *w;
    atomic_int next_tile, done_tiles;
    atomic_bool failed;
    /* Set at the deadline by the watchdog: threads take no more tiles,
       and the shaders running stop with an error. */
    atomic_bool stop, finished;
    pthread_mutex_t lock;      /* the first error, the bar, w->end */
    char err[1024];
    bool progress;
    double start;
} Pool;

double render_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(Pool *p)
{
    if (!p->progress)
        return;
    int done = atomic_load(&p->done_tiles), n = p->w->ntiles;
    double t = render_clock() - p->start, frac = (double)done / (double)n;
    double eta = frac > 0 ? t * (1 - frac) / frac : 0;
    int bar = (int)(frac * 40);
    pthread_mutex_lock(&p->lock);
    fprintf(stderr, "\r[%.*s%*s] %3d%% ETA %4.0fs", bar, "========================================",
            40 - bar, "", (int)(frac * 100), eta);
    if (done == n)
        fputc('\n', stderr);
    pthread_mutex_unlock(&p->lock);
}

static void fail(Pool *p, const char *msg)
{
    pthread_mutex_lock(&p->lock);
    if (!atomic_exchange(&p->failed, true))
        snprintf(p->err, sizeof p->err, "%s", msg);
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *arg)
{
    Pool *p = arg;
    const TileWork *w = p->w;
    char err[1024];
    void *state = w->begin(w->job, &p->stop);
    if (!state) {
        fail(p, "rtrender: error: out of memory for a render thread");
        return NULL;
    }
    for (;;) {
        int tile = atomic_fetch_add(&p->next_tile, 1);
        if (tile >= w->ntiles || atomic_load(&p->failed) || atomic_load(&p->stop))
            break;
        if (w->tile(w->job, state, tile, err, sizeof err) < 0) {
            fail(p, err);
            break;
        }
        atomic_fetch_add(&p->done_tiles, 1);
        progress(p);
    }
    pthread_mutex_lock(&p->lock);
    w->end(w->job, state);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Sets stop at the deadline, unless the render finishes first. */
static void *watchdog(void *arg)
{
    Pool *p = arg;
    while (!atomic_load(&p->finished)) {
        if (render_clock() >= p->w->deadline) {
            atomic_store(&p->stop, true);
            break;
        }
        nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
    }
    return NULL;
}

static int threads_for(const RenderSettings *rs, int ntiles)
{
    long n = rs->threads;
    /* Debugging a pixel talks on stdin and stdout: one thread. */
    if (rs->debug_x >= 0)
        n = 1;
    else if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    /* More threads than tiles would only idle. */
    return n < 1 ? 1 : n > ntiles ? ntiles : (int)n;
}

int tiles_run(const TileWork *w, const RenderSettings *rs, int *threads, char *err, int errlen)
{
    Pool *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for the render's threads");
        return -1;
    }
    p->w = w;
    p->progress = !rs->quiet && isatty(2) && rs->debug_x < 0;
    p->start = render_clock();
    pthread_mutex_init(&p->lock, NULL);
    int n = threads_for(rs, w->ntiles), started = 0;
    pthread_t *t = calloc((size_t)n, sizeof *t), dog;
    bool watched = w->deadline > 0 && pthread_create(&dog, NULL, watchdog, p) == 0;
    if (w->deadline > 0 && !watched)
        atomic_store(&p->stop, render_clock() >= w->deadline);
    for (int i = 1; t && i < n; i++)
        started += pthread_create(&t[started], NULL, worker, p) == 0;
    worker(p);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    atomic_store(&p->finished, true);
    if (watched)
        pthread_join(dog, NULL);
    free(t);
    *threads = started + 1;
    /* Stopped with tiles left: whatever failed first, the time limit is
       the reason. */
    bool late = atomic_load(&p->stop) && atomic_load(&p->done_tiles) < w->ntiles;
    bool failed = atomic_load(&p->failed) || late;
    if (late)
        snprintf(err, (size_t)errlen,
                 "rtrender: error: the render ran past its time limit (--time-limit)");
    else if (failed)
        snprintf(err, (size_t)errlen, "%s", p->err);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return failed ? -1 : 0;
}
