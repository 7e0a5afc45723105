/*
** path.c: the wavefront path tracer's frame loop. Threads take the
** film's tiles in turn; a tile's samples go out as paths in a queue of
** PATH_WAVE, round after round through the stages below until every
** sample is done:
**   generate   camera rays for the tile's next pixel samples, filling
**              the room paths that ended left (so that the queue stays
**              full while samples remain, not emptying bounce by bounce);
**   intersect  the queue's rays as one rtcore stream;
**   sort       the hits by the look they landed on (a counting sort), so
**              that each batch runs one surface shader on one mesh;
**              misses end their paths, seeing the environment light;
**   shade      each batch (path_shade.c): emission, a light sample with
**              its shadow ray, the next direction;
**   shadow     the light samples' shadow rays as one occlusion stream;
**   compact    Russian roulette; ended paths to the film; the live paths
**              to the queue's front, in order.
** Every random number is a hash of the pixel, the sample and the
** segment, and a tile's paths reach the film in an order its own
** samples fix, so the image is the same for any number of threads
** (tiles.c's).
*/
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/path.h"

typedef struct PathJob {
    PathScene scene;
    ShadeSys *shading;
    const Camera *cam;
    Film *film;
    int spp, sqrt_spp, trace_maxdepth;
    size_t nkeys;              /* looks: top meshes, then instances' */
    RenderStats stats;
    PathEnv env;
} PathJob;

/* A thread's state. */
typedef struct PathWorker {
    ShadeCtx c;
    PathWave w;
    FilmTile *ft;
    unsigned *count;           /* the counting sort's, nkeys + 1 */
    const atomic_bool *stop;   /* the pool's: set at the deadline */
    RenderStats stats;         /* the stages' and bounces' counters */
} PathWorker;

/* A tile's pixel samples, made in order: sample s is pixel s % npix (row
   by row) at sample number s / npix. */
typedef struct TileSamples {
    int x0, y0, width, npix, total, next;
} TileSamples;

/* Generate: camera paths for the tile's next samples, into the queue's
   free room. */
static void generate(const PathJob *j, PathWave *w, TileSamples *ts)
{
    while (w->n < PATH_WAVE && ts->next < ts->total) {
        int s = ts->next++, p = w->free[--w->nfree], i = w->n++;
        int x = ts->x0 + s % ts->npix % ts->width, y = ts->y0 + s % ts->npix / ts->width;
        int k = s / ts->npix;
        float sx, sy, org[3], dir[3], tn, tf;
        camera_pixel_sample(j->sqrt_spp, x, y, k, &sx, &sy);
        w->sx[p] = (float)x + sx, w->sy[p] = (float)y + sy;
        camera_ray(j->cam, w->sx[p], w->sy[p], org, dir, &tn, &tf);
        /* Unit directions: distances are lengths (for Le's d^2). */
        float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        w->ox[i] = org[0], w->oy[i] = org[1], w->oz[i] = org[2];
        w->dx[i] = dir[0] / len, w->dy[i] = dir[1] / len, w->dz[i] = dir[2] / len;
        w->tnear[i] = tn * len, w->tfar[i] = tf * len;
        memset(w->L[p], 0, sizeof w->L[p]);
        w->A[p] = 0, w->z[p] = INFINITY, w->steps[p] = 0;
        w->path[i] = p;
        w->thr[i][0] = w->thr[i][1] = w->thr[i][2] = 1;
        w->pdf[i] = 0, w->from[i] = NULL, w->depth[i] = 0, w->live[i] = true;
        w->own[i] = false;
        w->seed[i] = rt_hash((uint32_t)x, (uint32_t)y, 0x9a7c0000u + (uint32_t)k);
    }
}

/* Intersect: the queue's rays, closest hits. */
static void intersect(ShadeCtx *c, PathWave *w)
{
    for (int i = 0; i < w->n; i++)
        w->geom[i] = w->inst[i] = RT_INVALID_ID;
    RTRayHitNp rh = { { w->ox, w->oy, w->oz, w->tnear, w->dx, w->dy, w->dz, w->tfar },
                      { w->ngx, w->ngy, w->ngz, w->b1, w->b2, w->prim, w->geom, w->inst } };
    double t0 = render_clock();
    rtIntersectNp(c->world->top, &rh, (size_t)w->n);
    c->trace_seconds += render_clock() - t0;
    c->secondary_rays += (uint64_t)w->n;
}

