/*
** classic.c: the classic integrator's frame loop. The crop window (grown
** by the filter's reach) is cut into 16x16 tiles that threads take in
** turn. A tile runs as waves, one per pixel sample index: the wave's
** camera rays are traced as one stream, their hits grouped by the mesh
** they landed on and shaded in batches, and rays that pass through
** (transparent or one-sided back faces) go on as the next layer. Each
** tile's samples are filtered into its own slot of the film (film.h),
** which makes the image the same for any number of threads, as do
** per-pixel random seeds. The threads are tiles.c's.
*/
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/frame.h"

enum { TILE = FILM_TILE, WAVE = TILE * TILE };

typedef struct Job {
    const RWorld *world;
    ShadeSys *shading;
    const Camera *cam;
    Film *film;
    int spp, sqrt_spp;          /* sqrt_spp > 0: stratified */
    int maxdepth;
    int debug_x, debug_y;       /* --debug-pixel, -1 if none */
    atomic_bool debugged;
    RenderStats stats;
} Job;

/* One wave: pixel sample k of every pixel of a tile. */
typedef struct Wave {
    int n, sample;              /* rays, and the pixel sample they trace */
    int px[WAVE], py[WAVE];
    float sx[WAVE], sy[WAVE];   /* the sample's offset in its pixel */
    float org[WAVE][3], dir[WAVE][3], tnear[WAVE], tfar[WAVE];
    float C[WAVE][3], A[WAVE][3], z[WAVE];
    bool live[WAVE];
    /* this layer's hits */
    float t[WAVE], Ng[WAVE][3], b1[WAVE], b2[WAVE];
    unsigned prim[WAVE], geom[WAVE], inst[WAVE];
} Wave;

/* A thread's state. */
typedef struct Worker {
    ShadeCtx c;
    Wave w;
    FilmTile *ft;
    const atomic_bool *stop;    /* the pool's: set at the deadline */
} Worker;

static void trace_layer(Job *j, ShadeCtx *c, Wave *w)
{
    float ox[WAVE], oy[WAVE], oz[WAVE], tn[WAVE], dx[WAVE], dy[WAVE], dz[WAVE], tf[WAVE];
    float nx[WAVE], ny[WAVE], nz[WAVE];
    int idx[WAVE], m = 0;
    for (int i = 0; i < w->n; i++) {
        w->geom[i] = RT_INVALID_ID;
        if (!w->live[i])
            continue;
        idx[m] = i;
        ox[m] = w->org[i][0], oy[m] = w->org[i][1], oz[m] = w->org[i][2];
        dx[m] = w->dir[i][0], dy[m] = w->dir[i][1], dz[m] = w->dir[i][2];
        tn[m] = w->tnear[i], tf[m] = w->tfar[i];
        m++;
    }
    if (!m)
        return;
    unsigned prim[WAVE], geom[WAVE], inst[WAVE];
    float bu[WAVE], bv[WAVE];
    for (int i = 0; i < m; i++)
        geom[i] = inst[i] = RT_INVALID_ID;
    RTRayHitNp rh = { { ox, oy, oz, tn, dx, dy, dz, tf }, { nx, ny, nz, bu, bv, prim, geom, inst } };
    double t0 = render_clock();
    rtIntersectNp(j->world->top, &rh, (size_t)m);
    c->trace_seconds += render_clock() - t0;
    for (int k = 0; k < m; k++) {
        int i = idx[k];
        w->geom[i] = geom[k], w->inst[i] = inst[k], w->prim[i] = prim[k];
        w->t[i] = tf[k], w->b1[i] = bu[k], w->b2[i] = bv[k];
        w->Ng[i][0] = nx[k], w->Ng[i][1] = ny[k], w->Ng[i][2] = nz[k];
    }
}

