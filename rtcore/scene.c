/*
** scene.c: scenes as the API sees them: creation, lifetime, attaching
** meshes and instances (with their argument checks), commit, and what a
** commit reports. The build itself is commit.c's.
*/
#include "config.h"
#include "rtcore/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

RTScene rtNewScene(RTDevice device)
{
    if (!device) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtNewScene: NULL device");
        return NULL;
    }
    RTScene s = calloc(1, sizeof *s);
    if (!s) {
        rt_error(device, RT_ERROR_OUT_OF_MEMORY, "rtNewScene: out of memory");
        return NULL;
    }
    atomic_init(&s->refs, 1);
    s->device = device;
    s->bvh.root = RT_REF_EMPTY;
    s->bvh.width = device->kernels->width;
    rt_device_retain(device);
    return s;
}

void rt_scene_release(RTScene s)
{
    if (atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    for (size_t i = 0; i < s->ngeoms; i++)
        if (s->geoms[i].instance)
            rt_scene_release(s->geoms[i].source);
    rt_bvh_free(&s->bvh);
    free(s->geoms);
    rt_device_release(s->device);
    free(s);
}

void rtReleaseScene(RTScene scene)
{
    if (!scene) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtReleaseScene: NULL scene");
        return;
    }
    rt_scene_release(scene);
}

/* Appends a geometry and returns its id, RT_INVALID_ID when out of memory. */
static unsigned add_geom(RTScene s, const RtGeom *g, const char *fn)
{
    if (s->ngeoms >= RT_ID_LIMIT) {
        rt_error(s->device, RT_ERROR_INVALID_ARGUMENT, "%s: too many geometries", fn);
        return RT_INVALID_ID;
    }
    if (s->ngeoms == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        RtGeom *n = realloc(s->geoms, cap * sizeof *n);
        if (!n) {
            rt_error(s->device, RT_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
            return RT_INVALID_ID;
        }
        s->geoms = n;
        s->cap = cap;
    }
    s->geoms[s->ngeoms] = *g;
    s->committed = false;
    return (unsigned)s->ngeoms++;
}

unsigned rtAttachTriangleMesh(RTScene scene, const float *vertices, size_t nverts,
                              size_t vstride, const uint32_t *indices, size_t ntris)
{
    static const char fn[] = "rtAttachTriangleMesh";
    if (!scene) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "%s: NULL scene", fn);
        return RT_INVALID_ID;
    }
    RTDevice d = scene->device;
    if (vstride == 0)
        vstride = 3 * sizeof(float);
    if ((ntris && (!vertices || !indices)) || (nverts && !vertices)) {
        rt_error(d, RT_ERROR_INVALID_ARGUMENT, "%s: NULL buffer", fn);
        return RT_INVALID_ID;
    }
    if (vstride < 3 * sizeof(float) || vstride % sizeof(float)) {
        rt_error(d, RT_ERROR_INVALID_ARGUMENT, "%s: bad vertex stride %zu", fn, vstride);
        return RT_INVALID_ID;
    }
    if (ntris >= RT_ID_LIMIT || nverts > UINT32_MAX) {
        rt_error(d, RT_ERROR_INVALID_ARGUMENT, "%s: too many triangles or vertices", fn);
        return RT_INVALID_ID;
    }
    for (size_t i = 0; i < 3 * ntris; i++) {
        if (indices[i] >= nverts) {
            rt_error(d, RT_ERROR_INVALID_ARGUMENT,
                     "%s: triangle %zu has vertex index %u, out of range (%zu vertices)",
                     fn, i / 3, indices[i], nverts);
            return RT_INVALID_ID;
        }
    }
    RtGeom g = { .verts = vertices, .nverts = nverts, .vstride = vstride,
                 .indices = indices, .ntris = ntris };
    return add_geom(scene, &g, fn);
}

unsigned rtAttachInstance(RTScene scene, RTScene source, const float xfm[12])
{
    static const char fn[] = "rtAttachInstance";
    if (!scene) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "%s: NULL scene", fn);
        return RT_INVALID_ID;
    }
    RTDevice d = scene->device;
    if (!source || !xfm) {
        rt_error(d, RT_ERROR_INVALID_ARGUMENT, "%s: NULL %s", fn, source ? "matrix" : "source");
        return RT_INVALID_ID;
    }
    if (source == scene || source->device != d) {
        rt_error(d, RT_ERROR_INVALID_ARGUMENT,
                 "%s: the source must be another scene of the same device", fn);
        return RT_INVALID_ID;
    }
    if (!source->committed) {
        rt_error(d, RT_ERROR_INVALID_OPERATION, "%s: the source scene is not committed", fn);
        return RT_INVALID_ID;
    }
    if (source->bvh.insts) {
        rt_error(d, RT_ERROR_INVALID_ARGUMENT,
                 "%s: the source scene holds instances (one level only)", fn);
        return RT_INVALID_ID;
    }
    for (int i = 0; i < 12; i++) {
        if (!isfinite(xfm[i])) {
            rt_error(d, RT_ERROR_INVALID_ARGUMENT, "%s: non-finite matrix entry", fn);
            return RT_INVALID_ID;
        }
    }
    RtGeom g = { .instance = true, .source = source };
    memcpy(g.xfm, xfm, sizeof g.xfm);
    unsigned id = add_geom(scene, &g, fn);
    if (id != RT_INVALID_ID)
        atomic_fetch_add(&source->refs, 1);
    return id;
}

void rtCommitScene(RTScene scene)
{
    if (!scene) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "rtCommitScene: NULL scene");
        return;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool ok = rt_scene_build(scene);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    scene->stats.build_ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
    scene->committed = true;
    if (!ok)
        rt_error(scene->device, RT_ERROR_OUT_OF_MEMORY, "rtCommitScene: out of memory");
}

void rtGetSceneBounds(RTScene scene, float lower[3], float upper[3])
{
    if (!scene || !lower || !upper) {
        rt_error(scene ? scene->device : NULL, RT_ERROR_INVALID_ARGUMENT,
                 "rtGetSceneBounds: NULL argument");
        return;
    }
    if (!scene->committed)
        rt_error(scene->device, RT_ERROR_INVALID_OPERATION,
                 "rtGetSceneBounds: scene not committed");
    memcpy(lower, scene->bvh.lower, sizeof scene->bvh.lower);
    memcpy(upper, scene->bvh.upper, sizeof scene->bvh.upper);
}

void rtGetSceneStats(RTScene scene, RTSceneStats *stats)
{
    if (!scene || !stats) {
        rt_error(scene ? scene->device : NULL, RT_ERROR_INVALID_ARGUMENT,
                 "rtGetSceneStats: NULL argument");
        return;
    }
    *stats = scene->stats;
}