/* The dense index of the look a hit landed on. */
static size_t look_key(const RWorld *world, unsigned geom, unsigned inst)
{
    return inst == RT_INVALID_ID ? geom : world->ntop + world->instance_first[inst] + geom;
}

/* Sort: the queue's hits in order of their look (a counting sort on
   the look's index); misses end their paths, seeing the environment. */
static void sort(const PathJob *j, PathWave *w, unsigned *count)
{
    const RWorld *world = j->scene.world;
    static const size_t none = (size_t)-1;
    int total = 0;
    memset(count, 0, (j->nkeys + 1) * sizeof *count);
    for (int i = 0; i < w->n; i++) {
        w->look[i] = w->geom[i] == RT_INVALID_ID ? none : look_key(world, w->geom[i], w->inst[i]);
        if (w->look[i] == none) {
            path_shade_miss(&j->scene, w, i);
            w->live[i] = false;
        }
        else
            count[w->look[i] + 1]++, total++;
    }
    for (size_t k = 0; k < j->nkeys; k++)
        count[k + 1] += count[k];
    for (int i = 0; i < w->n; i++)
        if (w->look[i] != none)
            w->order[count[w->look[i]]++] = i;
    w->nhits = total;
}

/* Shade: each look's run of sorted hits in batches of at most
   PATH_GROUP. */
static int shade(const PathJob *j, ShadeCtx *c, PathWave *w, char *err, int errlen)
{
    for (int g0 = 0; g0 < w->nhits;) {
        int g1 = g0 + 1;
        size_t look = w->look[w->order[g0]];
        while (g1 < w->nhits && g1 - g0 < PATH_GROUP && w->look[w->order[g1]] == look)
            g1++;
        if (path_shade_group(&j->scene, c, w, w->order + g0, g1 - g0, err, errlen) < 0)
            return -1;
        g0 = g1;
    }
    return 0;
}

/* Shadow: the light samples' shadow rays; what passes adds to its path.
   Where some surface lets light through, each ray goes through the
   layers it crosses (trace_transmission), one at a time. */
static void shadow(ShadeCtx *c, PathWave *w)
{
    if (!w->ns)
        return;
    if (c->world->translucent) {
        for (int s = 0; s < w->ns; s++) {
            float o[3] = { w->sox[s], w->soy[s], w->soz[s] };
            float d[3] = { w->sdx[s], w->sdy[s], w->sdz[s] }, T[3];
            trace_transmission(c, o, d, w->stnear[s], w->stfar[s], T);
            for (int k = 0; k < 3; k++)
                w->L[w->spath[s]][k] += T[k] * w->sC[s][k];
        }
        w->ns = 0;
        return;
    }
    RTRayNp r = { w->sox, w->soy, w->soz, w->stnear, w->sdx, w->sdy, w->sdz, w->stfar };
    double t0 = render_clock();
    rtOccludedNp(c->world->top, &r, (size_t)w->ns);
    c->trace_seconds += render_clock() - t0;
    c->secondary_rays += (uint64_t)w->ns;
    for (int s = 0; s < w->ns; s++)
        if (w->stfar[s] != -INFINITY)
            for (int k = 0; k < 3; k++)
                w->L[w->spath[s]][k] += w->sC[s][k];
    w->ns = 0;
}

/* A path's sample to the film, and its slot back to the free list. */
static void finish(PathWave *w, FilmTile *ft, int p)
{
    static const float A1[3] = { 1, 1, 1 };
    float A[3] = { w->A[p], w->A[p], w->A[p] };
    film_tile_add(ft, w->sx[p], w->sy[p], w->L[p], w->A[p] == 1 ? A1 : A, w->z[p]);
    w->free[w->nfree++] = p;
}

