/*
** scene.h: the scene object: its geometries as attached, and the BVH and
** statistics of its last commit.
*/
#ifndef RTCORE_SCENE_H
#define RTCORE_SCENE_H

#include <stdatomic.h>
#include <stdbool.h>
#include "rtcore/device.h"
#include "rtcore/node.h"

/* Bound on geometry ids and on the primitives of one scene: the builder
   indexes them with 31 bits. */
#define RT_ID_LIMIT 0x7fffffffu

typedef struct RtGeom {
    bool instance;
    /* a triangle mesh (shared buffers) */
    const float *verts;
    size_t nverts, vstride;
    const uint32_t *indices;
    size_t ntris;
    /* an instance */
    RTScene source;
    float xfm[12];
} RtGeom;

struct RTSceneTy {
    atomic_int refs;          /* the user's, plus one per instance of it */
    RTDevice device;
    RtGeom *geoms;
    size_t ngeoms, cap;
    bool committed;           /* a commit since the last attach */
    RtBvh bvh;
    RTSceneStats stats;
};

/* Builds s->bvh from s->geoms (commit.c). Returns false out of memory,
   leaving an empty BVH. */
bool rt_scene_build(RTScene s);
/* Frees what rt_scene_build allocated. */
void rt_bvh_free(RtBvh *bvh);
/* Drops a reference (scene.c). */
void rt_scene_release(RTScene s);

/* rtOccludedNp with every chunk in groups of rays walking node by node,
   whatever the tree's size (stream.c): for the tests, whose scenes are
   too small for rtOccludedNp to pick the groups. */
void rt_occluded_groups(RTScene scene, const RTRayNp *rays, size_t n);

/* A scene ready for queries, or NULL after reporting why not. */
static inline const RtBvh *rt_query_bvh(RTScene s, const void *arg, const char *fn)
{
    if (!s) {
        rt_error(NULL, RT_ERROR_INVALID_ARGUMENT, "%s: NULL scene", fn);
        return NULL;
    }
    if (!arg) {
        rt_error(s->device, RT_ERROR_INVALID_ARGUMENT, "%s: NULL ray", fn);
        return NULL;
    }
    if (!s->committed) {
        rt_error(s->device, RT_ERROR_INVALID_OPERATION, "%s: scene not committed", fn);
        return NULL;
    }
    return &s->bvh;
}

#endif
