/*
** triangulate.c: ear clipping with hole bridging. The polygon is projected
** onto the plane of its largest normal component (Newell's method) and
** oriented counter-clockwise; each hole, rightmost first, is joined to the
** outer boundary by a bridge to a vertex it can see (Eberly's method), and
** the single resulting loop is clipped ear by ear. Input that is not a
** simple polygon still terminates: when no ear is found in a whole pass,
** the current corner is cut off anyway.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/internal.h"
#include "render/rib/triangulate.h"

typedef struct Poly {
    const double *xy;   /* 2D point per input point */
    size_t *pt;         /* node -> input point */
    size_t *next, *prev;
    size_t nnodes;
} Poly;

static double cross2(const double *o, const double *a, const double *b)
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static const double *XY(const Poly *p, size_t node)
{
    return p->xy + 2 * p->pt[node];
}

/* Signed area (times 2) of count points starting at first. */
static double loop_area(const double *xy, size_t first, size_t count)
{
    double a = 0;
    for (size_t i = 0; i < count; i++) {
        const double *p = xy + 2 * (first + i);
        const double *q = xy + 2 * (first + (i + 1) % count);
        a += p[0] * q[1] - q[0] * p[1];
    }
    return a;
}

/* Appends a loop as a cycle of new nodes, reversed when asked; returns
   its first node. */
static size_t add_loop(Poly *p, size_t first, size_t count, bool reverse)
{
    size_t start = p->nnodes;
    for (size_t i = 0; i < count; i++) {
        size_t n = p->nnodes++;
        p->pt[n] = first + (reverse ? count - 1 - i : i);
        p->next[n] = i + 1 < count ? n + 1 : start;
        p->prev[n] = i > 0 ? n - 1 : start + count - 1;
    }
    return start;
}

static bool in_triangle(const double *a, const double *b, const double *c,
                        const double *p)
{
    return cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 &&
           cross2(c, a, p) >= 0;
}

static bool same_point(const double *a, const double *b)
{
    return a[0] == b[0] && a[1] == b[1];
}

/* The node of the outer cycle (through start) that hole point m can be
   bridged to. */
