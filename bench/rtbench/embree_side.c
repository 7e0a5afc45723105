/*
** embree_side.c: the Embree 3 backend, the baseline rtcore is measured
** against. Built only with HAVE_EMBREE. The mesh buffers are shared with
** Embree, as with rtcore, so neither side copies them and the memory
** monitor sees only what the build allocates.
*/
#include "config.h"
#include "bench/rtbench/backend.h"

#include <embree3/rtcore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct EScene {
    RTCDevice device;
    RTCScene scene;
    atomic_llong bytes;     /* net bytes Embree has allocated */
} EScene;

typedef struct EState {
    union {
        struct RTCRayHit r1;
        struct RTCRayHit4 r4;
        struct RTCRayHit8 r8;
        struct RTCRayHit16 r16;
    } p;
    int valid[16];
    struct RTCIntersectContext ctx;
    RTCScene scene;
    struct RTCRayHitNp np;
    void *block;     /* the stream's arrays */
} EState;

static bool monitor(void *user, ssize_t bytes, bool post)
{
    atomic_fetch_add(&((EScene *)user)->bytes, (long long)bytes);
    return true;
}

static void report(void *user, enum RTCError code, const char *msg)
{
    fprintf(stderr, "rtbench: Embree error %d: %s\n", (int)code, msg);
}

static void embree_release(void *p)
{
    EScene *s = p;
    if (s->scene)
        rtcReleaseScene(s->scene);
    if (s->device)
        rtcReleaseDevice(s->device);
    free(s);
}

static void *embree_build(const Mesh *m, int threads, const char *isa,
                          BuildInfo *info, char *err, size_t errlen)
{
    char config[64];
    device_config(config, sizeof config, threads, isa);
    EScene *s = calloc(1, sizeof *s);
    if (s)
        s->device = rtcNewDevice(config);
    if (!s || !s->device) {
        snprintf(err, errlen, "rtbench: error: Embree: cannot create a device (%s)",
                 config);
        free(s);
        return NULL;
    }
    rtcSetDeviceErrorFunction(s->device, report, NULL);
    rtcSetDeviceMemoryMonitorFunction(s->device, monitor, s);
    long long before = atomic_load(&s->bytes);
    s->scene = rtcNewScene(s->device);
    RTCGeometry g = rtcNewGeometry(s->device, RTC_GEOMETRY_TYPE_TRIANGLE);
    rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                               m->verts, 0, 3 * sizeof(float), m->nverts);
    rtcSetSharedGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                               m->tris, 0, 3 * sizeof(uint32_t), m->ntris);
    rtcCommitGeometry(g);
    rtcAttachGeometry(s->scene, g);
    rtcReleaseGeometry(g);
    double t0 = now_seconds();
    rtcCommitScene(s->scene);
    info->ms = (now_seconds() - t0) * 1e3;
    if (rtcGetDeviceError(s->device) != RTC_ERROR_NONE) {
        snprintf(err, errlen, "rtbench: error: Embree: the build failed");
        embree_release(s);
        return NULL;
    }
    info->bytes = (size_t)(atomic_load(&s->bytes) - before);
    info->sah = -1;
    long v = (long)rtcGetDeviceProperty(s->device, RTC_DEVICE_PROPERTY_VERSION);
    snprintf(info->what, sizeof info->what, "Embree %ld.%ld.%ld", v / 10000,
             v / 100 % 100, v % 100);
    return s;
}

/* Fields Embree reads but the benchmark never varies. */
static void constants(float *time, unsigned *mask, unsigned *id,
                      unsigned *flags, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        time[i] = 0;
        mask[i] = ~0u;
        id[i] = (unsigned)i;
        flags[i] = 0;
    }
}

#define CONSTANTS(rh, n)                                                  \
    constants((float *)&(rh).ray.time, (unsigned *)&(rh).ray.mask,        \
              (unsigned *)&(rh).ray.id, (unsigned *)&(rh).ray.flags, n)

static void *embree_begin(void *scene, Kernel k, bool coherent, Lanes *lanes)
{
    EState *st = aligned_alloc(64, (sizeof *st + 63) & ~(size_t)63);
    if (!st)
        return NULL;
    memset(st, 0, sizeof *st);
    st->scene = ((EScene *)scene)->scene;
    rtcInitIntersectContext(&st->ctx);
    if (coherent)
        st->ctx.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
    void *x[10];
    switch (k) {
    case K_SINGLE: LANES_AT(lanes, st->p.r1, NULL); CONSTANTS(st->p.r1, 1); break;
    case K_PACKET4: LANES_AT(lanes, st->p.r4, st->valid); CONSTANTS(st->p.r4, 4); break;
    case K_PACKET8: LANES_AT(lanes, st->p.r8, st->valid); CONSTANTS(st->p.r8, 8); break;
    case K_PACKET16: LANES_AT(lanes, st->p.r16, st->valid); CONSTANTS(st->p.r16, 16); break;
    case K_STREAM:
        st->block = lanes_alloc(lanes, STREAM_RAYS, 10, x);
        if (!st->block) {
            free(st);
            return NULL;
        }
        NP_AT(st->np, *lanes, x);
        st->np.hit.instID[0] = x[5];
        st->np.ray.time = x[6];
        st->np.ray.mask = x[7];
        st->np.ray.id = x[8];
        st->np.ray.flags = x[9];
        constants(x[6], x[7], x[8], x[9], STREAM_RAYS);
        break;
    default:
        break;
    }
    return st;
}

static void embree_fire(void *state, Kernel k, bool occlusion, size_t m)
{
    EState *st = state;
    struct RTCIntersectContext *c = &st->ctx;
    switch (k) {
    case K_SINGLE:
        occlusion ? rtcOccluded1(st->scene, c, &st->p.r1.ray)
                  : rtcIntersect1(st->scene, c, &st->p.r1);
        break;
    case K_PACKET4:
        occlusion ? rtcOccluded4(st->valid, st->scene, c, &st->p.r4.ray)
                  : rtcIntersect4(st->valid, st->scene, c, &st->p.r4);
        break;
    case K_PACKET8:
        occlusion ? rtcOccluded8(st->valid, st->scene, c, &st->p.r8.ray)
                  : rtcIntersect8(st->valid, st->scene, c, &st->p.r8);
        break;
    case K_PACKET16:
        occlusion ? rtcOccluded16(st->valid, st->scene, c, &st->p.r16.ray)
                  : rtcIntersect16(st->valid, st->scene, c, &st->p.r16);
        break;
    case K_STREAM:
        occlusion ? rtcOccludedNp(st->scene, c, &st->np.ray, (unsigned)m)
                  : rtcIntersectNp(st->scene, c, &st->np, (unsigned)m);
        break;
    default:
        break;
    }
}

static void embree_end(void *state)
{
    EState *st = state;
    free(st->block);
    free(st);
}

const Backend embree_backend = {
    "Embree", embree_build, embree_release, embree_begin, embree_fire, embree_end
};
