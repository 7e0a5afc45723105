/*
** host.c: the renderer's side of runtime/host.h. Lights come from the light
** shaders run over the batch before the surface (shade.c); spaces from
** the frame's transforms; traced rays go through rtcore, and what they
** hit is shaded one level deeper. A light shader's first shadow ray per
** lane waits for the path tracer's shadow stream when it asks
** (ShadeCtx.shadow_rays).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/image/texture.h"
#include "render/internal.h"
#include "render/tiles.h"

static bool host_light(void *user, int i, int lane, const float P[3], VmLightSample *out)
{
    (void)P;
    ShadeCtx *c = user;
    ShadeFrame *f = &c->frame[c->depth];
    if (i < 0 || i >= c->host.nlights || !f->lit[i * VM_MAX_BATCH + lane])
        return false;
    f->light_at = i; /* for lightsource() in the illuminance body */
    *out = f->light[i * VM_MAX_BATCH + lane];
    return true;
}

/* host_light for a group of lanes: the samples' rows. */
static uint32_t host_light_rows(void *user, int i, int base, int W, uint32_t mask, const float *P,
                                float *out, uint32_t *ambient)
{
    (void)P;
    ShadeCtx *c = user;
    ShadeFrame *f = &c->frame[c->depth];
    uint32_t reach = 0;
    *ambient = 0;
    if (i < 0 || i >= c->host.nlights)
        return 0;
    f->light_at = i;
    for (int j = 0; j < W; j++) {
        const VmLightSample *s = &f->light[i * VM_MAX_BATCH + base + j];
        if (!(mask >> j & 1) || !f->lit[i * VM_MAX_BATCH + base + j])
            continue;
        reach |= 1u << j;
        *ambient |= (uint32_t)s->ambient << j;
        for (int k = 0; k < 3; k++) {
            out[k * W + j] = s->L[k];
            out[(3 + k) * W + j] = s->Cl[k];
            out[(6 + k) * W + j] = s->Ol[k];
        }
    }
    return reach;
}

const char *shade_light_category(ShadeCtx *c, const RShader *sh)
{
    const char *str = NULL;
    float unused[1];
    int got = c->shading->param(c->thread, c->depth, sh, NULL, false, "__category", 's', 1, 0,
                                unused, &str);
    return got == 1 && str ? str : "";
}

/* The categories of light sample i: its light's (shade_light_category);
   while the path tracer gives the lights (c->given), theirs. */
static const char *host_light_category(void *user, int i)
{
    ShadeCtx *c = user;
    const ShadeFrame *f = &c->frame[c->depth];
    const RLook *look = f->look;
    if (c->depth == 0 && c->given)
        return c->given->category ? c->given->category : "";
    if (!look)
        return NULL;
    for (int k = 0, e = 0; k < look->nlights; k++) {
        int K = look->lights[k].area ? look->lights[k].area->samples : 1;
        if (i < e + K)
            return shade_light_category(c, look->lights[k].shader);
        e += K;
    }
    return "";
}

/* Camera space to RISpec's "screen", "NDC" or "raster" space (false for
   another name). Screen: under a perspective projection x and y over z
   tan(fov/2), so the screen window holds what the camera sees, and z
   from 0 at the near clipping plane to 1 at the far one (PRMan's depth),
   w = z; under an orthographic one x and y as they are and the same
   depth. NDC: the screen window onto [0, 1], y down. Raster: NDC times
   the image's pixels. */
