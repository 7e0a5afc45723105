/*
** path_deriv.c: derivatives at the path tracer's hits. A path's hits
** have no neighbouring pixels' hits in their batch, as the classic
** integrator's do (classic.c), so each hit of a look whose shaders take
** derivatives (RShader.takes_derivs) is shaded with two stand-in
** neighbours as extra lanes: the same triangle one footprint away along
** two directions across the ray, found as stand_in_hit()s. The
** footprint is a pixel of the screen at the hit's depth in camera space:
** at a camera ray's hit, the classic integrator's (one pixel over); at a
** later bounce's, what the camera would see of a pixel there (pbrt-v4's
** approximation of a hit's dp/dx without ray differentials). Stand-ins
** copy their hit's seed, light, calls and white call, and what they
** give is dropped: they change no other lane and draw no path random
** numbers, so a look without derivatives shades as it did.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/camera.h"
#include "render/path.h"

/* One run's lanes: the caller's hits, then their stand-ins, each with
   the lane it stands in for (of), and what the run gives per lane, of
   which the caller's lanes are copied back. */
typedef struct Lanes {
    ShadeIn in[VM_MAX_BATCH];
    int of[VM_MAX_BATCH];
    VmLightSample light[VM_MAX_BATCH];
    int white[VM_MAX_BATCH];
    float P[VM_MAX_BATCH][3], N[VM_MAX_BATCH][3], Ci[VM_MAX_BATCH][3], Oi[VM_MAX_BATCH][3];
    ShadeLobes lobes[VM_MAX_BATCH];
    ShadeTraces traces[VM_MAX_BATCH];
} Lanes;

static bool takes(const RShader *sh)
{
    return sh && sh->takes_derivs;
}

bool path_look_derivs(const RLook *look)
{
    return takes(look->displacement) || takes(look->surface) || takes(look->atmosphere);
}

/* The side of a pixel's footprint at camera-space point P: the screen
   window's pixel, at P's depth under a perspective camera. At least a
   millionth of P's size, so that float steps stay resolvable. */
static float footprint(const Camera *cam, const float P[3])
{
    float px = fabsf(cam->screen[1] - cam->screen[0]) / (float)cam->xres;
    float py = fabsf(cam->screen[3] - cam->screen[2]) / (float)cam->yres;
    float side = fmaxf(px, py) * (cam->perspective ? cam->tan_half_fov * fabsf(P[2]) : 1);
    float size = fmaxf(fabsf(P[0]), fmaxf(fabsf(P[1]), fabsf(P[2])));
    return fmaxf(side, 1e-6f * size);
}

/* Hit h's two stand-ins: its point moved by the footprint across the
   ray (along two perpendicular directions), carried along the ray onto
   the plane of its triangle; seen from h's origin. Those the ray's
   grazing angle leaves out are none (-1). */
static void stand_ins(const Camera *cam, const RibMesh *mesh, const RLook *look, ShadeIn *h,
                      Lanes *s, int l, int *total)
{
    float d[3] = { h->dir[0], h->dir[1], h->dir[2] }, P[3];
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(len > 0))
        return;
    for (int k = 0; k < 3; k++)
        d[k] /= len, P[k] = h->org[k] + h->t * h->dir[k];
    /* a: across the ray, away from camera y where it can; b = d x a. */
    float up[3] = { 0, fabsf(d[1]) < 0.9f ? 1.0f : 0.0f, fabsf(d[1]) < 0.9f ? 0.0f : 1.0f };
    float a[3] = { d[1] * up[2] - d[2] * up[1], d[2] * up[0] - d[0] * up[2],
                   d[0] * up[1] - d[1] * up[0] };
    float la = sqrtf(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), r = footprint(cam, P);
    for (int k = 0; k < 3; k++)
        a[k] /= la;
    float b[3] = { d[1] * a[2] - d[2] * a[1], d[2] * a[0] - d[0] * a[2], d[0] * a[1] - d[1] * a[0] };
    const float *across[2] = { a, b };
    for (int e = 0; e < 2; e++) {
        float o[3];
        for (int k = 0; k < 3; k++)
            o[k] = P[k] + r * across[e][k] - d[k];
        ShadeIn *n = &s->in[*total];
        if (!stand_in_hit(mesh, look, h->prim, o, d, n))
            continue;
        memcpy(n->org, h->org, sizeof n->org), memcpy(n->dir, h->dir, sizeof n->dir);
        n->t = h->t, n->seed = h->seed;
        s->of[*total] = l;
        *(e ? &h->nb : &h->na) = (*total)++;
    }
}