/* Compact: after a few segments a path goes on with the probability of
   its largest throughput (Russian roulette, the survivors weighed up);
   passing through a surface adds no segment, so a path may take
   RT_MAX_LAYERS rounds more than its length. Paths that end go to the
   film; the live entries move to the queue's front, in order. */
static void compact(const PathJob *j, PathWave *w, FilmTile *ft)
{
    int m = 0;
    for (int i = 0; i < w->n; i++) {
        int p = w->path[i];
        bool live = w->live[i] && ++w->steps[p] < j->scene.maxdepth + RT_MAX_LAYERS;
        if (live && w->depth[i] >= 3) {
            float q = rt_minf(0.95f, rt_maxf(w->thr[i][0], rt_maxf(w->thr[i][1], w->thr[i][2])));
            live = path_rand(w, i, 15) < q;
            for (int k = 0; k < 3; k++)
                w->thr[i][k] /= q;
        }
        if (!live) {
            finish(w, ft, p);
            continue;
        }
#define MOVE(a) w->a[m] = w->a[i]
        MOVE(path), MOVE(ox), MOVE(oy), MOVE(oz), MOVE(tnear), MOVE(dx), MOVE(dy), MOVE(dz);
        MOVE(tfar), MOVE(pdf), MOVE(from), MOVE(depth), MOVE(seed), MOVE(live), MOVE(own);
#undef MOVE
        memcpy(w->thr[m], w->thr[i], sizeof w->thr[m]);
        memcpy(w->seen[m], w->seen[i], sizeof w->seen[m]);
        m++;
    }
    w->n = m;
}

/* Adds the seconds since *t to stage st of s, and restarts the clock. */
static void lap(RenderStats *s, RenderStage st, double *t)
{
    double now = render_clock();
    s->stage_seconds[st] += now - *t;
    *t = now;
}

/* The stats' bounce of a path that has taken steps rounds. */
static int bounce(int steps)
{
    return steps < RENDER_STAT_BOUNCES ? steps : RENDER_STAT_BOUNCES - 1;
}

/* A tile's samples, round after round of the queue, each round refilled
   with new camera paths where paths ended, until every sample is done;
   the deadline is checked between rounds (shaders running then stop by
   themselves). */
static int render_tile(void *job, void *state, int tile, char *err, int errlen)
{
    PathJob *j = job;
    PathWorker *wk = state;
    ShadeCtx *c = &wk->c;
    PathWave *w = &wk->w;
    RenderStats *st = &wk->stats;
    int tx0, ty0, tx1, ty1;
    film_tile_rect(j->film, tile, &tx0, &ty0, &tx1, &ty1);
    film_tile_begin(wk->ft, tile);
    int npix = (tx1 - tx0) * (ty1 - ty0);
    TileSamples ts = { tx0, ty0, tx1 - tx0, npix, npix * j->spp, 0 };
    w->n = w->ns = 0, w->nfree = PATH_WAVE;
    for (int p = 0; p < PATH_WAVE; p++)
        w->free[p] = PATH_WAVE - 1 - p;
    double t = render_clock();
    for (;;) {
        int n0 = w->n;
        generate(j, w, &ts);
        c->camera_rays += (uint64_t)(w->n - n0);
        lap(st, STAGE_GENERATE, &t);
        if (!w->n)
            break;
        if (atomic_load(wk->stop)) {
            snprintf(err, (size_t)errlen, "stopped");
            return -1;
        }
        st->rounds++, st->round_rays += (uint64_t)w->n, st->round_room += PATH_WAVE;
        for (int i = 0; i < w->n; i++)
            st->bounce_rays[bounce(w->steps[w->path[i]])]++;
        intersect(c, w);
        lap(st, STAGE_INTERSECT, &t);
        sort(j, w, wk->count);
        lap(st, STAGE_SORT, &t);
        if (shade(j, c, w, err, errlen) < 0)
            return -1;
        lap(st, STAGE_SHADE, &t);
        for (int s = 0; s < w->ns; s++)
            st->bounce_shadow_rays[bounce(w->steps[w->spath[s]])]++;
        shadow(c, w);
        lap(st, STAGE_SHADOW, &t);
        /* Filtering ended paths into the film counts with compaction. */
        compact(j, w, wk->ft);
        lap(st, STAGE_COMPACT, &t);
    }
    film_tile_end(j->film, wk->ft);
    return 0;
}