static bool camera_to_screen(const RWorld *w, const char *name, RibMatrix *s)
{
    bool ndc = !strcmp(name, "NDC"), raster = !strcmp(name, "raster");
    if (!ndc && !raster && strcmp(name, "screen"))
        return false;
    const RibOptions *o = &w->frame->options;
    double n = o->near_clip, f = o->far_clip;
    *s = (RibMatrix){ { 0 } };
    if (o->projection == RIB_PROJ_PERSPECTIVE) {
        double t = tan(o->fov * M_PI / 360);
        s->m[0] = s->m[5] = 1 / t;
        s->m[10] = f / (f - n), s->m[14] = -f * n / (f - n), s->m[11] = 1;
    } else {
        s->m[0] = s->m[5] = 1;
        s->m[10] = 1 / (f - n), s->m[14] = -n / (f - n), s->m[15] = 1;
    }
    if (ndc || raster) {
        float win[4];
        rib_screen_window(o, win);
        double sx = 1 / (double)(win[1] - win[0]), sy = -1 / (double)(win[3] - win[2]);
        RibMatrix to_ndc = { { sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0,
                               -win[0] * sx, -win[3] * sy, 0, 1 } };
        if (raster)
            for (int i = 0; i < 4; i++)
                to_ndc.m[4 * i] *= w->xres, to_ndc.m[4 * i + 1] *= w->yres;
        *s = rib_matrix_mul(s, &to_ndc);
    }
    return true;
}

static bool host_space(void *user, const char *name, float m[16])
{
    ShadeCtx *c = user;
    const ShadeFrame *f = &c->frame[c->depth];
    const RWorld *w = c->world;
    RibMatrix to_camera;
    /* "eye": PRMan's older name for camera space */
    if (!strcmp(name, "camera") || !strcmp(name, "current") || !strcmp(name, "eye")) {
        static const float id[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
        memcpy(m, id, sizeof id);
        return true;
    }
    RibMatrix screen;
    if (camera_to_screen(w, name, &screen)) {
        if (!rib_matrix_invert(&screen, &to_camera))
            return false;
    } else if (!strcmp(name, "world"))
        to_camera = w->world_to_camera;
    else if (!strcmp(name, "object") && f->look)
        to_camera = f->look->to_camera;
    else if (!strcmp(name, "shader") && f->running)
        to_camera = f->running->to_camera;
    else {
        const RibFrame *fr = w->frame;
        size_t k = 0;
        while (k < fr->ncoordsys && strcmp(fr->coordsys[k].name, name))
            k++;
        if (k == fr->ncoordsys)
            return false;
        to_camera = rib_matrix_mul(&fr->coordsys[k].to_world, &w->world_to_camera);
    }
    rmat_to_float(&to_camera, m);
    return true;
}

/* Whether anything lies within dist of p along unit direction d, past
   the surface p leaves. */
static bool blocked_along(ShadeCtx *c, const float p[3], const float d[3], float dist)
{
    float bias = c->ray_bias > 0 ? c->ray_bias : trace_bias(p);
    if (!(dist > 2 * bias))
        return false;
    RTRay r = { p[0], p[1], p[2], bias, d[0], d[1], d[2], dist - bias };
    return trace_shader_blocked(c, &r);
}

/* The segment from p to q as a unit direction d and a length (0 when
   p is q). */
static float segment_to(const float p[3], const float q[3], float d[3])
{
    for (int k = 0; k < 3; k++)
        d[k] = q[k] - p[k];
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3 && len > 0; k++)
        d[k] /= len;
    return len;
}

/* visibility(p, q): 1 if nothing lies on the segment, else 0, opaque or
   not. transmission(p, q): what the surfaces on it let through. */
static void visibility(ShadeCtx *c, const float p[3], const float q[3], bool opacity, float out[3])
{
    float d[3], len = segment_to(p, q, d);
    /* Where every surface is opaque, transmission is visibility, and one
       ray costs less alone than as a stream of one. */
    if (opacity && c->world->translucent) {
        trace_transmission_along(c, 1, (const float (*)[3])p, (const float (*)[3])d, &len,
                                 (float (*)[3])out);
        return;
    }
    out[0] = out[1] = out[2] = len == 0 || !blocked_along(c, p, d, len) ? 1.0f : 0.0f;
}

/* Cosine-weighted directions about normal q->Q: a basis around it, and
   sample i of the query's stream. */
