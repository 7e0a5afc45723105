/*
** path.h: the wavefront path tracer's queue and stages. path.c runs a
** tile's samples as waves of paths through the stages (generate,
** intersect, sort by look, shade, shadow, compact); path_shade.c shades
** one look's batch of hits: emission, light samples, the next direction.
**
** Radiometry. RSL's diffuse() has no 1/pi, and a light shader's Cl is
** what a white diffuse surface facing the light reflects (RISpec's
** classic lights). So the path tracer reads a light's Cl as irradiance
** over pi: a surface shader run with one light of Cl = 1 along w gives
** Ci = pi f(w) cos(w), f the BRDF; an area light's surface radiates
** radiance Le = pi Cl d^2 / cos_l (Cl seen from distance d, cos_l at the
** light). Then a matte surface under any light gets the same direct
** light from both integrators, and albedo 1 (Kd = 1, Cs = 1) is f = 1/pi.
**
** Energy. The glossy lobes are the shading language's formulas as they
** stand (pi f cos = (N.H)^(8/roughness) for specular(), vm/lights.c;
** (R.L)^size for phong()), so that both integrators agree on every
** shader. Lambert (albedo Kd) and phong() from size 1 on (albedo
** 2/(size+1) at normal incidence) conserve energy; specular() does up to
** roughness 1.5 and reflects 1.5 times what it receives at roughness 4
** (exponent 2). The path tracer keeps that: the lobes only choose
** directions, with their mixture's exact density in the throughput and in
** MIS, so every estimate is unbiased for the shader's own reflectance,
** whatever its albedo (path_lobes.c; check_path's lobe_energy).
*/
#ifndef RT_RENDER_PATH_H
#define RT_RENDER_PATH_H

#include "render/frame.h"
#include "render/path_env.h"

/* PATH_WAVE paths in flight a thread: 2048 rather than 1024 gives each
   look twice the hits a round, so fewer, fuller shading batches and
   fewer rounds at a tile's tail (3% less CPU time on bench_pathtracer's
   scene). Each of PathWave's arrays holds PATH_ROW entries, a cache line
   more than PATH_WAVE: at a power of two the arrays lay a multiple of 4
   KiB apart, so entry i of every array fell in the same set of the L1
   cache, more arrays than its ways, and the stages' loops over an
   entry's fields missed it on almost every access (and stalled on 4 KiB
   aliasing between them). */
enum { PATH_WAVE = 2048, PATH_ROW = PATH_WAVE + 16, PATH_GROUP = VM_MAX_BATCH / 2 };

/* A tile's paths in flight. Paths (index p, a slot taken from the free
   list when the path is made and given back when it ends) keep their
   pixel sample and what they have gathered; the queue (index i) holds
   one entry a path, its ray struct-of-arrays for rtcore's streams,
   compacted after each round and refilled with new camera paths. */
typedef struct PathWave {
    int nfree, free[PATH_ROW];
    float sx[PATH_ROW], sy[PATH_ROW];        /* raster position */
    float L[PATH_ROW][3], A[PATH_ROW], z[PATH_ROW];
    int steps[PATH_ROW];                      /* rounds through the queue */
    /* the queue */
    int n;
    int path[PATH_ROW];
    float ox[PATH_ROW], oy[PATH_ROW], oz[PATH_ROW], tnear[PATH_ROW];
    float dx[PATH_ROW], dy[PATH_ROW], dz[PATH_ROW], tfar[PATH_ROW];
    float thr[PATH_ROW][3];                   /* throughput */
    float pdf[PATH_ROW];                      /* the direction's BSDF pdf
                                                  (solid angle), 0 for camera rays */
    const RLook *from[PATH_ROW];              /* the look it left */
    int depth[PATH_ROW];                      /* segments so far */
    uint32_t seed[PATH_ROW];
    bool live[PATH_ROW];
    /* Following an environment() call (own): what the path sees if it
       leaves the scene, that call's lookup, in place of the environment
       light. */
    bool own[PATH_ROW];
    float seen[PATH_ROW][3];
    /* the queue's hits */
    float ngx[PATH_ROW], ngy[PATH_ROW], ngz[PATH_ROW], b1[PATH_ROW], b2[PATH_ROW];
    unsigned prim[PATH_ROW], geom[PATH_ROW], inst[PATH_ROW];
    /* the sort's: each entry's look, and the hits (nhits) in look order */
    size_t look[PATH_ROW];
    int order[PATH_ROW], nhits;
    /* shadow rays of light samples, and what each adds if unblocked */
    int ns;
    int spath[PATH_ROW];
    float sox[PATH_ROW], soy[PATH_ROW], soz[PATH_ROW], stnear[PATH_ROW];
    float sdx[PATH_ROW], sdy[PATH_ROW], sdz[PATH_ROW], stfar[PATH_ROW];
    float sC[PATH_ROW][3];
} PathWave;

