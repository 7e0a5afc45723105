/*
** build_sah.c: the binned SAH builder of the binary BVH (Wald 2007;
** Embree's choices: up to 32 bins, fewer for small ranges, leaves costed
** in blocks). Each node bins its primitives' centroids along all three
** axes in one pass, sweeps the bins for the cheapest split, and partitions
** in place. Subtrees above a size are spawned as tasks on the pool, so
** the two halves of a split build on different cores.
*/
#include "config.h"
#include "rtcore/build_sah.h"
#include "rtcore/parallel.h"

#include <emmintrin.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_BINS 32
/* Subtrees smaller than this are built by the task that made them. */
#define TASK_MIN 4096
/* Beyond this depth splits halve the range, so the depth stays below the
   traversal stacks' bound (72) whatever the input. */
#define SAH_DEPTH 40

typedef struct Ctx {
    RtPrimRef *prims;
    RtBvh2Node *nodes;
    atomic_size_t nnodes;
    RtBuildSettings s;
} Ctx;

/* A range of prims to build into node `node`. Centroids are kept doubled
   (lower + upper) to save the halving. */
typedef struct Range {
    Ctx *ctx;
    uint32_t begin, end, node, depth;
    __m128 glo, ghi;      /* box of the prims */
    __m128 clo, chi;      /* box of their doubled centroids */
} Range;

typedef struct Split {
    int axis, pos, nbins;
    float cost;           /* in half-area x blocks */
    __m128 scale, base;   /* bin mapping */
    __m128 llo, lhi, rlo, rhi;
} Split;

static inline __m128 lo4(const RtPrimRef *p) { return _mm_loadu_ps(p->lower); }
static inline __m128 hi4(const RtPrimRef *p) { return _mm_loadu_ps(p->upper); }

/* Half the surface areas of three boxes at once (empty boxes give junk,
   which callers mask by count). */
static inline __m128 half_areas3(const __m128 lo[3], const __m128 hi[3])
{
    __m128 x = _mm_sub_ps(hi[0], lo[0]), y = _mm_sub_ps(hi[1], lo[1]);
    __m128 z = _mm_sub_ps(hi[2], lo[2]), w = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(x, y, z, w);
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, y), _mm_mul_ps(y, z)), _mm_mul_ps(z, x));
}

static inline float half_area(__m128 lo, __m128 hi)
{
    float d[4];
    _mm_storeu_ps(d, _mm_sub_ps(hi, lo));
    return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
}

static inline uint32_t blocks(const Ctx *c, uint32_t n)
{
    return (n + (uint32_t)c->s.block - 1) / (uint32_t)c->s.block;
}

/* Bins of a prim's doubled centroid along each axis, clamped to
   [0, top]. Binning and partition both use it (partition through
   axis_bin), so a prim lands on the side its bin was counted on. */
static inline __m128i bin_of(const RtPrimRef *p, __m128 base, __m128 scale, __m128i top)
{
    __m128 c = _mm_add_ps(lo4(p), hi4(p));
    __m128i b = _mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(c, base), scale));
    b = _mm_and_si128(b, _mm_cmpgt_epi32(b, _mm_set1_epi32(-1)));   /* NaN -> 0 */
    __m128i over = _mm_cmpgt_epi32(b, top);
    return _mm_or_si128(_mm_and_si128(over, top), _mm_andnot_si128(over, b));
}

typedef struct Bins {
    __m128 lo[MAX_BINS][3], hi[MAX_BINS][3];   /* [bin][axis] */
    uint32_t cnt[MAX_BINS][4];                  /* [bin][axis] */
} Bins;

static inline void bin_prim(Bins *b, const RtPrimRef *p, __m128i bi)
{
    __m128 lo = lo4(p), hi = hi4(p);
    int i0 = _mm_cvtsi128_si32(bi);
    int i1 = _mm_cvtsi128_si32(_mm_shuffle_epi32(bi, 1));
    int i2 = _mm_cvtsi128_si32(_mm_shuffle_epi32(bi, 2));
    b->lo[i0][0] = _mm_min_ps(b->lo[i0][0], lo);
    b->hi[i0][0] = _mm_max_ps(b->hi[i0][0], hi);
    b->lo[i1][1] = _mm_min_ps(b->lo[i1][1], lo);
    b->hi[i1][1] = _mm_max_ps(b->hi[i1][1], hi);
    b->lo[i2][2] = _mm_min_ps(b->lo[i2][2], lo);
    b->hi[i2][2] = _mm_max_ps(b->hi[i2][2], hi);
    b->cnt[i0][0]++;
    b->cnt[i1][1]++;
    b->cnt[i2][2]++;
}