typedef struct Hemisphere {
    float n[3], t[3], b[3];
} Hemisphere;

static bool hemisphere(const VmRay *q, Hemisphere *h)
{
    float len = sqrtf(q->Q[0] * q->Q[0] + q->Q[1] * q->Q[1] + q->Q[2] * q->Q[2]);
    if (len == 0)
        return false;
    float *n = h->n, *t = h->t, *b = h->b;
    n[0] = q->Q[0] / len, n[1] = q->Q[1] / len, n[2] = q->Q[2] / len;
    float a[3] = { fabsf(n[0]) > 0.9f ? 0.0f : 1.0f, fabsf(n[0]) > 0.9f ? 1.0f : 0.0f, 0 };
    t[0] = a[1] * n[2] - a[2] * n[1], t[1] = a[2] * n[0] - a[0] * n[2];
    t[2] = a[0] * n[1] - a[1] * n[0];
    float tl = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    t[0] /= tl, t[1] /= tl, t[2] /= tl;
    b[0] = n[1] * t[2] - n[2] * t[1], b[1] = n[2] * t[0] - n[0] * t[2];
    b[2] = n[0] * t[1] - n[1] * t[0];
    return true;
}

/* Sample i, cosine-weighted within the cone of half-angle `cone` about
   the normal (pi/2 or more: the hemisphere): r1 scaled by sin^2 of the
   cone keeps the polar angle inside it. */
static void hemisphere_dir(const Hemisphere *h, uint32_t seed, int i, float cone, float d[3])
{
    float sc = cone > 0 && cone < 1.5707963f ? sinf(cone) : 1;
    float r1 = sc * sc * rt_unit(rt_hash(seed, 2 * (uint32_t)i, 0x7f4a7c15u));
    float r2 = rt_unit(rt_hash(seed, 2 * (uint32_t)i + 1, 0x7f4a7c15u));
    float r = sqrtf(r1), phi = 6.2831853f * r2, x = r * cosf(phi), y = r * sinf(phi);
    float z = sqrtf(fmaxf(0.0f, 1 - r1));
    for (int j = 0; j < 3; j++)
        d[j] = x * h->t[j] + y * h->b[j] + z * h->n[j];
}

/* A hemisphere query's ray count: "samples" (16 if under 1 or NaN), or
   -1 with a message past RT_MAX_HEMISPHERE_SAMPLES (infinity included),
   checked before the float becomes an int. */
static int hemisphere_samples(const VmRay *q, char *err, int errlen)
{
    if (!(q->samples >= 1))
        return 16;
    if (q->samples > RT_MAX_HEMISPHERE_SAMPLES) {
        snprintf(err, (size_t)errlen, "\"samples\" %g is over the limit of %d",
                 (double)q->samples, RT_MAX_HEMISPHERE_SAMPLES);
        return -1;
    }
    return (int)q->samples;
}

/* The hidden fraction of the hemisphere around n at p, by cosine-
   weighted rays up to maxdist. The rays share their origin, so they go
   to rtcore as streams (its packet kernels cull a node's children for
   the whole packet), not one rtOccluded1 each; the verdicts are the same
   as blocked_along's. */