/* The frame as the stages see it. */
typedef struct PathScene {
    const RWorld *world;
    int maxdepth;              /* path length, Embree's: 1 = camera ray and
                                  direct light */
    const PathEnv *env;        /* the environment light, or NULL */
} PathScene;

/* A random number in [0, 1) for queue entry i: dimension dim of its
   current segment. */
static inline float path_rand(const PathWave *w, int i, uint32_t dim)
{
    return rt_unit(rt_hash(w->seed[i], (uint32_t)w->depth[i] * 16u + dim, 0x2545f491u));
}

/* The lobes of a hit's surface shader (Nf its shading normal, facing the
   ray) as one mixture (path_lobes.c): a direction drawn from it by three
   uniform numbers u, and its density (solid angle) at unit wi. */
void path_lobes_sample(const ShadeLobes *lb, const float Nf[3], const float u[3], float wi[3]);
float path_lobes_pdf(const ShadeLobes *lb, const float Nf[3], const float wi[3]);

/* trace() and environment() calls as lobes (path_traces.c). The
   weights T[l][k] of the calls tr[l] of the hits l that are on[l], the
   hits run together: 0, or -1 with a message. */
int path_trace_weights(ShadeCtx *c, const RibMesh *mesh, const RLook *look,
                       const ShadeIn *hits, const bool *on, const ShadeTraces *tr, int n,
                       const float (*Ci0)[3], float (*T)[SHADE_MAX_TRACES][3], char *err,
                       int errlen);
/* The share of the next directions the lighting lobes lb take (the rest
   go along the calls tr of weights T), call k's share given that, and
   the call a uniform u picks (-1: the lobes). */
float path_lobes_share(const ShadeLobes *lb, const ShadeTraces *tr, const float (*T)[3]);
float path_trace_share(const ShadeTraces *tr, const float (*T)[3], float pc, int k);
int path_pick_trace(const ShadeTraces *tr, const float (*T)[3], float pc, float u);

/* shade_batch of the n hits of a mesh and look with the lights, lobes
   and calls that g gives (c->given while it runs), with stand-in
   neighbours for derivatives where the look takes them (path_deriv.c). */
int path_shade_given(ShadeCtx *c, const ShadeGiven *g, const RibMesh *mesh, const RLook *look,
                     const ShadeIn *hits, int n, float (*Ci)[3], float (*Oi)[3], char *err,
                     int errlen);
/* Whether a shader of look takes derivatives, so that its hits need
   stand-in neighbours. */
bool path_look_derivs(const RLook *look);
/* Shades queue entries q[0..n) (n <= PATH_GROUP), whose hits are on one
   mesh and look: adds their emission, queues shadow rays of a light
   sample each (MIS with the lobes' mixture), and sets each entry's
   next ray, or its live flag false. 0, or -1 with a message. */
int path_shade_group(const PathScene *ps, ShadeCtx *c, PathWave *w, const int *q, int n,
                     char *err, int errlen);
/* Queue entry i left the scene: the environment it sees (MIS with the
   light samples of the look it left), if there is one and that look's
   lights include it (camera rays see it). */
void path_shade_miss(const PathScene *ps, PathWave *w, int i);

#endif /* RT_RENDER_PATH_H */
