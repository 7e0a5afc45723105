/*
** node.h: the memory layout of a committed BVH: wide inner nodes, SoA
** triangle blocks, instances, and the 32-bit references that tie them
** together. Shared by the builder (ISA-neutral) and every kernel.
**
** The node width W is 4 (SSE4.2) or 8 (AVX2, AVX-512): a node tests all W
** children with one SIMD register per slab. Triangle blocks are 4 wide
** whatever W is (Embree's Triangle4 under BVH8): leaves hold a few
** triangles, and a wider block would load up to six cache lines to test
** them. Both layouts put the values of one field side by side.
*/
#ifndef RTCORE_NODE_H
#define RTCORE_NODE_H

#include <stdint.h>

#define RT_MAX_WIDTH 8

/* A child reference. Inner nodes are indices into the node array; leaves
   set bit 31. A triangle leaf holds `count` consecutive blocks starting
   at `first`; an instance leaf (bit 30) holds one instance index. 27 bits
   of block index address 2^27 blocks, over 500 M triangles at W = 4. */
#define RT_REF_LEAF       0x80000000u
#define RT_REF_INST       0x40000000u
#define RT_REF_EMPTY      0xffffffffu   /* unused child slot / empty scene */
#define RT_LEAF_MAX_BLOCKS 8
#define RT_LEAF_BLOCK_BITS 27

static inline int rt_ref_is_leaf(uint32_t r) { return (r & RT_REF_LEAF) != 0; }
static inline int rt_ref_is_inst(uint32_t r) { return (r & RT_REF_INST) != 0; }
static inline uint32_t rt_ref_first(uint32_t r)
{
    return r & ((1u << RT_LEAF_BLOCK_BITS) - 1);
}
static inline uint32_t rt_ref_count(uint32_t r)
{
    return ((r >> RT_LEAF_BLOCK_BITS) & (RT_LEAF_MAX_BLOCKS - 1)) + 1;
}
static inline uint32_t rt_ref_tri_leaf(uint32_t first, uint32_t count)
{
    return RT_REF_LEAF | (count - 1) << RT_LEAF_BLOCK_BITS | first;
}
static inline uint32_t rt_ref_inst_leaf(uint32_t index)
{
    return RT_REF_LEAF | RT_REF_INST | index;
}

/* A wide node: child boxes as six W-float slabs (lower x, upper x, lower y,
   ...), so a kernel picks the near plane of an axis by a byte offset, then
   W child references. Empty slots have lower = +inf, upper = -inf, which
   no ray can enter, and come after the used ones.
   Bytes: W=8: 192 bounds + 32 refs = 224, padded to 256 (four cache lines);
          W=4:  96 bounds + 16 refs = 112, padded to 128 (two cache lines). */
#define RT_DECLARE_NODE(W)                                                    \
    typedef struct RtNode##W {                                                \
        float b[6][W];                                                        \
        uint32_t child[W];                                                    \
        uint32_t pad[W];                                                      \
    } RtNode##W;
RT_DECLARE_NODE(4)
RT_DECLARE_NODE(8)
#undef RT_DECLARE_NODE

/* RT_BLOCK_W triangles, SoA: v[vertex][axis][lane], then ids. Vertices
   are kept (not edges) because the watertight test works on vertices
   relative to the ray origin. Unused lanes have NaN vertices, which fail
   every comparison of the test, and RT_INVALID_ID ids.
   Bytes: 144 vertices + 32 ids = 176 (44 per triangle). */
#define RT_BLOCK_W 4
typedef struct RtTriBlock {
    float v[3][3][RT_BLOCK_W];
    uint32_t primID[RT_BLOCK_W], geomID[RT_BLOCK_W];
} RtTriBlock;

/* Node bytes by width, for code that handles both. */
static inline uint32_t rt_node_bytes(int w) { return 32u * (uint32_t)w; }
#define RT_BLOCK_BYTES ((uint32_t)sizeof(RtTriBlock))

struct RtBvh;

/* An instance as kernels see it: the object-to-world matrix, its inverse
   (world-to-object, to move rays), its cofactor matrix (to move normals
   so that they stay e1 x e2 of the world-space triangle) and the BVH of
   the instanced scene. 3x4 matrices are row-major. */
typedef struct RtInst {
    float xfm[12];
    float inv[12];
    float cof[9];
    uint32_t id;                 /* reported as instID */
    const struct RtBvh *bvh;
} RtInst;

/* A committed BVH: what a query needs and nothing else. */
typedef struct RtBvh {
    int width;                   /* 4 or 8 */
    uint32_t root;               /* a reference, RT_REF_EMPTY when empty */
    void *nodes;                 /* RtNode4 or RtNode8 array, 64-byte aligned */
    void *blocks;                /* RtTriBlock array */
    RtInst *insts;
    float lower[3], upper[3];
} RtBvh;

#endif
