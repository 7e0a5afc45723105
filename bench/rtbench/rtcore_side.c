/*
** rtcore_side.c: the rtcore backend, the library under test.
*/
#include "config.h"
#include "bench/rtbench/backend.h"

#include <rtcore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct OScene {
    RTDevice device;
    RTScene scene;
} OScene;

typedef struct OState {
    union {
        RTRayHit r1;
        RTRayHit4 r4;
        RTRayHit8 r8;
        RTRayHit16 r16;
    } p;
    int valid[16];
    RTScene scene;
    RTRayHitNp np;
    void *block;     /* the stream's arrays */
} OState;

static void report(void *user, RTError code, const char *msg)
{
    fprintf(stderr, "rtbench: rtcore error %d: %s\n", (int)code, msg);
}

static void rtcore_release(void *p)
{
    OScene *s = p;
    if (s->scene)
        rtReleaseScene(s->scene);
    if (s->device)
        rtReleaseDevice(s->device);
    free(s);
}

static void *rtcore_build(const Mesh *m, int threads, const char *isa,
                          BuildInfo *info, char *err, size_t errlen)
{
    char config[64];
    device_config(config, sizeof config, threads, isa);
    OScene *s = calloc(1, sizeof *s);
    if (s)
        s->device = rtNewDevice(config);
    if (!s || !s->device) {
        snprintf(err, errlen, "rtbench: error: rtcore: cannot create a device (%s)",
                 config);
        free(s);
        return NULL;
    }
    rtSetDeviceErrorFunction(s->device, report, NULL);
    s->scene = rtNewScene(s->device);
    rtAttachTriangleMesh(s->scene, m->verts, m->nverts, 0, m->tris, m->ntris);
    double t0 = now_seconds();
    rtCommitScene(s->scene);
    info->ms = (now_seconds() - t0) * 1e3;
    if (!s->scene || rtGetDeviceError(s->device) != RT_ERROR_NONE) {
        snprintf(err, errlen, "rtbench: error: rtcore: the build failed");
        rtcore_release(s);
        return NULL;
    }
    RTSceneStats stats;
    rtGetSceneStats(s->scene, &stats);
    info->bytes = stats.bytes;
    info->sah = stats.sah_cost;
    snprintf(info->what, sizeof info->what, "rtcore %s BVH%d",
             rtGetDeviceISA(s->device), stats.width);
    return s;
}

static void *rtcore_begin(void *scene, Kernel k, bool coherent, Lanes *lanes)
{
    OState *st = aligned_alloc(64, (sizeof *st + 63) & ~(size_t)63);
    if (!st)
        return NULL;
    memset(st, 0, sizeof *st);
    st->scene = ((OScene *)scene)->scene;
    void *x[6];
    switch (k) {
    case K_SINGLE: LANES_AT(lanes, st->p.r1, NULL); break;
    case K_PACKET4: LANES_AT(lanes, st->p.r4, st->valid); break;
    case K_PACKET8: LANES_AT(lanes, st->p.r8, st->valid); break;
    case K_PACKET16: LANES_AT(lanes, st->p.r16, st->valid); break;
    case K_STREAM:
        st->block = lanes_alloc(lanes, STREAM_RAYS, 6, x);
        if (!st->block) {
            free(st);
            return NULL;
        }
        NP_AT(st->np, *lanes, x);
        st->np.hit.instID = x[5];
        break;
    default:
        break;
    }
    return st;
}

static void rtcore_fire(void *state, Kernel k, bool occlusion, size_t m)
{
    OState *st = state;
    switch (k) {
    case K_SINGLE:
        occlusion ? rtOccluded1(st->scene, &st->p.r1.ray)
                  : rtIntersect1(st->scene, &st->p.r1);
        break;
    case K_PACKET4:
        occlusion ? rtOccluded4(st->valid, st->scene, &st->p.r4.ray)
                  : rtIntersect4(st->valid, st->scene, &st->p.r4);
        break;
    case K_PACKET8:
        occlusion ? rtOccluded8(st->valid, st->scene, &st->p.r8.ray)
                  : rtIntersect8(st->valid, st->scene, &st->p.r8);
        break;
    case K_PACKET16:
        occlusion ? rtOccluded16(st->valid, st->scene, &st->p.r16.ray)
                  : rtIntersect16(st->valid, st->scene, &st->p.r16);
        break;
    case K_STREAM:
        occlusion ? rtOccludedNp(st->scene, &st->np.ray, m)
                  : rtIntersectNp(st->scene, &st->np, m);
        break;
    default:
        break;
    }
}

static void rtcore_end(void *state)
{
    OState *st = state;
    free(st->block);
    free(st);
}

const Backend rtcore_backend = {
    "rtcore", rtcore_build, rtcore_release, rtcore_begin, rtcore_fire, rtcore_end
};