static float occlusion(ShadeCtx *c, const VmRay *q, int samples)
{
    enum { CHUNK = 64 };
    Hemisphere h;
    if (!hemisphere(q, &h))
        return 0;
    float dist = q->maxdist > 0 ? q->maxdist : INFINITY;
    float bias = c->ray_bias > 0 ? c->ray_bias : trace_bias(q->P);
    if (!(dist > 2 * bias))
        return 0;
    float ox[CHUNK], oy[CHUNK], oz[CHUNK], tn[CHUNK], dx[CHUNK], dy[CHUNK], dz[CHUNK];
    float tf[CHUNK];
    RTRayNp r = { ox, oy, oz, tn, dx, dy, dz, tf };
    int hidden = 0;
    for (int base = 0; base < samples; base += CHUNK) {
        int n = samples - base < CHUNK ? samples - base : CHUNK;
        for (int i = 0; i < n; i++) {
            float d[3];
            hemisphere_dir(&h, q->seed, base + i, q->coneangle, d);
            ox[i] = q->P[0], oy[i] = q->P[1], oz[i] = q->P[2], tn[i] = bias;
            dx[i] = d[0], dy[i] = d[1], dz[i] = d[2], tf[i] = dist - bias;
        }
        trace_shader_blocked_n(c, &r, n);
        for (int i = 0; i < n; i++)
            hidden += tf[i] == -INFINITY;
    }
    return (float)hidden / (float)samples;
}

/* The light arriving at p from the hemisphere around n, cosine-weighted
   (irradiance over pi): the mean of what trace() sees along the same
   directions occlusion() takes, each shaded one level deeper. */
static int indirect(ShadeCtx *c, const VmRay *q, int samples, float out[3], char *err,
                    int errlen)
{
    Hemisphere h;
    out[0] = out[1] = out[2] = 0;
    if (!hemisphere(q, &h))
        return 0;
    for (int i = 0; i < samples; i++) {
        float d[3], seen[3];
        hemisphere_dir(&h, q->seed, i, q->coneangle, d);
        c->why[c->depth + 1 <= RT_MAX_DEPTH ? c->depth + 1 : RT_MAX_DEPTH] = 'i';
        if (shade_trace(c, q->P, d, q->seed + (uint32_t)i, seen, err, errlen) < 0)
            return -1;
        for (int j = 0; j < 3; j++)
            out[j] += seen[j] / (float)samples;
    }
    return 0;
}

static int host_ray_biased(ShadeCtx *c, const VmRay *q, float out[3], char *err, int errlen);

/* A gather ray: the nearest hit along r->D within maxdist, past the
   bias, and what the loop asks of it: surface:Ci (the color trace()
   sees along the ray, the hit shaded one level deeper), ray:length,
   primitive:P, primitive:N (the unit geometric normal). */
static int host_gather(void *user, const VmGatherRay *r, float *out, char *err, int errlen)
{
    ShadeCtx *c = user;
    float bias = r->bias > 0 ? r->bias : trace_bias(r->P);
    if (!(r->maxdist > bias))
        return 0;
    RTRayHit rh = { { r->P[0], r->P[1], r->P[2], bias, r->D[0], r->D[1], r->D[2], r->maxdist },
                    { 0, 0, 0, 0, 0, 0, RT_INVALID_ID, RT_INVALID_ID } };
    trace_shader_ray(c, &rh);
    if (rh.hit.geomID == RT_INVALID_ID)
        return 0;
    float t = rh.ray.tfar;
    for (int k = 0; k < r->n; k++) {
        float *o = out + r->at[k];
        const char *name = r->name[k];
        if (!strcmp(name, "surface:Ci") && r->width[k] == 3) {
            float outer = c->ray_bias;
            c->ray_bias = r->bias;
            c->why[c->depth + 1 <= RT_MAX_DEPTH ? c->depth + 1 : RT_MAX_DEPTH] = 't';
            int rc = shade_trace(c, r->P, r->D, r->seed + (uint32_t)k, o, err, errlen);
            c->ray_bias = outer;
            if (rc < 0)
                return -1;
        } else if (!strcmp(name, "ray:length") && r->width[k] == 1) {
            o[0] = t;
        } else if (!strcmp(name, "primitive:P") && r->width[k] == 3) {
            for (int j = 0; j < 3; j++)
                o[j] = r->P[j] + t * r->D[j];
        } else if (!strcmp(name, "primitive:N") && r->width[k] == 3) {
            float n[3] = { rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z };
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            for (int j = 0; j < 3; j++)
                o[j] = len > 0 ? n[j] / len : 0;
        } else {
            snprintf(err, (size_t)errlen, "rtrender has no gather value \"%s\" of that type "
                     "(it has surface:Ci, ray:length, ray:origin, ray:direction, primitive:P "
                     "and primitive:N)", name);
            return -1;
        }
    }
    return 1;
}

