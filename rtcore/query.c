/*
** query.c: the single-ray and packet entry points: argument checks, then
** the device's kernels. Packets go to the packet kernel through a stream
** view of their arrays, with the active lanes gathered first so the
** kernel sees full SIMD groups even when the caller masks lanes off.
*/
#include "config.h"
#include "rtcore/scene.h"

void rtIntersect1(RTScene scene, RTRayHit *rayhit)
{
    const RtBvh *bvh = rt_query_bvh(scene, rayhit, "rtIntersect1");
    if (bvh)
        scene->device->kernels->intersect1(bvh, rayhit);
}

void rtOccluded1(RTScene scene, RTRay *ray)
{
    const RtBvh *bvh = rt_query_bvh(scene, ray, "rtOccluded1");
    if (bvh)
        scene->device->kernels->occluded1(bvh, ray);
}

/* The stream view of a packet's SoA arrays (any of RTRay4/8/16). */
#define RAY_VIEW(r)                                                           \
    ((RTRayNp){ (r)->org_x, (r)->org_y, (r)->org_z, (r)->tnear,              \
                (r)->dir_x, (r)->dir_y, (r)->dir_z, (r)->tfar })
#define HIT_VIEW(h)                                                           \
    ((RTHitNp){ (h)->Ng_x, (h)->Ng_y, (h)->Ng_z, (h)->u, (h)->v,             \
                (h)->primID, (h)->geomID, (h)->instID })

/* Traces the lanes of a packet of n whose valid[] is set, a kernel's
   width at a time. hits is NULL for occlusion. */
static void packet(RTScene scene, const int *valid, int n, RTRayNp rays,
                   RTHitNp *hits, const char *fn)
{
    const RtBvh *bvh = rt_query_bvh(scene, valid, fn);
    if (!bvh)
        return;
    const RtKernels *k = scene->device->kernels;
    uint32_t idx[16];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (valid[i])
            idx[m++] = (uint32_t)i;
    RTRayHitNp rh = { rays, hits ? *hits : (RTHitNp){ 0 } };
    for (int i = 0; i < m; i += k->packet) {
        int c = m - i < k->packet ? m - i : k->packet;
        if (hits)
            k->intersectp(bvh, &rh, idx + i, c);
        else
            k->occludedp(bvh, &rh.ray, idx + i, c);
    }
}

#define PACKET_API(N)                                                         \
    void rtIntersect##N(const int *valid, RTScene scene, RTRayHit##N *rh)     \
    {                                                                         \
        if (!rh) {                                                            \
            rt_query_bvh(scene, rh, "rtIntersect" #N);                        \
            return;                                                           \
        }                                                                     \
        RTHitNp h = HIT_VIEW(&rh->hit);                                       \
        packet(scene, valid, N, RAY_VIEW(&rh->ray), &h, "rtIntersect" #N);    \
    }                                                                         \
    void rtOccluded##N(const int *valid, RTScene scene, RTRay##N *ray)        \
    {                                                                         \
        if (!ray) {                                                           \
            rt_query_bvh(scene, ray, "rtOccluded" #N);                        \
            return;                                                           \
        }                                                                     \
        packet(scene, valid, N, RAY_VIEW(ray), NULL, "rtOccluded" #N);        \
    }
PACKET_API(4)
PACKET_API(8)
PACKET_API(16)
