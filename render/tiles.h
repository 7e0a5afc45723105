/*
** tiles.h: the one thread pool both integrators render with (tiles.c).
** Threads take a frame's tiles in turn; the first error wins and the
** other threads stop at their next tile; a watchdog thread sets a stop
** flag at the deadline, which tiles and the shaders running in them read
** (shadesys.h's thread_new); a progress bar counts finished tiles. The
** integrator keeps what makes its image the same for any thread count:
** each tile's own film slot and per-sample random numbers.
*/
#ifndef RT_RENDER_TILES_H
#define RT_RENDER_TILES_H

#include <stdatomic.h>
#include <stdbool.h>

#include "render/render.h"

/* Seconds on a monotonic clock: what deadlines count in. */
double render_clock(void);

/* An integrator's frame as the pool runs it. */
typedef struct TileWork {
    void *job;                 /* the integrator's, passed to the calls below */
    int ntiles;
    double deadline;           /* render_clock() seconds; 0: none */
    /* A thread's own state, made on that thread; stop is the pool's flag
       (set at the deadline), for the thread's shaders and tiles to read.
       NULL when out of memory. */
    void *(*begin)(void *job, const atomic_bool *stop);
    /* Renders tile number tile: 0, or -1 with a message. */
    int (*tile)(void *job, void *state, int tile, char *err, int errlen);
    /* Adds the thread's counters to the job's (under the pool's lock,
       one thread at a time) and frees its state. */
    void (*end)(void *job, void *state);
} TileWork;

/* Runs w's tiles on the threads rs asks for (one per core by default,
   one when debugging a pixel, no more than tiles), with a progress bar
   unless rs is quiet or stderr is no terminal. Sets *threads to the
   threads that ran. 0, or -1 with the first tile's message, or with the
   time limit's when the deadline came before the last tile was done. */
int tiles_run(const TileWork *w, const RenderSettings *rs, int *threads, char *err,
              int errlen);

#endif /* RT_RENDER_TILES_H */
