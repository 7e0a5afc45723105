/*
** collapse.h: turning the binary BVH into the wide BVH the kernels walk.
*/
#ifndef RTCORE_COLLAPSE_H
#define RTCORE_COLLAPSE_H

#include "rtcore/build_sah.h"

/* A binary leaf to be written as triangle blocks: prims[begin..begin+n)
   go to blocks from `block` on. */
typedef struct RtLeafJob {
    uint32_t begin, n, block;
} RtLeafJob;

typedef struct RtWide {
    void *nodes;              /* exact size, 64-byte aligned */
    size_t nnodes;
    uint32_t root;
    RtLeafJob *jobs;          /* triangle leaves, in depth-first order */
    size_t njobs;
    size_t nblocks;           /* blocks the jobs fill */
    double sah;               /* cost of the wide tree, root area = 1 */
} RtWide;

/* Collapses the binary tree b2 (root 0, over prims) into nodes of the
   given width, assigning block numbers to triangle leaves in depth-first
   order so that siblings' triangles sit together. Returns 0 when out of
   memory. */
int rt_collapse(const RtBvh2Node *b2, size_t nb2, const RtPrimRef *prims,
                int width, RtWide *out);

#endif
