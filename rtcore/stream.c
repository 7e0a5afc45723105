/*
** stream.c: rtIntersectNp / rtOccludedNp. The stream is cut into chunks,
** each chunk's rays sorted by direction octant (rays of one octant share
** their near planes and tend to go the same way) and handed to the packet
** kernel a SIMD width at a time; that kernel falls back to single rays
** wherever a packet thins out, so incoherent streams lose little.
** Occlusion on a large tree goes to the group kernel instead, 64 rays of
** one octant at a time.
*/
#include "config.h"
#include "rtcore/scene.h"

#include <immintrin.h>
#include <string.h>

enum { CHUNK = 1024 };

/* Occlusion on a tree larger than this goes in groups of 64 rays walking
   node by node (trav_stream.h), which fetch each node once per group
   rather than once per packet: shadow-ray streams +8% on the dragon
   (59 MB), +9% on its 6 MB version, -6% on the 0.2 MB bunny
   (bench/rtbench, CPU time). 2 MiB is a core's L2 cache here, about the
   size a tree has to outgrow for the group to pay. */
#define GROUP_MIN_BYTES ((size_t)2 << 20)

/* Byte k of SPREAD[b] is bit k of b: a movemask's four lanes as four
   bytes. */
#define B(b) ((uint32_t)((b) & 1) | (uint32_t)((b) >> 1 & 1) << 8 | \
              (uint32_t)((b) >> 2 & 1) << 16 | (uint32_t)((b) >> 3 & 1) << 24)
static const uint32_t SPREAD[16] = { B(0), B(1), B(2), B(3), B(4), B(5), B(6), B(7),
                                     B(8), B(9), B(10), B(11), B(12), B(13), B(14), B(15) };
#undef B

/* The direction octant of rays base..base+m-1 (bit a: component a is
   negative) into oct[0..m-1]; returns whether they all share one. Four
   rays at a time from their sign masks: this runs once per ray of every
   stream, and one ray at a time it cost 7% of a stream of camera rays. */
static bool octants(const RTRayNp *r, size_t base, size_t m, unsigned char *oct)
{
    const float *d[3] = { r->dir_x + base, r->dir_y + base, r->dir_z + base };
    const __m128 zero = _mm_setzero_ps();
    /* the sign masks of every group of four side by side, and their union
       and intersection over the groups */
    unsigned any = 0, all = 0xfff;
    size_t i = 0;
    for (; i + 4 <= m; i += 4) {
        unsigned x = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(d[0] + i), zero));
        unsigned y = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(d[1] + i), zero));
        unsigned z = (unsigned)_mm_movemask_ps(_mm_cmplt_ps(_mm_loadu_ps(d[2] + i), zero));
        uint32_t o = SPREAD[x] | SPREAD[y] << 1 | SPREAD[z] << 2;
        memcpy(oct + i, &o, sizeof o);
        unsigned bits = x | y << 4 | z << 8;
        any |= bits;
        all &= bits;
    }
    for (; i < m; i++) {
        unsigned o = (d[0][i] < 0) | (d[1][i] < 0) << 1 | (d[2][i] < 0) << 2;
        oct[i] = (unsigned char)o;
        unsigned bits = (o & 1 ? 0xfu : 0) | (o & 2 ? 0xf0u : 0) | (o & 4 ? 0xf00u : 0);
        any |= bits;
        all &= bits;
    }
    /* one octant: every group alike, and within it each axis all or none */
    return any == all && ((all & 0xf) == 0 || (all & 0xf) == 0xf) &&
           ((all & 0xf0) == 0 || (all & 0xf0) == 0xf0) &&
           ((all & 0xf00) == 0 || (all & 0xf00) == 0xf00);
}

/* always_groups: occlusion goes to the group kernel whatever the tree's
   size (the tests' way to reach it on small scenes). */
static void stream(RTScene scene, const RTRayHitNp *rh, size_t n, int occl,
                   bool always_groups, const char *fn)
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
    const int groups = occl && (always_groups || scene->stats.bytes > GROUP_MIN_BYTES);
    const int step = groups ? RT_GROUP_RAYS : k->packet;
    uint32_t idx[CHUNK];
    for (size_t base = 0; base < n; base += CHUNK) {
        size_t m = n - base < CHUNK ? n - base : CHUNK;
        uint32_t count[9] = { 0 };
        unsigned char oct[CHUNK];
        if (octants(r, base, m, oct)) {
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
            for (int i = start; i < (int)count[o]; i += step) {
                int c = (int)count[o] - i < step ? (int)count[o] - i : step;
                if (groups)
                    k->occludedg(bvh, r, idx + i, c);
                else if (occl)
                    k->occludedp(bvh, r, idx + i, c);
                else
                    k->intersectp(bvh, rh, idx + i, c);
            }
        }
    }
}

void rtIntersectNp(RTScene scene, const RTRayHitNp *rayhits, size_t n)
{
    stream(scene, rayhits, n, 0, false, "rtIntersectNp");
}

static void occluded_np(RTScene scene, const RTRayNp *rays, size_t n, bool always_groups,
                        const char *fn)
{
    RTRayHitNp rh = { rays ? *rays : (RTRayNp){ 0 }, { 0 } };
    stream(scene, rays ? &rh : NULL, n, 1, always_groups, fn);
}

void rtOccludedNp(RTScene scene, const RTRayNp *rays, size_t n)
{
    occluded_np(scene, rays, n, false, "rtOccludedNp");
}

void rt_occluded_groups(RTScene scene, const RTRayNp *rays, size_t n)
{
    occluded_np(scene, rays, n, true, "rt_occluded_groups");
}