/* Finds the cheapest SAH split of r; cost INFINITY when none separates.
   The sweeps evaluate the three axes in the lanes of one vector. */
static void find_split(const Range *r, Split *best)
{
    const Ctx *c = r->ctx;
    uint32_t n = r->end - r->begin;
    int nb = 4 + (int)(n / 20);
    if (nb > MAX_BINS)
        nb = MAX_BINS;
    __m128 ext = _mm_sub_ps(r->chi, r->clo);
    __m128 valid = _mm_cmpgt_ps(ext, _mm_setzero_ps());
    __m128 scale = _mm_and_ps(valid, _mm_div_ps(_mm_set1_ps(nb * 0.99999f), ext));
    __m128i top = _mm_set1_epi32(nb - 1);
    const __m128 inf = _mm_set1_ps(INFINITY), ninf = _mm_set1_ps(-INFINITY);
    /* Two sets of bins, for even and odd prims: neighbours tend to fall in
       the same bin, and one set would chain every update on the last. */
    Bins b, odd;
    for (int i = 0; i < nb; i++) {
        for (int a = 0; a < 3; a++)
            b.lo[i][a] = odd.lo[i][a] = inf, b.hi[i][a] = odd.hi[i][a] = ninf;
        _mm_storeu_si128((__m128i *)b.cnt[i], _mm_setzero_si128());
        _mm_storeu_si128((__m128i *)odd.cnt[i], _mm_setzero_si128());
    }
    const RtPrimRef *p = c->prims;
    uint32_t i = r->begin;
    for (; i + 1 < r->end; i += 2) {
        __m128i b0 = bin_of(&p[i], r->clo, scale, top);
        __m128i b1 = bin_of(&p[i + 1], r->clo, scale, top);
        bin_prim(&b, &p[i], b0);
        bin_prim(&odd, &p[i + 1], b1);
    }
    if (i < r->end)
        bin_prim(&b, &p[i], bin_of(&p[i], r->clo, scale, top));
    for (int j = 0; j < nb; j++) {
        for (int a = 0; a < 3; a++) {
            b.lo[j][a] = _mm_min_ps(b.lo[j][a], odd.lo[j][a]);
            b.hi[j][a] = _mm_max_ps(b.hi[j][a], odd.hi[j][a]);
        }
        _mm_storeu_si128((__m128i *)b.cnt[j],
                         _mm_add_epi32(_mm_loadu_si128((const __m128i *)b.cnt[j]),
                                       _mm_loadu_si128((const __m128i *)odd.cnt[j])));
    }

    /* right to left: areas and counts of bins [i, nb) */
    __m128 rarea[MAX_BINS];
    __m128i rcnt[MAX_BINS];
    __m128 lo[3] = { inf, inf, inf }, hi[3] = { ninf, ninf, ninf };
    __m128i k = _mm_setzero_si128();
    for (int j = nb - 1; j > 0; j--) {
        for (int a = 0; a < 3; a++) {
            lo[a] = _mm_min_ps(lo[a], b.lo[j][a]);
            hi[a] = _mm_max_ps(hi[a], b.hi[j][a]);
        }
        k = _mm_add_epi32(k, _mm_loadu_si128((const __m128i *)b.cnt[j]));
        rcnt[j] = k;
        rarea[j] = half_areas3(lo, hi);
    }
    /* left to right: cost of splitting before bin j, best per axis */
    const __m128i round = _mm_set1_epi32(c->s.block - 1);
    const __m128i shift = _mm_cvtsi32_si128(__builtin_ctz((unsigned)c->s.block));
    const __m128i zero = _mm_setzero_si128();
    __m128 bcost = inf;
    __m128i bpos = zero;
    for (int a = 0; a < 3; a++)
        lo[a] = inf, hi[a] = ninf;
    k = zero;
    for (int j = 1; j < nb; j++) {
        for (int a = 0; a < 3; a++) {
            lo[a] = _mm_min_ps(lo[a], b.lo[j - 1][a]);
            hi[a] = _mm_max_ps(hi[a], b.hi[j - 1][a]);
        }
        k = _mm_add_epi32(k, _mm_loadu_si128((const __m128i *)b.cnt[j - 1]));
        __m128 lb = _mm_cvtepi32_ps(_mm_srl_epi32(_mm_add_epi32(k, round), shift));
        __m128 rb = _mm_cvtepi32_ps(_mm_srl_epi32(_mm_add_epi32(rcnt[j], round), shift));
        __m128 cost = _mm_add_ps(_mm_mul_ps(half_areas3(lo, hi), lb), _mm_mul_ps(rarea[j], rb));
        __m128i ok = _mm_andnot_si128(_mm_or_si128(_mm_cmpeq_epi32(k, zero),
                                                   _mm_cmpeq_epi32(rcnt[j], zero)),
                                      _mm_set1_epi32(-1));
        __m128 better = _mm_and_ps(_mm_castsi128_ps(ok), _mm_cmplt_ps(cost, bcost));
        bcost = _mm_or_ps(_mm_and_ps(better, cost), _mm_andnot_ps(better, bcost));
        __m128i bm = _mm_castps_si128(better);
        bpos = _mm_or_si128(_mm_and_si128(bm, _mm_set1_epi32(j)), _mm_andnot_si128(bm, bpos));
    }
    float costs[4];
    int pos[4];
    _mm_storeu_ps(costs, bcost);
    _mm_storeu_si128((__m128i *)pos, bpos);
    best->cost = INFINITY;
    for (int a = 0; a < 3; a++)
        if (costs[a] < best->cost)
            *best = (Split){ a, pos[a], nb, costs[a], scale, r->clo, inf, ninf, inf, ninf };
    if (best->cost == INFINITY)
        return;
    for (int j = 0; j < nb; j++) {
        int a = best->axis;
        if (j < best->pos) {
            best->llo = _mm_min_ps(best->llo, b.lo[j][a]);
            best->lhi = _mm_max_ps(best->lhi, b.hi[j][a]);
        } else {
            best->rlo = _mm_min_ps(best->rlo, b.lo[j][a]);
            best->rhi = _mm_max_ps(best->rhi, b.hi[j][a]);
        }
    }
}