static size_t bridge_target(const Poly *p, size_t start, const double *m)
{
    size_t best = start, n = start;
    double bx = INFINITY;
    /* The nearest boundary crossing of the ray from m towards +x. */
    do {
        size_t nx = p->next[n];
        const double *a = XY(p, n), *b = XY(p, nx);
        if ((a[1] <= m[1] && b[1] >= m[1]) || (a[1] >= m[1] && b[1] <= m[1])) {
            double x = a[1] == b[1] ? fmax(a[0], b[0])
                       : a[0] + (m[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
            if (x >= m[0] && x < bx) {
                bx = x;
                best = a[0] > b[0] ? n : nx;
            }
        }
        n = nx;
    } while (n != start);
    if (bx == INFINITY)
        return best;
    /* A reflex vertex inside (m, hit, candidate) would block the view:
       take the one closest in angle to the ray instead. */
    const double hit[2] = {bx, m[1]}, *cand = XY(p, best);
    if (same_point(hit, cand))
        return best;
    double best_cos = -2;
    size_t block = best;
    n = start;
    do {
        const double *v = XY(p, n);
        bool reflex = cross2(XY(p, p->prev[n]), v, XY(p, p->next[n])) < 0;
        bool inside = cross2(m, hit, cand) > 0 ? in_triangle(m, hit, cand, v)
                                               : in_triangle(m, cand, hit, v);
        if (reflex && inside && !same_point(v, cand)) {
            double dx = v[0] - m[0], dy = v[1] - m[1], d = hypot(dx, dy);
            if (d > 0 && dx / d > best_cos) {
                best_cos = dx / d;
                block = n;
            }
        }
        n = p->next[n];
    } while (n != start);
    return block;
}

/* Splices the hole cycle (through node h) into the outer one at node o:
   ... o, h, ..., h', o', ... with h' and o' copies. */
static void splice(Poly *p, size_t o, size_t h)
{
    size_t o2 = p->nnodes++, h2 = p->nnodes++;
    p->pt[o2] = p->pt[o];
    p->pt[h2] = p->pt[h];
    size_t onext = p->next[o], hprev = p->prev[h];
    p->next[o] = h, p->prev[h] = o;
    p->next[hprev] = h2, p->prev[h2] = hprev;
    p->next[h2] = o2, p->prev[o2] = h2;
    p->next[o2] = onext, p->prev[onext] = o2;
}

/* The node of the cycle through start with the largest x. */
static size_t rightmost(const Poly *p, size_t start)
{
    size_t best = start, n = p->next[start];
    while (n != start) {
        if (XY(p, n)[0] > XY(p, best)[0])
            best = n;
        n = p->next[n];
    }
    return best;
}

static bool is_ear(const Poly *p, size_t n)
{
    size_t a = p->prev[n], c = p->next[n];
    const double *pa = XY(p, a), *pb = XY(p, n), *pc = XY(p, c);
    if (!(cross2(pa, pb, pc) > 0))
        return false;
    for (size_t m = p->next[c]; m != a; m = p->next[m]) {
        const double *v = XY(p, m);
        if (same_point(v, pa) || same_point(v, pb) || same_point(v, pc))
            continue;
        bool reflex = !(cross2(XY(p, p->prev[m]), v, XY(p, p->next[m])) > 0);
        if (reflex && in_triangle(pa, pb, pc, v))
            return false;
    }
    return true;
}

static size_t clip_ears(Poly *p, size_t start, size_t count, size_t *tris)
{
    size_t nt = 0, n = start, misses = 0;
    while (count > 3) {
        size_t a = p->prev[n], c = p->next[n];
        bool ear = is_ear(p, n);
        if (ear || misses > count) {
            /* a forced cut keeps only a properly wound triangle */
            if (ear || cross2(XY(p, a), XY(p, n), XY(p, c)) > 0) {
                tris[3 * nt] = p->pt[a];
                tris[3 * nt + 1] = p->pt[n];
                tris[3 * nt + 2] = p->pt[c];
                nt++;
            }
            p->next[a] = c;
            p->prev[c] = a;
            count--;
            n = a;
            misses = 0;
        } else {
            n = c;
            misses++;
        }
    }
    size_t a = p->prev[n], c = p->next[n];
    if (cross2(XY(p, a), XY(p, n), XY(p, c)) > 0) {
        tris[3 * nt] = p->pt[a];
        tris[3 * nt + 1] = p->pt[n];
        tris[3 * nt + 2] = p->pt[c];
        nt++;
    }
    return nt;
}

/* Newell's normal of count points from first. */
static void newell(const double *pts, size_t first, size_t count,
                   double nrm[3])
{
    nrm[0] = nrm[1] = nrm[2] = 0;
    for (size_t i = 0; i < count; i++) {
        const double *a = pts + 3 * (first + i);
        const double *b = pts + 3 * (first + (i + 1) % count);
        nrm[0] += (a[1] - b[1]) * (a[2] + b[2]);
        nrm[1] += (a[2] - b[2]) * (a[0] + b[0]);
        nrm[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
}

static size_t fan(size_t n, size_t *tris)
{
    for (size_t i = 1; i + 1 < n; i++) {
        tris[3 * (i - 1)] = 0;
        tris[3 * (i - 1) + 1] = i;
        tris[3 * (i - 1) + 2] = i + 1;
    }
    return n >= 3 ? n - 2 : 0;
}

size_t rib_triangulate(const double *pts, const size_t *loops, size_t nloops,
                       size_t *tris, bool *fanned)
{
    size_t total = 0;
    for (size_t i = 0; i < nloops; i++)
        total += loops[i];
    *fanned = total + 2 * nloops > RIB_MAX_EARCLIP_POINTS;
    if (*fanned)
        return fan(loops[0], tris);
    if (nloops == 1 && loops[0] == 3)
        return fan(3, tris);
    double nrm[3];
    newell(pts, 0, loops[0], nrm);
    int ax = fabs(nrm[0]) > fabs(nrm[1]) ? 0 : 1;
    ax = fabs(nrm[2]) > fabs(nrm[ax]) ? 2 : ax;
    if (!(fabs(nrm[ax]) > 0 && isfinite(nrm[ax])))
        return 0;  /* no area, or not finite */
    /* Project, mirrored if needed so the outer loop runs counter-clockwise
       and its CCW triangles keep the original winding. */
    int i0 = (ax + 1) % 3, i1 = (ax + 2) % 3;
    if (nrm[ax] < 0) {
        int t = i0;
        i0 = i1, i1 = t;
    }
    double *xy = rib_xmalloc(2 * total * sizeof *xy);
    for (size_t i = 0; i < total; i++) {
        xy[2 * i] = pts[3 * i + i0];
        xy[2 * i + 1] = pts[3 * i + i1];
    }
    size_t cap = total + 2 * nloops;
    Poly p = {xy, rib_xmalloc(cap * sizeof(size_t)),
              rib_xmalloc(cap * sizeof(size_t)),
              rib_xmalloc(cap * sizeof(size_t)), 0};
    size_t outer = add_loop(&p, 0, loops[0], false);
    /* Holes run clockwise; bridge the rightmost first so later bridges
       never cross earlier ones. */
    size_t *holes = rib_xmalloc(nloops * sizeof *holes);
    size_t nholes = 0, first = loops[0];
    for (size_t i = 1; i < nloops; first += loops[i], i++) {
        if (loops[i] < 3)
            continue;
        size_t h = add_loop(&p, first, loops[i],
                            loop_area(xy, first, loops[i]) > 0);
        holes[nholes++] = rightmost(&p, h);
    }
    for (size_t i = 0; i < nholes; i++)
        for (size_t j = i + 1; j < nholes; j++)
            if (XY(&p, holes[j])[0] > XY(&p, holes[i])[0]) {
                size_t t = holes[i];
                holes[i] = holes[j], holes[j] = t;
            }
    size_t count = loops[0];
    for (size_t i = 0; i < nholes; i++) {
        size_t o = bridge_target(&p, outer, XY(&p, holes[i]));
        size_t len = 1;
        for (size_t n = p.next[holes[i]]; n != holes[i]; n = p.next[n])
            len++;
        splice(&p, o, holes[i]);
        count += len + 2;
    }
    size_t nt = clip_ears(&p, outer, count, tris);
    free(holes);
    free(p.pt);
    free(p.next);
    free(p.prev);
    free(xy);
    return nt;
}
