/*
** parallel.h: fork-join tasks over a few pthreads, for the BVH build. A
** run starts the workers, runs the root task, lets any task spawn more,
** and returns when all are done.
*/
#ifndef RTCORE_PARALLEL_H
#define RTCORE_PARALLEL_H

#include <stddef.h>

typedef struct RtPool RtPool;
typedef void (*RtTaskFn)(RtPool *pool, void *arg);

/* Largest argument a task carries (copied at spawn). */
#define RT_TASK_ARG_MAX 96

/* Runs fn(arg) and everything it spawns on `threads` threads (the caller's
   included; if a thread cannot be started, on fewer). */
void rt_pool_run(int threads, RtTaskFn fn, void *arg);

/* Queues fn with a copy of argsize bytes at arg. */
void rt_pool_spawn(RtPool *pool, RtTaskFn fn, const void *arg, size_t argsize);

/* Threads the pool runs on, to size work. */
int rt_pool_threads(const RtPool *pool);

/* Calls fn(ctx, begin, end) over [0, n) in about `threads` * 4 chunks. */
void rt_parallel_for(int threads, size_t n, void *ctx,
                     void (*fn)(void *ctx, size_t begin, size_t end));

#endif