/* bin_of for one axis, in scalar code that rounds exactly as the vector
   lanes do: whether prim p goes left of split s. */
static inline int goes_left(const RtPrimRef *p, const float base[4], const float scale[4],
                            int axis, int top, int pos)
{
    float c = p->lower[axis] + p->upper[axis];
    int b = _mm_cvttss_si32(_mm_set_ss((c - base[axis]) * scale[axis]));
    b = b < 0 ? 0 : b > top ? top : b;
    return b < pos;
}

static inline void grow(__m128 *lo, __m128 *hi, __m128 v)
{
    *lo = _mm_min_ps(*lo, v);
    *hi = _mm_max_ps(*hi, v);
}

/* Partitions r by the split's bins into l and r (same ranges, new boxes). */
static void partition(const Range *r, const Split *s, Range *L, Range *R)
{
    RtPrimRef *p = r->ctx->prims;
    const __m128 inf = _mm_set1_ps(INFINITY), ninf = _mm_set1_ps(-INFINITY);
    __m128 lclo = inf, lchi = ninf, rclo = inf, rchi = ninf;
    float base[4], scale[4];
    _mm_storeu_ps(base, s->base);
    _mm_storeu_ps(scale, s->scale);
    const int axis = s->axis, top = s->nbins - 1, pos = s->pos;
    int64_t i = r->begin, j = (int64_t)r->end - 1;
    for (;;) {
        while (i <= j && goes_left(&p[i], base, scale, axis, top, pos)) {
            grow(&lclo, &lchi, _mm_add_ps(lo4(&p[i]), hi4(&p[i])));
            i++;
        }
        while (i <= j && !goes_left(&p[j], base, scale, axis, top, pos)) {
            grow(&rclo, &rchi, _mm_add_ps(lo4(&p[j]), hi4(&p[j])));
            j--;
        }
        if (i >= j)
            break;
        RtPrimRef t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    uint32_t mid = (uint32_t)i;
    *L = (Range){ r->ctx, r->begin, mid, 0, r->depth + 1, s->llo, s->lhi, lclo, lchi };
    *R = (Range){ r->ctx, mid, r->end, 0, r->depth + 1, s->rlo, s->rhi, rclo, rchi };
}

/* Splits r in two halves as they lie (no split separates its centroids,
   or the tree is too deep for SAH). */
static void split_middle(const Range *r, Range *L, Range *R)
{
    const RtPrimRef *p = r->ctx->prims;
    uint32_t mid = r->begin + (r->end - r->begin) / 2;
    const __m128 inf = _mm_set1_ps(INFINITY), ninf = _mm_set1_ps(-INFINITY);
    *L = (Range){ r->ctx, r->begin, mid, 0, r->depth + 1, inf, ninf, inf, ninf };
    *R = (Range){ r->ctx, mid, r->end, 0, r->depth + 1, inf, ninf, inf, ninf };
    for (uint32_t i = r->begin; i < r->end; i++) {
        Range *s = i < mid ? L : R;
        __m128 lo = lo4(&p[i]), hi = hi4(&p[i]);
        s->glo = _mm_min_ps(s->glo, lo);
        s->ghi = _mm_max_ps(s->ghi, hi);
        grow(&s->clo, &s->chi, _mm_add_ps(lo, hi));
    }
}

static int has_instance(const Range *r)
{
    for (uint32_t i = r->begin; i < r->end; i++)
        if (r->ctx->prims[i].geomID & RT_PRIM_INST)
            return 1;
    return 0;
}

static void set_box(RtBvh2Node *n, __m128 lo, __m128 hi)
{
    float l[4], h[4];
    _mm_storeu_ps(l, lo);
    _mm_storeu_ps(h, hi);
    for (int a = 0; a < 3; a++)
        n->lower[a] = l[a], n->upper[a] = h[a];
}

static void build_task(RtPool *pool, void *arg);

static void build(RtPool *pool, Range r)
{
    Ctx *c = r.ctx;
    for (;;) {
        RtBvh2Node *node = &c->nodes[r.node];
        uint32_t n = r.end - r.begin;
        Split s = { .cost = INFINITY };
        if (n > 1 && r.depth < SAH_DEPTH)
            find_split(&r, &s);
        int small = n <= (uint32_t)c->s.max_leaf && !has_instance(&r);
        if (n == 1 || (small && (s.cost == INFINITY ||
                       blocks(c, n) * half_area(r.glo, r.ghi) <= half_area(r.glo, r.ghi) + s.cost))) {
            node->a = r.begin;
            node->b = RT_BVH2_LEAF | n;
            return;
        }
        Range L, R;
        if (s.cost == INFINITY)
            split_middle(&r, &L, &R);
        else
            partition(&r, &s, &L, &R);
        L.node = (uint32_t)atomic_fetch_add(&c->nnodes, 2);
        R.node = L.node + 1;
        node->a = L.node;
        node->b = R.node;
        set_box(&c->nodes[L.node], L.glo, L.ghi);
        set_box(&c->nodes[R.node], R.glo, R.ghi);
        if (R.end - R.begin >= TASK_MIN)
            rt_pool_spawn(pool, build_task, &R, sizeof R);
        else
            build(pool, R);
        r = L;
    }
}

static void build_task(RtPool *pool, void *arg)
{
    build(pool, *(Range *)arg);
}

RtBvh2Node *rt_build_sah(RtPrimRef *prims, size_t n, const RtBuildSettings *s,
                         size_t *count)
{
    Ctx c = { prims, malloc((2 * n - 1) * sizeof(RtBvh2Node)), 1, *s };
    if (!c.nodes)
        return NULL;
    const __m128 inf = _mm_set1_ps(INFINITY), ninf = _mm_set1_ps(-INFINITY);
    Range r = { &c, 0, (uint32_t)n, 0, 0, inf, ninf, inf, ninf };
    for (size_t i = 0; i < n; i++) {
        __m128 lo = lo4(&prims[i]), hi = hi4(&prims[i]);
        r.glo = _mm_min_ps(r.glo, lo);
        r.ghi = _mm_max_ps(r.ghi, hi);
        grow(&r.clo, &r.chi, _mm_add_ps(lo, hi));
    }
    set_box(&c.nodes[0], r.glo, r.ghi);
    rt_pool_run(s->threads, build_task, &r);
    *count = atomic_load(&c.nnodes);
    return c.nodes;
}
