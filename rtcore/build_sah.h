/*
** build_sah.h: the binary BVH that the binned SAH builder makes and the
** collapse turns into a wide one, and the primitive boxes it starts from.
*/
#ifndef RTCORE_BUILD_SAH_H
#define RTCORE_BUILD_SAH_H

#include <stddef.h>
#include <stdint.h>

/* A primitive's box with its ids in the fourth lanes, so one 16-byte load
   gets each corner. Instances set RT_PRIM_INST in geomID. */
typedef struct RtPrimRef {
    float lower[3];
    uint32_t geomID;
    float upper[3];
    uint32_t primID;
} RtPrimRef;
#define RT_PRIM_INST 0x80000000u

/* A binary node. Inner: children at index `a` and `b`. Leaf: b has
   RT_BVH2_LEAF and the prim count, a the first prim. */
typedef struct RtBvh2Node {
    float lower[3];
    uint32_t a;
    float upper[3];
    uint32_t b;
} RtBvh2Node;
#define RT_BVH2_LEAF 0x80000000u

/* What shapes the tree: leaves hold up to max_leaf prims, costed in
   blocks of `block` (the kernels test a block for the price of one). */
typedef struct RtBuildSettings {
    int threads;
    int block;
    int max_leaf;
} RtBuildSettings;

/* Builds over prims[0..n) (reordered in place), n >= 1. Returns the node
   array (root at 0) and its length in *count, or NULL out of memory. An
   instance is always a leaf of its own. */
RtBvh2Node *rt_build_sah(RtPrimRef *prims, size_t n, const RtBuildSettings *s,
                         size_t *count);

#endif