/* trace(P, R): the color along R, or with "coneangle" (and "samples")
   the mean over directions uniform in the cone about R. */
static int trace_cone(ShadeCtx *c, const VmRay *q, float out[3], char *err, int errlen)
{
    Hemisphere h;
    int samples = q->samples >= 1 ? (int)q->samples : 1;
    c->why[c->depth + 1 <= RT_MAX_DEPTH ? c->depth + 1 : RT_MAX_DEPTH] = 't';
    if (!(q->coneangle > 0) || !hemisphere(q, &h))
        return shade_trace(c, q->P, q->Q, q->seed, out, err, errlen);
    float cmax = cosf(fminf(q->coneangle, 3.1415927f)), sum[3] = { 0, 0, 0 };
    for (int i = 0; i < samples; i++) {
        float r1 = rt_unit(rt_hash(q->seed, 2 * (uint32_t)i, 0x2545f491u));
        float r2 = rt_unit(rt_hash(q->seed, 2 * (uint32_t)i + 1, 0x2545f491u));
        float z = 1 - r1 * (1 - cmax), r = sqrtf(fmaxf(0.0f, 1 - z * z)), phi = 6.2831853f * r2;
        float d[3], seen[3];
        for (int j = 0; j < 3; j++)
            d[j] = r * cosf(phi) * h.t[j] + r * sinf(phi) * h.b[j] + z * h.n[j];
        if (shade_trace(c, q->P, d, q->seed + (uint32_t)i, seen, err, errlen) < 0)
            return -1;
        for (int j = 0; j < 3; j++)
            sum[j] += seen[j] / (float)samples;
    }
    memcpy(out, sum, sizeof sum);
    return 0;
}

/* The next call in lane's list while the path tracer shades
   (ShadeGiven.traces), cleared, and whether it answers 1 (the lane's
   white call); NULL with a message past SHADE_MAX_TRACES. */
static ShadeTrace *given_call(ShadeCtx *c, int lane, bool *white, char *err, int errlen)
{
    const ShadeGiven *g = c->given;
    ShadeTraces *t = &g->traces[lane];
    if (t->n == SHADE_MAX_TRACES) {
        snprintf(err, (size_t)errlen,
                 "more than %d trace() and environment() calls at one shading point: the "
                 "path tracer follows each as a lobe of the surface", SHADE_MAX_TRACES);
        return NULL;
    }
    int k = t->n++;
    *white = g->white && g->white[lane] == k;
    t->call[k] = (ShadeTrace){ .env = false };
    return &t->call[k];
}

/* trace() at depth 0 while the path tracer shades (ShadeGiven.traces):
   recorded, not traced, and answered 1 for the lane's white call. */
static int given_trace(ShadeCtx *c, const VmRay *q, float out[3], char *err, int errlen)
{
    bool white;
    ShadeTrace *o = given_call(c, q->lane, &white, err, errlen);
    if (!o)
        return -1;
    float len = sqrtf(q->Q[0] * q->Q[0] + q->Q[1] * q->Q[1] + q->Q[2] * q->Q[2]);
    for (int j = 0; j < 3; j++)
        o->P[j] = q->P[j], o->D[j] = len > 0 ? q->Q[j] / len : 0;
    out[0] = out[1] = out[2] = white ? 1.0f : 0.0f;
    return 0;
}

static int host_ray(void *user, const VmRay *q, float out[3], char *err, int errlen)
{
    ShadeCtx *c = user;
    /* "bias": how far rays start from P, for this query's rays only. */
    float outer = c->ray_bias;
    c->ray_bias = q->bias;
    int rc = host_ray_biased(c, q, out, err, errlen);
    c->ray_bias = outer;
    return rc;
}

