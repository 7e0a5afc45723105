/*
** trav_stream.h: occlusion for a group of up to 64 rays of a stream that
** walk the tree together node by node (dynamic ray stream traversal,
** Barringer and Akenine-Möller 2014; Embree's occlusion streams): a stack
** entry is a node and the bit mask of the rays that entered it. The
** rays are held as packets (trav_packet.h), each child box is tested
** against a packet's lanes at once, and no child is visited before all
** the rays entering the node have met it, so its cache lines are fetched
** once for the whole group. On a tree larger than the L2 cache the
** packet walk waits on those lines again for every packet of rays that
** enters the node; on a smaller one the group's bookkeeping costs more
** than that saves, so the stream code picks it by tree size (stream.c).
** Occlusion only: it visits children in no order, which a closest-hit
** walk could not afford. Included by each ISA's kernel file after
** trav_packet.h.
*/
#ifndef RTCORE_TRAV_STREAM_H
#define RTCORE_TRAV_STREAM_H

#include "rtcore/trav_packet.h"
#include "rtcore/dispatch.h"

#define GROUP_PACKETS (RT_GROUP_RAYS / PW)

typedef struct GroupEnt {
    uint32_t ref;
    uint64_t rays;                /* bit PW * q + i: lane i of packet q */
} GroupEnt;

/* Rays idx[0..n-1] (n <= RT_GROUP_RAYS) of the stream: those blocked get tfar
   -inf, as occludedp does. */
static void occludedg(const RtBvh *bvh, const RTRayNp *s, const uint32_t *idx, int n)
{
    if (bvh->root == RT_REF_EMPTY)
        return;
    const uint64_t lanes = (1ull << PW) - 1;
    const int np = (n + PW - 1) / PW;
    Packet pk[GROUP_PACKETS];
    uint64_t live = 0;
    for (int q = 0; q < np; q++) {
        packet_load(&pk[q], s, idx + q * PW, n - q * PW < PW ? n - q * PW : PW);
        live |= (uint64_t)(unsigned)pk[q].alive << (q * PW);
    }
    GroupEnt stack[STACK_SIZE];
    GroupEnt *sp = stack;
    *sp++ = (GroupEnt){ bvh->root, live };
    while (sp > stack && live) {
        --sp;
        const uint32_t ref = sp->ref;
        const uint64_t rays = sp->rays & live;
        if (!rays)
            continue;
        if (rt_ref_is_leaf(ref)) {
            /* packet_trace's choice between ray-SIMD and one by one */
            for (int q = 0; q < np; q++) {
                int act = (int)(rays >> (q * PW) & lanes);
                if (!act)
                    continue;
                if (rt_ref_is_inst(ref) || __builtin_popcount((unsigned)act) <= SWITCH)
                    packet_single(bvh, &pk[q], ref, act, 1);
                else if (pk[q].uniform)
                    packet_leaf(bvh, &pk[q], ref, act, 1, 1);
                else
                    packet_leaf(bvh, &pk[q], ref, act, 0, 1);
                live &= ~(lanes << (q * PW)) | (uint64_t)(unsigned)pk[q].alive << (q * PW);
            }
            continue;
        }
        const Node *nd = (const Node *)bvh->nodes + ref;
        uint64_t child_rays[VW] = { 0 };
        for (int q = 0; q < np; q++) {
            int act = (int)(rays >> (q * PW) & lanes);
            const vp tfar = vp_load(pk[q].tfar);
            for (int c = 0; act && c < VW && nd->child[c] != RT_REF_EMPTY; c++) {
                vp tn;
                int hit = vpm_bits(child_box(&pk[q], nd, c, tfar, &tn)) & act;
                child_rays[c] |= (uint64_t)(unsigned)hit << (q * PW);
            }
        }
        for (int c = 0; c < VW; c++)
            if (child_rays[c])
                *sp++ = (GroupEnt){ nd->child[c], child_rays[c] };
    }
    for (int q = 0; q < np; q++)
        for (int f = pk[q].found; f; f &= f - 1)
            s->tfar[idx[q * PW + __builtin_ctz((unsigned)f)]] = -INFINITY;
}

#endif
