/*
** stream.c: rtIntersectNp / rtOccludedNp. The stream is cut into chunks,
** each chunk's rays sorted by direction octant (rays of one octant share
** their near planes and tend to go the same way) and handed to the packet
** kernel a SIMD width at a time; that kernel falls back to single rays
** wherever a packet thins out, so incoherent streams lose little.
*/
#include "config.h"
#include "rtcore/scene.h"

enum { CHUNK = 1024 };

static void stream(RTScene scene, const RTRayHitNp *rh, size_t n, int occl,
                   const char *fn)
{
    const RtBvh *bvh = rt_query_bvh(scene, rh, fn);
    if (!bvh)
        return;
    const RTRayNp *r = &rh->ray;
    if (n && (!r->org_x || !r->org_y || !r->org_z || !r->dir_x || !r->dir_y ||
              !r->dir_z || !r->tnear || !r->tfar ||
              (!occl && (!rh->hit.Ng_x || !rh->hit.Ng_y || !rh->hit.Ng_z || !rh->hit.u ||
                         !rh->hit.v || !rh->hit.primID || !rh->hit.geomID ||
                         !rh->hit.instID)))) {
        rt_error(scene->device, RT_ERROR_INVALID_ARGUMENT, "%s: NULL array", fn);
        return;
    }
    const RtKernels *k = scene->device->kernels;
    uint32_t idx[CHUNK];
    for (size_t base = 0; base < n; base += CHUNK) {
        size_t m = n - base < CHUNK ? n - base : CHUNK;
        uint32_t count[9] = { 0 };
        unsigned char oct[CHUNK];
        int mixed = 0;
        for (size_t i = 0; i < m; i++) {
            size_t j = base + i;
            oct[i] = (unsigned char)((r->dir_x[j] < 0) | (r->dir_y[j] < 0) << 1 |
                                     (r->dir_z[j] < 0) << 2);
        }
        for (size_t i = 1; i < m; i++)
            mixed |= oct[i] ^ oct[0];
        if (!mixed) {
            /* One octant, as a coherent stream's chunks mostly are: no
               sort, whose counters chain every ray's update through
               memory (13% of a stream of camera rays). */
            for (size_t i = 0; i < m; i++)
                idx[i] = (uint32_t)(base + i);
            for (int o = 0; o < 8; o++)
                count[o] = o >= oct[0] ? (uint32_t)m : 0;
        } else {
            for (size_t i = 0; i < m; i++)
                count[oct[i] + 1]++;
            for (int o = 0; o < 8; o++)
                count[o + 1] += count[o];
            for (size_t i = 0; i < m; i++)
                idx[count[oct[i]]++] = (uint32_t)(base + i);
        }
        /* count[o] is now the end of octant o */
        for (int o = 0, start = 0; o < 8; start = (int)count[o++]) {
            for (int i = start; i < (int)count[o]; i += k->packet) {
                int c = (int)count[o] - i < k->packet ? (int)count[o] - i : k->packet;
                if (occl)
                    k->occludedp(bvh, r, idx + i, c);
                else
                    k->intersectp(bvh, rh, idx + i, c);
            }
        }
    }
}

void rtIntersectNp(RTScene scene, const RTRayHitNp *rayhits, size_t n)
{
    stream(scene, rayhits, n, 0, "rtIntersectNp");
}

void rtOccludedNp(RTScene scene, const RTRayNp *rays, size_t n)
{
    RTRayHitNp rh = { rays ? *rays : (RTRayNp){ 0 }, { 0 } };
    stream(scene, rays ? &rh : NULL, n, 1, "rtOccludedNp");
}
