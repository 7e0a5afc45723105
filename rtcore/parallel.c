/*
** parallel.c: the task pool of parallel.h: a shared LIFO of spawned tasks
** under one mutex. Builder tasks are whole subtrees of thousands of
** primitives, so one lock is never contended enough to matter.
*/
#include "config.h"
#include "rtcore/parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct Task {
    RtTaskFn fn;
    _Alignas(16) unsigned char arg[RT_TASK_ARG_MAX];
} Task;

struct RtPool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    Task *tasks;
    size_t ntasks, cap;
    size_t pending;       /* queued or running */
    int threads;
    int failed;           /* a spawn could not grow the queue: run inline */
};

void rt_pool_spawn(RtPool *pool, RtTaskFn fn, const void *arg, size_t argsize)
{
    pthread_mutex_lock(&pool->lock);
    if (pool->ntasks == pool->cap) {
        size_t cap = pool->cap ? 2 * pool->cap : 64;
        Task *t = realloc(pool->tasks, cap * sizeof *t);
        if (!t) {
            pthread_mutex_unlock(&pool->lock);
            unsigned char copy[RT_TASK_ARG_MAX];
            memcpy(copy, arg, argsize);
            fn(pool, copy);
            return;
        }
        pool->tasks = t;
        pool->cap = cap;
    }
    Task *t = &pool->tasks[pool->ntasks++];
    t->fn = fn;
    memcpy(t->arg, arg, argsize);
    pool->pending++;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

static void *worker(void *p)
{
    RtPool *pool = p;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->ntasks && pool->pending)
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (!pool->pending)
            break;
        Task t = pool->tasks[--pool->ntasks];
        pthread_mutex_unlock(&pool->lock);
        t.fn(pool, t.arg);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0)
            pthread_cond_broadcast(&pool->wake);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

int rt_pool_threads(const RtPool *pool)
{
    return pool->threads;
}

void rt_pool_run(int threads, RtTaskFn fn, void *arg)
{
    RtPool pool = { .threads = threads > 0 ? threads : 1 };
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pool.pending = 1;               /* the root task, run below */
    pthread_t tid[64];
    int started = 0, want = pool.threads - 1 < 64 ? pool.threads - 1 : 64;
    while (started < want && pthread_create(&tid[started], NULL, worker, &pool) == 0)
        started++;
    fn(&pool, arg);
    pthread_mutex_lock(&pool.lock);
    if (--pool.pending == 0)
        pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    worker(&pool);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(pool.tasks);
    pthread_mutex_destroy(&pool.lock);
    pthread_cond_destroy(&pool.wake);
}

typedef struct ForArg {
    void *ctx;
    void (*fn)(void *ctx, size_t begin, size_t end);
    size_t begin, end, grain;
} ForArg;

/* Splits its range in halves, spawning one, until it is one grain. */
static void for_task(RtPool *pool, void *p)
{
    ForArg a = *(ForArg *)p;
    while (a.end - a.begin > a.grain) {
        ForArg right = a;
        right.begin = a.begin + (a.end - a.begin) / 2;
        a.end = right.begin;
        rt_pool_spawn(pool, for_task, &right, sizeof right);
    }
    a.fn(a.ctx, a.begin, a.end);
}

void rt_parallel_for(int threads, size_t n, void *ctx,
                     void (*fn)(void *ctx, size_t begin, size_t end))
{
    if (n == 0)
        return;
    size_t chunks = (size_t)(threads > 1 ? threads * 4 : 1);
    size_t grain = (n + chunks - 1) / chunks;
    if (grain < 1024)
        grain = 1024;
    ForArg a = { ctx, fn, 0, n, grain };
    if (n <= grain)
        fn(ctx, 0, n);
    else
        rt_pool_run(threads, for_task, &a);
}