/* Lanes [0, n) of the run into the caller's (each array offset by its
   first lane, at). */
static void copy_back(const ShadeGiven *g, const ShadeGiven *run, const Lanes *s, int at, int n,
                      float (*Ci)[3], float (*Oi)[3])
{
    memcpy(Ci + at, s->Ci, (size_t)n * sizeof *Ci);
    memcpy(Oi + at, s->Oi, (size_t)n * sizeof *Oi);
    if (g->P)
        memcpy(g->P + at, run->P, (size_t)n * sizeof *g->P);
    if (g->N)
        memcpy(g->N + at, run->N, (size_t)n * sizeof *g->N);
    if (g->lobes)
        memcpy(g->lobes + at, run->lobes, (size_t)n * sizeof *g->lobes);
    if (g->traces)
        memcpy(g->traces + at, run->traces, (size_t)n * sizeof *g->traces);
}

/* Hits [at, at + n) of the run g (all of them if g has probe twins) with
   their stand-ins, in s. */
static int run_with_stand_ins(ShadeCtx *c, const ShadeGiven *g, const RibMesh *mesh,
                              const RLook *look, const ShadeIn *hits, int at, int n,
                              float (*Ci)[3], float (*Oi)[3], Lanes *s, char *err, int errlen)
{
    int own = g->probe > 0 ? g->probe : n, total = n;
    memcpy(s->in, hits + at, (size_t)n * sizeof *hits);
    for (int l = 0; l < n; l++)
        s->of[l] = l;
    for (int l = 0; l < own; l++)
        stand_ins(c->cam, mesh, look, &s->in[l], s, l, &total);
    for (int l = own; l < n; l++) /* probe twins share their hit's */
        s->in[l].na = s->in[l - own].na, s->in[l].nb = s->in[l - own].nb;
    ShadeGiven run = *g;
    for (int l = 0; l < total; l++) {
        int from = at + s->of[l];
        if (g->light)
            s->light[l] = g->light[from];
        if (g->white)
            s->white[l] = g->white[from];
    }
    run.light = g->light ? s->light : NULL;
    run.white = g->white ? s->white : NULL;
    run.P = g->P ? s->P : NULL, run.N = g->N ? s->N : NULL;
    run.lobes = g->lobes ? s->lobes : NULL;
    run.traces = g->traces ? s->traces : NULL;
    c->given = &run;
    int rc = shade_batch(c, mesh, look, s->in, total, s->Ci, s->Oi, err, errlen);
    c->given = NULL;
    if (rc == 0)
        copy_back(g, &run, s, at, n, Ci, Oi);
    return rc;
}

int path_shade_given(ShadeCtx *c, const ShadeGiven *g, const RibMesh *mesh, const RLook *look,
                     const ShadeIn *hits, int n, float (*Ci)[3], float (*Oi)[3], char *err,
                     int errlen)
{
    if (!c->cam || !path_look_derivs(look)) {
        c->given = g;
        int rc = shade_batch(c, mesh, look, hits, n, Ci, Oi, err, errlen);
        c->given = NULL;
        return rc;
    }
    /* Three lanes a hit; a run with probe twins is one batch, its hits
       and twins with the hits' stand-ins (path_shade_group keeps it
       within VM_MAX_BATCH). */
    int own = g->probe > 0 ? g->probe : n;
    if (n + 2 * own > VM_MAX_BATCH && g->probe > 0) {
        snprintf(err, (size_t)errlen, "rtrender: error: %d path hits with probes and stand-ins "
                 "overflow a batch of %d", own, VM_MAX_BATCH);
        return -1;
    }
    Lanes lanes, *s = &lanes;
    int step = g->probe > 0 ? n : VM_MAX_BATCH / 3, rc = 0;
    for (int at = 0; rc == 0 && at < n; at += step)
        rc = run_with_stand_ins(c, g, mesh, look, hits, at, n - at < step ? n - at : step, Ci,
                                Oi, s, err, errlen);
    return rc;
}