static int host_ray_biased(ShadeCtx *c, const VmRay *q, float out[3], char *err, int errlen)
{
    switch (q->kind) {
    case VM_RAY_TRACE:
        if (c->depth == 0 && c->given && c->given->traces)
            return given_trace(c, q, out, err, errlen);
        return trace_cone(c, q, out, err, errlen);
    case VM_RAY_TRANSMISSION:
    case VM_RAY_VISIBILITY: {
        bool opacity = q->kind == VM_RAY_TRANSMISSION;
        ShadeShadowRay *s = c->depth == 0 && c->shadow_rays ? &c->shadow_rays[q->lane] : NULL;
        /* The shadow stream sees opacity as transmission() does: where
           some surface lets light through, visibility() is answered
           here. */
        if (s && !s->asked && (opacity || !c->world->translucent)) {
            s->asked = true;
            memcpy(s->P, q->P, sizeof s->P), memcpy(s->Q, q->Q, sizeof s->Q);
            out[0] = out[1] = out[2] = 1;
            return 0;
        }
        visibility(c, q->P, q->Q, opacity, out);
        return 0;
    }
    case VM_RAY_OCCLUSION:
    case VM_RAY_INDIRECT: {
        int samples = hemisphere_samples(q, err, errlen);
        if (samples < 0)
            return -1;
        if (q->kind == VM_RAY_INDIRECT)
            return indirect(c, q, samples, out, err, errlen);
        out[0] = out[1] = out[2] = occlusion(c, q, samples);
        return 0;
    }
    }
    snprintf(err, (size_t)errlen, "unknown ray query %d", (int)q->kind);
    return -1;
}

/* host_ray for the queries of one call at a group of lanes: transmission
   (and visibility where every surface is opaque) as one stream of shadow
   rays, which the packet kernels trace together; the others, and those
   the path tracer's shadow stream waits for, one by one. */
static int host_rays(void *user, const VmRay *q, int n, float (*out)[3], char *err, int errlen)
{
    ShadeCtx *c = user;
    bool stream = n <= VM_MAX_BATCH && !(c->depth == 0 && c->shadow_rays)
                  && (q[0].kind == VM_RAY_TRANSMISSION
                      || (q[0].kind == VM_RAY_VISIBILITY && !c->world->translucent));
    for (int k = 1; stream && k < n; k++)
        stream = q[k].kind == q[0].kind && q[k].bias == q[0].bias;
    if (!stream) {
        for (int k = 0; k < n; k++)
            if (host_ray(user, &q[k], out[k], err, errlen))
                return -1;
        return 0;
    }
    float p[VM_MAX_BATCH][3], d[VM_MAX_BATCH][3], len[VM_MAX_BATCH];
    for (int k = 0; k < n; k++) {
        memcpy(p[k], q[k].P, sizeof p[k]);
        len[k] = segment_to(q[k].P, q[k].Q, d[k]);
    }
    float outer = c->ray_bias;
    c->ray_bias = q[0].bias;
    trace_transmission_along(c, n, (const float (*)[3])p, (const float (*)[3])d, len, out);
    c->ray_bias = outer;
    return 0;
}