static int by_key(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

/* A neighbour for derivatives: the lane of the ray of pixel (x, y) in
   the group, or -1. Without surface parameters each triangle has its own
   (barycentric) u and v, so only the same triangle will do. */
static int neighbour(const int *slot, const int *lane_of_pixel, const Wave *w, int tx0, int ty0,
                     int x, int y, unsigned prim, bool same_prim)
{
    if (x < tx0 || y < ty0 || x >= tx0 + TILE || y >= ty0 + TILE)
        return -1;
    int l = lane_of_pixel[(y - ty0) * TILE + (x - tx0)];
    if (l >= 0 && same_prim && w->prim[slot[l]] != prim)
        return -1;
    return l;
}

/* A stand-in for a missing neighbour (at a silhouette or the tile's
   edge): where the ray through pixel (x + dx, y + dy), at ray i's sample
   offset, meets the plane of ray i's triangle. It is shaded only for the
   derivatives of its real neighbour. False if the ray runs along the
   plane. */
static bool stand_in(const Job *j, const Wave *w, int i, const RibMesh *mesh, const RLook *look,
                     int dx, int dy, ShadeIn *h)
{
    float org[3], dir[3], tn, tf;
    camera_ray(j->cam, (float)(w->px[i] + dx) + w->sx[i], (float)(w->py[i] + dy) + w->sy[i], org,
               dir, &tn, &tf);
    return stand_in_hit(mesh, look, w->prim[i], org, dir, h);
}

/* Shades the rays slot[0..n) that hit one mesh as a batch, with stand-
   ins for missing neighbours, and composites them. A batch that would
   overflow with its stand-ins is shaded in two halves. */
static int shade_group(Job *j, ShadeCtx *c, Wave *w, const int *slot, int n, int tx0, int ty0,
                       char *err, int errlen)
{
    /* Adjacent pixels first, then diagonal ones (at a thin corner of a
       triangle); any two that do not line up give both derivatives. */
    static const int along_a[4][2] = { { 1, 0 }, { -1, 0 }, { 1, 1 }, { -1, -1 } };
    static const int along_b[4][2] = { { 0, 1 }, { 0, -1 }, { -1, 1 }, { 1, -1 } };
    const RibMesh *mesh;
    const RLook *look;
    world_hit(j->world, w->geom[slot[0]], w->inst[slot[0]], &mesh, &look);
    bool same_prim = !mesh->uv;
    int lane_of_pixel[WAVE], missing = 0;
    for (int k = 0; k < WAVE; k++)
        lane_of_pixel[k] = -1;
    for (int l = 0; l < n; l++)
        lane_of_pixel[(w->py[slot[l]] - ty0) * TILE + (w->px[slot[l]] - tx0)] = l;
    ShadeIn in[VM_MAX_BATCH];
    for (int l = 0; l < n; l++) {
        int i = slot[l], x = w->px[i], y = w->py[i];
        ShadeIn *h = &in[l];
        memcpy(h->org, w->org[i], sizeof h->org);
        memcpy(h->dir, w->dir[i], sizeof h->dir);
        h->t = w->t[i], h->b1 = w->b1[i], h->b2 = w->b2[i], h->prim = w->prim[i];
        h->seed = rt_hash((uint32_t)x, (uint32_t)y, 0x51ed0000u + (uint32_t)w->sample);
        h->na = h->nb = -1;
        for (int k = 0; k < 4 && h->na < 0; k++)
            h->na = neighbour(slot, lane_of_pixel, w, tx0, ty0, x + along_a[k][0],
                              y + along_a[k][1], h->prim, same_prim);
        for (int k = 0; k < 4 && h->nb < 0; k++)
            h->nb = neighbour(slot, lane_of_pixel, w, tx0, ty0, x + along_b[k][0],
                              y + along_b[k][1], h->prim, same_prim);
        missing += (h->na < 0) + (h->nb < 0);
    }
    if (n + missing > VM_MAX_BATCH) {
        int half = n / 2;
        if (shade_group(j, c, w, slot, half, tx0, ty0, err, errlen) < 0)
            return -1;
        return shade_group(j, c, w, slot + half, n - half, tx0, ty0, err, errlen);
    }
    int total = n;
    for (int l = 0; l < n && j->debug_x >= 0; l++) {
        int i = slot[l];
        if (w->px[i] == j->debug_x && w->py[i] == j->debug_y && w->sample == 0
            && w->z[i] == INFINITY && !atomic_exchange(&j->debugged, true))
            c->debug_lane = l;
    }
    for (int l = 0; l < n; l++) {
        ShadeIn *h = &in[l];
        if (h->na < 0 && stand_in(j, w, slot[l], mesh, look, 1, 0, &in[total]))
            in[total].seed = h->seed, h->na = total++;
        if (h->nb < 0 && stand_in(j, w, slot[l], mesh, look, 0, 1, &in[total]))
            in[total].seed = h->seed, h->nb = total++;
    }
    float Ci[VM_MAX_BATCH][3], Oi[VM_MAX_BATCH][3];
    double t0 = render_clock();
    int rc = shade_batch(c, mesh, look, in, total, Ci, Oi, err, errlen);
    c->shade_seconds += render_clock() - t0;
    if (rc < 0)
        return -1;
    for (int l = 0; l < n; l++) {
        int i = slot[l];
        if (w->z[i] == INFINITY)
            w->z[i] = w->t[i] * w->dir[i][2];
        /* Matte 1: a holdout stops the ray and adds nothing. */
        if (!look->attrs->matte)
            trace_composite(w->C[i], w->A[i], Ci[l], Oi[l]);
        w->tnear[i] = trace_past(w->t[i]);
        w->live[i] = !look->attrs->matte && !trace_opaque(w->A[i]);
    }
    return 0;
}

/* Shades this layer's hits, grouped by what they hit, and composites. */
static int shade_layer(Job *j, ShadeCtx *c, Wave *w, int tx0, int ty0, char *err, int errlen)
{
    uint64_t keys[WAVE];
    int nk = 0;
    for (int i = 0; i < w->n; i++) {
        if (!w->live[i])
            continue;
        if (w->geom[i] == RT_INVALID_ID) {
            w->live[i] = false;
            continue;
        }
        const RibMesh *mesh;
        const RLook *look;
        world_hit(j->world, w->geom[i], w->inst[i], &mesh, &look);
        if (trace_backface(look, &(RTHit){ w->Ng[i][0], w->Ng[i][1], w->Ng[i][2], 0, 0, 0, 0, 0 },
                           w->dir[i])) {
            w->tnear[i] = trace_past(w->t[i]);
            continue;
        }
        /* Same instance and mesh together: one surface shader and one
           parameterization, so neighbours' (u, v) compare. The low 12
           bits keep the ray. */
        keys[nk++] = (uint64_t)(w->inst[i] + 1u) << 44 | (uint64_t)w->geom[i] << 12 | (uint64_t)i;
    }
    qsort(keys, (size_t)nk, sizeof *keys, by_key);
    for (int g0 = 0; g0 < nk;) {
        int g1 = g0, slot[WAVE];
        while (g1 < nk && keys[g1] >> 12 == keys[g0] >> 12)
            g1++;
        for (int l = 0; l < g1 - g0; l++)
            slot[l] = (int)(keys[g0 + l] & 0xfff);
        if (shade_group(j, c, w, slot, g1 - g0, tx0, ty0, err, errlen) < 0)
            return -1;
        g0 = g1;
    }
    return 0;
}

static int render_tile(void *job, void *state, int tile, char *err, int errlen)
{
    Job *j = job;
    Worker *wk = state;
    ShadeCtx *c = &wk->c;
    Wave *w = &wk->w;
    const Camera *cam = j->cam;
    int tx0, ty0, tx1, ty1;
    film_tile_rect(j->film, tile, &tx0, &ty0, &tx1, &ty1);
    film_tile_begin(wk->ft, tile);
    for (int k = 0; k < j->spp; k++) {
        w->n = 0;
        w->sample = k;
        for (int y = ty0; y < ty1; y++)
            for (int x = tx0; x < tx1; x++) {
                int i = w->n++;
                float sx, sy;
                camera_pixel_sample(j->sqrt_spp, x, y, k, &sx, &sy);
                w->px[i] = x, w->py[i] = y, w->sx[i] = sx, w->sy[i] = sy;
                camera_ray(cam, (float)x + sx, (float)y + sy, w->org[i], w->dir[i], &w->tnear[i],
                           &w->tfar[i]);
                memset(w->C[i], 0, sizeof w->C[i]);
                memset(w->A[i], 0, sizeof w->A[i]);
                w->z[i] = INFINITY;
                w->live[i] = true;
            }
        c->camera_rays += (uint64_t)w->n;
        if (atomic_load(wk->stop)) {
            snprintf(err, (size_t)errlen, "stopped");
            return -1;
        }
        for (int layer = 0; layer < RT_MAX_LAYERS; layer++) {
            trace_layer(j, c, w);
            if (shade_layer(j, c, w, tx0, ty0, err, errlen) < 0)
                return -1;
            bool any = false;
            for (int i = 0; i < w->n; i++)
                any |= w->live[i];
            if (!any)
                break;
        }
        for (int i = 0; i < w->n; i++)
            film_tile_add(wk->ft, (float)w->px[i] + w->sx[i], (float)w->py[i] + w->sy[i], w->C[i],
                          w->A[i], w->z[i]);
    }
    film_tile_end(j->film, wk->ft);
    return 0;
}

static void *worker_new(void *job, const atomic_bool *stop)
{
    Job *j = job;
    Worker *wk = malloc(sizeof *wk);
    if (!wk)
        return NULL;
    wk->ft = film_tile_new(j->film);
    wk->stop = stop;
    shade_ctx_init(&wk->c, j->world, j->shading, j->maxdepth, stop);
    return wk;
}

static void worker_end(void *job, void *state)
{
    Job *j = job;
    Worker *wk = state;
    const ShadeCtx *c = &wk->c;
    j->stats.camera_rays += c->camera_rays;
    j->stats.shade_seconds += c->shade_seconds;
    j->stats.shading_points += c->shading_points;
    j->stats.batches += c->batches;
    j->stats.secondary_rays += c->secondary_rays;
    j->stats.trace_seconds += c->trace_seconds;
    j->stats.shader_trace_seconds += c->shader_trace_seconds;
    shade_ctx_free(&wk->c);
    film_tile_free(wk->ft);
    free(wk);
}

int classic_render(const RFrame *fr, double deadline, RenderStats *stats, char *err,
                   int errlen)
{
    const RenderSettings *rs = fr->rs;
    Job *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for the render");
        return -1;
    }
    j->world = &fr->world, j->shading = fr->shading, j->cam = &fr->cam, j->film = fr->film;
    j->spp = fr->spp;
    int root = (int)lroundf(sqrtf((float)fr->spp));
    j->sqrt_spp = root * root == fr->spp ? root : 0;
    j->maxdepth = fr->rib->options.trace_maxdepth;
    j->debug_x = rs->debug_x, j->debug_y = rs->debug_y;
    TileWork tw = { j, fr->film->ntiles, deadline, worker_new, render_tile, worker_end };
    double start = render_clock();
    int rc = tiles_run(&tw, rs, &j->stats.threads, err, errlen);
    j->stats.seconds = render_clock() - start;
    *stats = j->stats;
    if (rc == 0 && rs->debug_x >= 0 && !atomic_load(&j->debugged))
        fprintf(stderr, "rtrender: warning: pixel %d,%d sees no surface shader to debug\n",
                rs->debug_x, rs->debug_y);
    free(j);
    return rc;
}
