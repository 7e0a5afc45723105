/*
** host.c: the renderer's side of runtime/host.h. Lights come from the light
** shaders run over the batch before the surface (shade.c); spaces from
** the frame's transforms; traced rays go through rtcore, and what they
** hit is shaded one level deeper.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/image/texture.h"
#include "render/internal.h"

static bool host_light(void *user, int i, int lane, const float P[3], VmLightSample *out)
{
    (void)P;
    ShadeCtx *c = user;
    const ShadeFrame *f = &c->frame[c->depth];
    if (i < 0 || i >= f->look->nsamples || !f->lit[i * VM_MAX_BATCH + lane])
        return false;
    *out = f->light[i * VM_MAX_BATCH + lane];
    return true;
}

static bool host_space(void *user, const char *name, float m[16])
{
    ShadeCtx *c = user;
    const ShadeFrame *f = &c->frame[c->depth];
    const RWorld *w = c->world;
    RibMatrix to_camera;
    if (!strcmp(name, "camera") || !strcmp(name, "current")) {
        static const float id[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
        memcpy(m, id, sizeof id);
        return true;
    }
    if (!strcmp(name, "world"))
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
    float bias = trace_bias(p);
    if (!(dist > 2 * bias))
        return false;
    RTRay r = { p[0], p[1], p[2], bias, d[0], d[1], d[2], dist - bias };
    c->secondary_rays++;
    rtOccluded1(c->world->top, &r);
    return r.tfar == -INFINITY;
}

/* Whether anything lies on the segment from p to q. */
static bool blocked(ShadeCtx *c, const float p[3], const float q[3])
{
    float d[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] };
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len == 0)
        return false;
    d[0] /= len, d[1] /= len, d[2] /= len;
    return blocked_along(c, p, d, len);
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

static void hemisphere_dir(const Hemisphere *h, uint32_t seed, int i, float d[3])
{
    float r1 = rt_unit(rt_hash(seed, 2 * (uint32_t)i, 0x7f4a7c15u));
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
   weighted rays up to maxdist. */
static float occlusion(ShadeCtx *c, const VmRay *q, int samples)
{
    Hemisphere h;
    if (!hemisphere(q, &h))
        return 0;
    float dist = q->maxdist > 0 ? q->maxdist : INFINITY, d[3];
    int hidden = 0;
    for (int i = 0; i < samples; i++) {
        hemisphere_dir(&h, q->seed, i, d);
        hidden += blocked_along(c, q->P, d, dist);
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
        hemisphere_dir(&h, q->seed, i, d);
        if (shade_trace(c, q->P, d, q->seed + (uint32_t)i, seen, err, errlen) < 0)
            return -1;
        for (int j = 0; j < 3; j++)
            out[j] += seen[j] / (float)samples;
    }
    return 0;
}

static int host_ray(void *user, const VmRay *q, float out[3], char *err, int errlen)
{
    ShadeCtx *c = user;
    switch (q->kind) {
    case VM_RAY_TRACE:
        return shade_trace(c, q->P, q->Q, q->seed, out, err, errlen);
    case VM_RAY_TRANSMISSION:
    case VM_RAY_VISIBILITY: {
        float v = blocked(c, q->P, q->Q) ? 0.0f : 1.0f;
        out[0] = out[1] = out[2] = v;
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

static int host_texture(void *user, const VmTexLookup *q, float *out, char *err, int errlen)
{
    ShadeCtx *c = user;
    if (q->kind == VM_SHADOW && !strcmp(q->name, "raytrace")) {
        snprintf(err, (size_t)errlen, "shadow(\"raytrace\", ...) has no light to trace to: "
                                      "use transmission(Ps, from) in the light shader");
        return -1;
    }
    return texsys_lookup(c->world->textures, q, out, err, errlen);
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
        .space = host_space,
        .clip_near = o->near_clip,
        .clip_far = o->far_clip,
        .texture = host_texture,
        .textureinfo = host_textureinfo,
        .ray = host_ray,
        .query = host_query,
        .user = c,
    };
}