static int host_query(void *user, const char *kind, const char *name, char type, int n, float *out,
                      const char **str)
{
    ShadeCtx *c = user;
    const RibOptions *o = &c->world->frame->options;
    if (!strcmp(kind, "rendererinfo") && !strcmp(name, "renderer") && type == 's') {
        *str = "rtrender";
        return 1;
    }
    if (!strcmp(kind, "rayinfo") && !strcmp(name, "depth") && type == 'f' && n == 1) {
        out[0] = (float)c->depth;
        return 1;
    }
    /* Shadow rays (transmission, visibility, occlusion) stop at the
       geometry: no shader ever runs for one here, so none is one. The
       deeper levels are shaded for trace() and indirectdiffuse(). */
    if (!strcmp(kind, "rayinfo") && !strcmp(name, "shadowray") && type == 'f' && n == 1) {
        out[0] = 0;
        return 1;
    }
    if (!strcmp(kind, "rayinfo") && !strcmp(name, "indirectray") && type == 'f' && n == 1) {
        out[0] = c->depth > 0 && (c->why[c->depth] == 'i' || c->why[c->depth] == 't');
        return 1;
    }
    const ShadeFrame *f = &c->frame[c->depth];
    if (!strcmp(kind, "shadername") && type == 's') {
        const RLook *l = f->look;
        const RShader *sh = !l                            ? NULL
                          : !strcmp(name, "surface")      ? l->surface
                          : !strcmp(name, "displacement") ? l->displacement
                          : !strcmp(name, "atmosphere")   ? l->atmosphere
                          : !strcmp(name, "light") && f->light_at >= 0 && f->light_at < f->nsaved_lights
                              ? f->saved_sh[f->light_at]
                              : NULL;
        *str = sh ? sh->rib->name : "";
        return 1;
    }
    if (!strcmp(kind, "option") && !strcmp(name, "Format") && n == 3) {
        out[0] = (float)o->xres, out[1] = (float)o->yres, out[2] = o->pixel_aspect;
        return 1;
    }
    const RibAttributes *a = c->frame[c->depth].look ? c->frame[c->depth].look->attrs : NULL;
    if (!strcmp(kind, "attribute") && a) {
        const RibParam *p = rib_param_find(a->attributes, a->nattributes, name);
        if (p && type == 's' && p->s && n == 1) {
            *str = p->s[0];
            return 1;
        }
        if (p && type != 's' && p->f && (size_t)n == p->count * (size_t)p->ncomp) {
            memcpy(out, p->f, (size_t)n * sizeof *out);
            return 1;
        }
    }
    return 0;
}

/* surface(), displacement() and atmosphere() read the look's shader of
   that kind: after it has run for the batch, what the run left; before
   (lights run before the surface), the instance's values. lightsource()
   reads the light sample illuminance is at, as its run left it (kept
   when the surface calls lightsource()). rtrender has no interior or
   exterior volumes: incident() and opposite() say so. */
static int host_message(void *user, const char *kind, const char *name, int lane, char type,
                        int n, float *out, const char **str)
{
    ShadeCtx *c = user;
    const ShadeFrame *f = &c->frame[c->depth];
    const RLook *l = f->look;
    if (!strcmp(kind, "incident") || !strcmp(kind, "opposite"))
        return -1;
    if (!l)
        return 0;
    const RShader *sh = NULL;
    const float *from = NULL;
    bool ran = true;
    if (!strcmp(kind, "surface"))
        sh = l->surface, ran = f->ran_surface;
    else if (!strcmp(kind, "displacement"))
        sh = l->displacement, ran = f->ran_displacement;
    else if (!strcmp(kind, "atmosphere"))
        sh = l->atmosphere, ran = f->ran_atmosphere;
    else if (!strcmp(kind, "lightsource") && f->light_at >= 0 && f->light_at < f->nsaved_lights
             && f->saved_sh[f->light_at]) {
        sh = f->saved_sh[f->light_at];
        from = f->saved + f->saved_at[f->light_at];
    }
    if (!sh)
        return 0;
    return c->shading->param(c->thread, c->depth, sh, from, ran, name, type, n, lane, out, str);
}

/* A lookup into out; a map that cannot be had under --missing-maps
   black is 1 with the warning and zeros. */
static int lookup(ShadeCtx *c, const VmTexLookup *q, float *out, char *err, int errlen)
{
    int rc = texsys_lookup(c->world->textures, q, out, err, errlen);
    if (rc >= 0)
        return rc;
    if (!c->world->maps_black)
        return -1;
    /* A missing or unreadable map: said once per call site (the VM's
       warning), and the lookup is 0, unshadowed for shadow(). */
    memset(out, 0, (size_t)q->nchannels * sizeof *out);
    size_t len = strlen(err);
    snprintf(err + len, (size_t)errlen - len, "; it looks up as 0 (--missing-maps black)");
    return 1;
}