static void *worker_new(void *job, const atomic_bool *stop)
{
    PathJob *j = job;
    PathWorker *wk = malloc(sizeof *wk);
    if (!wk)
        return NULL;
    wk->ft = film_tile_new(j->film);
    wk->count = malloc((j->nkeys + 1) * sizeof *wk->count);
    wk->stop = stop;
    memset(&wk->stats, 0, sizeof wk->stats);
    shade_ctx_init(&wk->c, j->scene.world, j->shading, j->trace_maxdepth, stop);
    wk->c.cam = j->cam;
    return wk;
}

static void worker_end(void *job, void *state)
{
    PathJob *j = job;
    PathWorker *wk = state;
    const ShadeCtx *c = &wk->c;
    RenderStats *s = &j->stats;
    s->camera_rays += c->camera_rays, s->secondary_rays += c->secondary_rays - c->camera_rays;
    s->shading_points += c->shading_points, s->batches += c->batches;
    s->trace_seconds += c->trace_seconds, s->shader_trace_seconds += c->shader_trace_seconds;
    s->shade_seconds += wk->stats.stage_seconds[STAGE_SHADE];
    for (int k = 0; k < RENDER_STAGES; k++)
        s->stage_seconds[k] += wk->stats.stage_seconds[k];
    for (int b = 0; b < RENDER_STAT_BOUNCES; b++) {
        s->bounce_rays[b] += wk->stats.bounce_rays[b];
        s->bounce_shadow_rays[b] += wk->stats.bounce_shadow_rays[b];
    }
    s->rounds += wk->stats.rounds, s->round_rays += wk->stats.round_rays;
    s->round_room += wk->stats.round_room;
    shade_ctx_free(&wk->c);
    film_tile_free(wk->ft);
    free(wk->count);
    free(wk);
}

/* An AreaLightSource's surface is what the path tracer samples and what
   its paths hit: one with no surface, or only triangles of no area, has
   nothing to emit from. 0, or -1 with a message. */
static int check_emitters(const RFrame *fr, char *err, int errlen)
{
    for (size_t k = 0; k < fr->world.nlights; k++) {
        const RibLight *l = fr->rib->lights[k];
        const RArea *a = &fr->world.areas[k];
        if (l->area && !(a->ntris && a->area > 0)) {
            snprintf(err, (size_t)errlen,
                     "%s:%d:%d: error: area light \"%s\" has no area to emit from (%s); the "
                     "path tracer samples its surface",
                     l->shader.loc.file, l->shader.loc.line, l->shader.loc.col, l->shader.name,
                     a->ntris ? "its triangles have none" : "no geometry follows it");
            return -1;
        }
    }
    return 0;
}

int path_render(const RFrame *fr, int maxdepth, double deadline, RenderStats *stats, char *err,
                int errlen)
{
    if (check_emitters(fr, err, errlen) < 0)
        return -1;
    PathJob *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for the render");
        return -1;
    }
    if (path_env_load(&j->env, &fr->world, fr->shading, err, errlen) < 0) {
        free(j);
        return -1;
    }
    j->scene = (PathScene){ &fr->world, maxdepth, j->env.light ? &j->env : NULL };
    j->shading = fr->shading, j->cam = &fr->cam, j->film = fr->film;
    j->spp = fr->spp;
    int root = (int)lroundf(sqrtf((float)fr->spp));
    j->sqrt_spp = root * root == fr->spp ? root : 0;
    j->trace_maxdepth = fr->rib->options.trace_maxdepth;
    j->nkeys = fr->world.ntop + fr->world.ninstance_looks;
    TileWork tw = { j, fr->film->ntiles, deadline, worker_new, render_tile, worker_end };
    double start = render_clock();
    int rc = tiles_run(&tw, fr->rs, &j->stats.threads, err, errlen);
    j->stats.seconds = render_clock() - start;
    *stats = j->stats;
    path_env_free(&j->env);
    free(j);
    return rc;
}