/* environment() at depth 0 while the path tracer shades (ShadeGiven):
   looked up, then recorded among its lane's calls and answered as
   trace() calls are. Its direction is read as a world-space vector, as
   RenderMan's environment maps are made (shinymetal.sl's
   vtransform("world", ...)): the call's lobe goes along that vector
   taken to camera space, and a path leaving the scene along it sees the
   map along that one direction. The vector is the mean of the lookup's
   corners, the call's own direction where the hit's derivatives
   (stand-in neighbours) widen one direction into a region; and the
   path's samples of its pixel filter what it sees, so the map is not
   filtered again over that region. A lookup of no direction (its fill)
   stays the shader's own emission. */
static int given_environment(ShadeCtx *c, const VmTexLookup *q, float *out, char *err,
                             int errlen)
{
    float seen[3] = { 0, 0, 0 }, D[3] = { 0, 0, 0 }, W[3];
    for (int i = 0; i < 4; i++) {
        const float *d = q->corner[i];
        for (int k = 0; k < 3; k++)
            D[k] += d[k] / 4;
    }
    rmat_vector(&c->world->world_to_camera, D, W);
    float len = sqrtf(W[0] * W[0] + W[1] * W[1] + W[2] * W[2]);
    if (!(len > 0) || !isfinite(len)) {
        int rc = lookup(c, q, seen, err, errlen);
        memcpy(out, seen, (size_t)q->nchannels * sizeof *out);
        return rc;
    }
    VmTexLookup along = *q;
    for (int i = 0; i < 4; i++)
        memcpy(along.corner[i], D, sizeof D);
    int rc = lookup(c, &along, seen, err, errlen);
    if (rc < 0)
        return -1;
    memset(out, 0, (size_t)q->nchannels * sizeof *out);
    bool white;
    ShadeTrace *o = given_call(c, q->lane, &white, err, errlen);
    if (!o)
        return -1;
    o->env = true;
    for (int j = 0; j < 3; j++)
        o->D[j] = W[j] / len, o->seen[j] = seen[q->nchannels == 3 ? j : 0];
    for (int j = 0; white && j < q->nchannels; j++)
        out[j] = 1;
    return rc;
}

static int host_texture(void *user, const VmTexLookup *q, float *out, char *err, int errlen)
{
    ShadeCtx *c = user;
    if (q->kind == VM_SHADOW && !strcmp(q->name, "raytrace")) {
        snprintf(err, (size_t)errlen, "shadow(\"raytrace\", ...) has no light to trace to: "
                                      "use transmission(Ps, from) in the light shader");
        return -1;
    }
    if (q->kind == VM_ENVIRONMENT && c->depth == 0 && c->given && c->given->traces)
        return given_environment(c, q, out, err, errlen);
    return lookup(c, q, out, err, errlen);
}

static int host_textureinfo(void *user, const char *name, const char *field, char type, int n,
                            float *out, const char **str, char *err, int errlen)
{
    ShadeCtx *c = user;
    return texsys_info(c->world->textures, name, field, type, n, out, str, err, errlen);
}

void host_install(ShadeCtx *c)
{
    const RibOptions *o = &c->world->frame->options;
    c->host = (VmHost){
        .light = host_light,
        .light_rows = host_light_rows,
        .light_category = host_light_category,
        .space = host_space,
        .clip_near = o->near_clip,
        .clip_far = o->far_clip,
        .texture = host_texture,
        .textureinfo = host_textureinfo,
        .ray = host_ray,
        .rays = host_rays,
        .gather = host_gather,
        .query = host_query,
        .message = host_message,
        .user = c,
    };
}
