/*
** subdiv.c: SubdivisionMesh "catmull-clark" (RISpec 3.2 section 5.5)
** refined to a fixed depth, pushed to the limit surface, and emitted as
** triangles.
**
** Depth: SUBDIV_LEVELS rounds of Catmull-Clark refinement (each face of n
** sides becomes n 4^(L-1) quads), fewer (at least one) when a large cage
** would pass SUBDIV_MAX_QUADS. The depth is fixed rather than chosen from
** the screen so that one tessellation serves every instance, like tess.c's.
** After the last round every vertex is moved to its limit position with
** the standard masks for quad meshes (Halstead et al. 1993): a smooth
** vertex of valence n goes to (n^2 v + 4 sum(edge neighbours) +
** sum(diagonal neighbours)) / (n (n + 5)), a crease vertex to
** (e1 + 4 v + e2) / 6, a corner stays. So the mesh's vertices lie on the
** limit surface; only the flat facets between them approximate it.
**
** Rules (DeRose et al. 1998): an edge of sharpness s >= 1 takes the
** crease (midpoint) rule, 0 < s < 1 blends smooth and crease, and its
** children get s - 1. A vertex with two sharp edges takes the crease
** rule (blended by their mean sharpness when below 1), three or more
** make a corner; a "corner" tag of sharpness c >= 1 pins a vertex (below
** 1 it blends). Boundary edges are infinitely sharp. With
** "interpolateboundary" the boundary faces are kept and a boundary
** vertex of a single face is a corner, so the surface reaches the cage's
** border; without it the faces touching the boundary have no limit
** surface (RISpec) and are left out. Faces tagged "hole" take part in
** refinement but are not drawn.
**
** Primitive variables: vertex values are refined and limited with P (as
** extra coordinates); varying and facevarying values bilinearly (face
** centres, edge midpoints); uniform values follow their cage face. With
** a facevarying variable each quad corner is its own mesh vertex. Smooth
** normals are the area-weighted mean of the facets' normals.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/primvar.h"

#define SUBDIV_LEVELS 3
#define SUBDIV_MAX_QUADS ((size_t)1 << 20)
/* Sharpness that never wears off (boundary edges). */
#define SHARP_INF 1e30

typedef struct Edge {
    size_t v[2];
    size_t f[2];     /* first two faces */
    int nf;          /* faces sharing it: 2 inside, 1 on the boundary */
    double sharp;
} Edge;

/* One refinement level of the mesh. */
typedef struct Level {
    size_t nv, nf, ne, ncorners;
    int dim, vdim, fdim;   /* per vertex, varying, facevarying values */
    double *x;             /* nv * dim: P, then vertex variables */
    double *y;             /* nv * vdim: varying variables */
    double *corner;        /* nv: "corner" sharpness */
    size_t *fstart;        /* nf + 1 */
    size_t *fv;            /* ncorners: vertex of each face corner */
    size_t *fe;            /* ncorners: edge from corner i to i + 1 */
    double *fvd;           /* ncorners * fdim: facevarying values */
    size_t *origin;        /* nf: cage face */
    bool *hole;            /* nf */
    Edge *e;
} Level;

static void level_free(Level *l)
{
    free(l->x);
    free(l->y);
    free(l->corner);
    free(l->fstart);
    free(l->fv);
    free(l->fe);
    free(l->fvd);
    free(l->origin);
    free(l->hole);
    free(l->e);
    memset(l, 0, sizeof *l);
}

/* ---- edges -------------------------------------------------------------- */

typedef struct EdgeMap {
    size_t cap;            /* a power of two */
    size_t *slot;          /* edge id + 1, 0 when empty */
} EdgeMap;

static size_t edge_hash(size_t a, size_t b, size_t cap)
{
    uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ull ^
                 ((uint64_t)b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    return (size_t)(h ^ (h >> 31)) & (cap - 1);
}

/* The edge (a, b) in either order, or SIZE_MAX. */
static size_t edge_find(const EdgeMap *m, const Edge *e, size_t a, size_t b)
{
    size_t lo = a < b ? a : b, hi = a < b ? b : a;
    for (size_t h = edge_hash(lo, hi, m->cap);; h = (h + 1) & (m->cap - 1)) {
        size_t s = m->slot[h];
        if (!s)
            return SIZE_MAX;
        if (e[s - 1].v[0] == lo && e[s - 1].v[1] == hi)
            return s - 1;
    }
}

/* Builds l->e, l->fe and the map from the faces; sharpness 0, and
   SHARP_INF on the boundary. */
static void build_edges(Level *l, EdgeMap *m)
{
    m->cap = 16;
    while (m->cap < 2 * l->ncorners + 16)
        m->cap *= 2;
    m->slot = rib_xcalloc(m->cap, sizeof *m->slot);
    l->e = rib_xmalloc((l->ncorners ? l->ncorners : 1) * sizeof *l->e);
    l->fe = rib_xmalloc((l->ncorners ? l->ncorners : 1) * sizeof *l->fe);
    l->ne = 0;
    for (size_t f = 0; f < l->nf; f++) {
        size_t s = l->fstart[f], n = l->fstart[f + 1] - s;
        for (size_t i = 0; i < n; i++) {
            size_t a = l->fv[s + i], b = l->fv[s + (i + 1) % n];
            size_t id = edge_find(m, l->e, a, b);
            if (id == SIZE_MAX) {
                id = l->ne++;
                Edge *e = &l->e[id];
                e->v[0] = a < b ? a : b, e->v[1] = a < b ? b : a;
                e->nf = 0, e->sharp = 0;
                size_t h = edge_hash(e->v[0], e->v[1], m->cap);
                while (m->slot[h])
                    h = (h + 1) & (m->cap - 1);
                m->slot[h] = id + 1;
            }
            Edge *e = &l->e[id];
            if (e->nf < 2)
                e->f[e->nf] = f;
            e->nf++;
            l->fe[s + i] = id;
        }
    }
    for (size_t i = 0; i < l->ne; i++)
        if (l->e[i].nf != 2)
            l->e[i].sharp = SHARP_INF;
}

static double wear(double s)
{
    return s >= SHARP_INF ? s : s > 1 ? s - 1 : 0;
}

/* ---- the vertex rules ------------------------------------------------------ */

/* What a vertex's neighbourhood sums to, for the rules and the masks. */
typedef struct Ring {
    int nf, ne, nsharp;
    double sharpsum;
    double *F;     /* sum of face points (refining) or diagonals (limit) */
    double *E;     /* sum of edge neighbours */
    double *S;     /* sum of sharp-edge neighbours */
} Ring;

static void axpy(double *out, double a, const double *x, int dim)
{
    for (int k = 0; k < dim; k++)
        out[k] += a * x[k];
}

/* Accumulates the rings of every vertex; F from fsum (per face, dim
   values) when refining, from the quads' diagonal vertices otherwise. */
static Ring *rings(const Level *l, const double *fpts)
{
    int dim = l->dim;
    Ring *r = rib_xcalloc(l->nv ? l->nv : 1, sizeof *r);
    double *sums = rib_xcalloc(3 * l->nv * (size_t)dim + 1, sizeof *sums);
    for (size_t v = 0; v < l->nv; v++) {
        r[v].F = sums + 3 * v * (size_t)dim;
        r[v].E = r[v].F + dim;
        r[v].S = r[v].E + dim;
    }
    for (size_t f = 0; f < l->nf; f++) {
        size_t s = l->fstart[f], n = l->fstart[f + 1] - s;
        for (size_t i = 0; i < n; i++) {
            Ring *q = &r[l->fv[s + i]];
            q->nf++;
            const double *p = fpts ? fpts + f * (size_t)dim
                                   : l->x + l->fv[s + (i + 2) % n] * (size_t)dim;
            axpy(q->F, 1, p, dim);
        }
    }
    for (size_t i = 0; i < l->ne; i++) {
        const Edge *e = &l->e[i];
        for (int end = 0; end < 2; end++) {
            Ring *q = &r[e->v[end]];
            const double *o = l->x + e->v[!end] * (size_t)dim;
            q->ne++;
            axpy(q->E, 1, o, dim);
            if (e->sharp > 0) {
                q->nsharp++;
                q->sharpsum += e->sharp >= SHARP_INF ? 1e6 : e->sharp;
                axpy(q->S, 1, o, dim);
            }
        }
    }
    return r;
}

static void rings_free(Ring *r)
{
    free(r[0].F);
    free(r);
}

/* The new position of vertex v: refine (the Catmull-Clark vertex rule)
   or limit (the limit mask), with creases and corners. */
static void vertex_rule(const Level *l, const Ring *q, size_t v, bool limit,
                        bool interp_boundary, double *out)
{
    int dim = l->dim;
    const double *x = l->x + v * (size_t)dim;
    double smooth[dim > 0 ? dim : 1];
    bool interior = q->nf == q->ne && q->ne >= 3;
    bool have_smooth = interior;
    if (interior) {
        double n = q->ne;
        for (int k = 0; k < dim; k++)
            smooth[k] = limit ? (n * n * x[k] + 4 * q->E[k] + q->F[k]) /
                                    (n * (n + 5))
                              : (q->F[k] / n + (x[k] + q->E[k] / n) +
                                 (n - 3) * x[k]) / n;
    }
    double c = l->corner[v];
    bool corner = q->nsharp >= 3 || c >= 1 ||
                  (interp_boundary && !interior && q->nf == 1);
    if (corner) {
        memcpy(out, x, (size_t)dim * sizeof *out);
        return;
    }
    if (q->nsharp == 2) {
        double sa = q->sharpsum / 2;
        for (int k = 0; k < dim; k++) {
            double crease = limit ? (4 * x[k] + q->S[k]) / 6
                                  : (6 * x[k] + q->S[k]) / 8;
            out[k] = have_smooth && sa < 1
                         ? (1 - sa) * smooth[k] + sa * crease : crease;
        }
    } else if (have_smooth) {
        memcpy(out, smooth, (size_t)dim * sizeof *out);
    } else {
        /* A boundary vertex with no crease to follow (a fan of faces
           meeting at a point): it stays. */
        memcpy(out, x, (size_t)dim * sizeof *out);
    }
    if (c > 0)
        for (int k = 0; k < dim; k++)
            out[k] = (1 - c) * out[k] + c * x[k];
}

/* ---- one refinement round -------------------------------------------------- */

/* Mean of a face's values: vals has stride dim, idx picks them (or the
   corners in order when idx is NULL). */
static void face_mean(const double *vals, int dim, const size_t *idx,
                      size_t first, size_t n, double *out)
{
    memset(out, 0, (size_t)dim * sizeof *out);
    for (size_t i = 0; i < n; i++)
        axpy(out, 1.0 / (double)n,
             vals + (idx ? idx[first + i] : first + i) * (size_t)dim, dim);
}

/* Refines l into out: vertex points keep their numbers, then one point
   per edge, then one per face; face f's corner i becomes the quad
   (vertex i, edge i, face, edge i - 1). */
static void refine(const Level *l, bool interp_boundary, Level *out,
                   EdgeMap *om)
{
    int dim = l->dim, vdim = l->vdim, fdim = l->fdim;
    size_t nv = l->nv + l->ne + l->nf;
    memset(out, 0, sizeof *out);
    out->dim = dim, out->vdim = vdim, out->fdim = fdim;
    out->nv = nv;
    out->nf = out->ncorners = l->ncorners;
    out->x = rib_xmalloc(nv * (size_t)dim * sizeof *out->x);
    out->y = rib_xmalloc((nv * (size_t)vdim + 1) * sizeof *out->y);
    out->corner = rib_xcalloc(nv, sizeof *out->corner);
    /* face points */
    double *fp = out->x + (l->nv + l->ne) * (size_t)dim;
    for (size_t f = 0; f < l->nf; f++) {
        size_t s = l->fstart[f], n = l->fstart[f + 1] - s;
        face_mean(l->x, dim, l->fv, s, n, fp + f * (size_t)dim);
        face_mean(l->y, vdim, l->fv, s, n,
                  out->y + (l->nv + l->ne + f) * (size_t)vdim);
    }
    /* edge points */
    for (size_t i = 0; i < l->ne; i++) {
        const Edge *e = &l->e[i];
        double *o = out->x + (l->nv + i) * (size_t)dim;
        const double *a = l->x + e->v[0] * (size_t)dim,
                     *b = l->x + e->v[1] * (size_t)dim;
        double s = e->nf == 2 ? e->sharp : SHARP_INF;
        for (int k = 0; k < dim; k++) {
            double mid = (a[k] + b[k]) / 2;
            if (s >= 1) {
                o[k] = mid;
                continue;
            }
            double sm = (a[k] + b[k] + fp[e->f[0] * (size_t)dim + k] +
                         fp[e->f[1] * (size_t)dim + k]) / 4;
            o[k] = (1 - s) * sm + s * mid;
        }
        for (int k = 0; k < vdim; k++)
            out->y[(l->nv + i) * (size_t)vdim + k] =
                (l->y[e->v[0] * (size_t)vdim + k] +
                 l->y[e->v[1] * (size_t)vdim + k]) / 2;
    }
    /* vertex points */
    Ring *q = rings(l, fp);
    for (size_t v = 0; v < l->nv; v++) {
        vertex_rule(l, &q[v], v, false, interp_boundary,
                    out->x + v * (size_t)dim);
        memcpy(out->y + v * (size_t)vdim, l->y + v * (size_t)vdim,
               (size_t)vdim * sizeof *out->y);
        out->corner[v] = wear(l->corner[v]);
    }
    rings_free(q);
    /* quads */
    out->fstart = rib_xmalloc((out->nf + 1) * sizeof *out->fstart);
    out->fv = rib_xmalloc(4 * out->nf * sizeof *out->fv);
    out->fvd = rib_xmalloc((4 * out->nf * (size_t)fdim + 1) *
                           sizeof *out->fvd);
    out->origin = rib_xmalloc(out->nf * sizeof *out->origin);
    out->hole = rib_xmalloc(out->nf * sizeof *out->hole);
    out->ncorners = 4 * out->nf;
    double centre[fdim > 0 ? fdim : 1];
    size_t q4 = 0;
    for (size_t f = 0; f < l->nf; f++) {
        size_t s = l->fstart[f], n = l->fstart[f + 1] - s;
        face_mean(l->fvd, fdim, NULL, s, n, centre);
        for (size_t i = 0; i < n; i++, q4++) {
            size_t prev = (i + n - 1) % n, next = (i + 1) % n;
            size_t *c = out->fv + 4 * q4;
            out->fstart[q4] = 4 * q4;
            c[0] = l->fv[s + i];
            c[1] = l->nv + l->fe[s + i];
            c[2] = l->nv + l->ne + f;
            c[3] = l->nv + l->fe[s + prev];
            out->origin[q4] = l->origin[f];
            out->hole[q4] = l->hole[f];
            double *d = out->fvd + 4 * q4 * (size_t)fdim;
            const double *here = l->fvd + (s + i) * (size_t)fdim,
                         *after = l->fvd + (s + next) * (size_t)fdim,
                         *before = l->fvd + (s + prev) * (size_t)fdim;
            for (int k = 0; k < fdim; k++) {
                d[k] = here[k];
                d[fdim + k] = (here[k] + after[k]) / 2;
                d[2 * fdim + k] = centre[k];
                d[3 * fdim + k] = (here[k] + before[k]) / 2;
            }
        }
    }
    out->fstart[out->nf] = 4 * out->nf;
    build_edges(out, om);
    /* Each sharp edge's halves carry its worn sharpness. */
    for (size_t i = 0; i < l->ne; i++) {
        const Edge *e = &l->e[i];
        if (e->nf != 2 || !(e->sharp > 0))
            continue;
        for (int end = 0; end < 2; end++) {
            size_t id = edge_find(om, out->e, e->v[end], l->nv + i);
            if (id != SIZE_MAX)
                out->e[id].sharp = wear(e->sharp);
        }
    }
}

/* ---- reading the request ---------------------------------------------------- */

typedef struct Cage {
    size_t nfaces, ncorners, nverts;
    size_t *fstart, *fv;
    bool interp_boundary;
    bool *hole;
    /* creases: pairs of vertices with a sharpness each */
    size_t ncreases;
    size_t (*crease)[2];
    double *crease_sharp;
    double *corner;        /* nverts */
} Cage;

static void cage_free(Cage *g)
{
    free(g->fstart);
    free(g->fv);
    free(g->hole);
    free(g->crease);
    free(g->crease_sharp);
    free(g->corner);
}

/* The tags' arguments, read in order. */
typedef struct TagArgs {
    const RibArg *tags, *nargs, *ints, *floats;
    size_t int_at, float_at;
} TagArgs;

/* Applies every tag to g; unknown tags and malformed ones warn. */
static bool read_tags(RibCtx *c, const RibRequest *r, TagArgs *t, Cage *g)
{
    size_t ntags = t->tags->kind == RIB_ARG_STRINGS ? t->tags->n : 0;
    if (t->nargs->n != 2 * ntags) {
        rib_error(c, t->nargs->loc, "SubdivisionMesh: nargs has %zu values "
                  "for %zu tags (two each)", t->nargs->n, ntags);
        return false;
    }
    for (size_t i = 0; i < ntags; i++) {
        long ni, nfl;
        if (!rib_int_at(c, r, t->nargs, 2 * i, 0, 0x7fffffffL, &ni, "nargs") ||
            !rib_int_at(c, r, t->nargs, 2 * i + 1, 0, 0x7fffffffL, &nfl,
                        "nargs"))
            return false;
        if (t->int_at + (size_t)ni > t->ints->n ||
            t->float_at + (size_t)nfl > t->floats->n) {
            rib_error(c, t->nargs->loc, "SubdivisionMesh: the tags need more "
                      "intargs or floatargs than given");
            return false;
        }
        const char *tag = t->tags->strs[i];
        size_t i0 = t->int_at, f0 = t->float_at;
        t->int_at += (size_t)ni, t->float_at += (size_t)nfl;
        long v;
        if (strcmp(tag, "interpolateboundary") == 0) {
            g->interp_boundary = ni == 0 || t->ints->nums[i0] != 0;
        } else if (strcmp(tag, "hole") == 0) {
            for (size_t k = 0; k < (size_t)ni; k++) {
                if (!rib_int_at(c, r, t->ints, i0 + k, 0,
                                (long)g->nfaces - 1, &v, "hole face"))
                    return false;
                g->hole[v] = true;
            }
        } else if (strcmp(tag, "corner") == 0 || strcmp(tag, "crease") == 0) {
            /* A crease's one sharpness covers its chain; corners take
               one or one each. */
            bool corner = tag[1] == 'o';
            if (nfl != 1 && !(corner && nfl == ni)) {
                rib_error(c, t->nargs->loc, "SubdivisionMesh: \"%s\" needs "
                          "%s sharpness", tag, corner ? "one or one per "
                          "vertex" : "one");
                return false;
            }
            for (size_t k = 0; k < (size_t)ni; k++) {
                if (!rib_int_at(c, r, t->ints, i0 + k, 0,
                                (long)g->nverts - 1, &v, tag))
                    return false;
                double s = t->floats->nums[f0 + (nfl == 1 ? 0 : k)];
                if (corner) {
                    g->corner[v] = s;
                } else if (k > 0) {
                    g->crease = rib_xrealloc(g->crease, (g->ncreases + 1) *
                                             sizeof *g->crease);
                    g->crease_sharp = rib_xrealloc(
                        g->crease_sharp,
                        (g->ncreases + 1) * sizeof *g->crease_sharp);
                    g->crease[g->ncreases][0] =
                        (size_t)t->ints->nums[i0 + k - 1];
                    g->crease[g->ncreases][1] = (size_t)v;
                    g->crease_sharp[g->ncreases++] = s;
                }
            }
        } else {
            rib_unsupported(c, r->loc, "SubdivisionMesh: tag \"%s\" is not "
                            "supported; ignored", tag);
        }
    }
    return true;
}

/* The cage level from the checked counts and primitive variables. */
static void cage_level(const Cage *g, const RibPrim *prim, Level *l)
{
    memset(l, 0, sizeof *l);
    l->nv = g->nverts, l->nf = g->nfaces, l->ncorners = g->ncorners;
    l->dim = 3, l->vdim = 0, l->fdim = 0;
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        if (p->cls == RIB_CLASS_VERTEX)
            l->dim += p->ncomp;
        else if (p->cls == RIB_CLASS_VARYING)
            l->vdim += p->ncomp;
        else if (p->cls == RIB_CLASS_FACEVARYING)
            l->fdim += p->ncomp;
    }
    l->x = rib_xmalloc(l->nv * (size_t)l->dim * sizeof *l->x);
    l->y = rib_xmalloc((l->nv * (size_t)l->vdim + 1) * sizeof *l->y);
    l->fvd = rib_xmalloc((l->ncorners * (size_t)l->fdim + 1) * sizeof *l->fvd);
    double *pts = rib_prim_points(prim, 0, 0);
    for (size_t v = 0; v < l->nv; v++)
        for (int k = 0; k < 3; k++)
            l->x[v * (size_t)l->dim + k] = pts[4 * v + k] / pts[4 * v + 3];
    free(pts);
    int xo = 3, yo = 0, fo = 0;
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        size_t nc = (size_t)p->ncomp;
        double *dst;
        size_t n, stride;
        int *off;
        if (p->cls == RIB_CLASS_VERTEX)
            dst = l->x, n = l->nv, stride = (size_t)l->dim, off = &xo;
        else if (p->cls == RIB_CLASS_VARYING)
            dst = l->y, n = l->nv, stride = (size_t)l->vdim, off = &yo;
        else if (p->cls == RIB_CLASS_FACEVARYING)
            dst = l->fvd, n = l->ncorners, stride = (size_t)l->fdim, off = &fo;
        else
            continue;
        for (size_t e = 0; e < n; e++)
            for (size_t k = 0; k < nc; k++)
                dst[e * stride + (size_t)*off + k] = p->f[e * nc + k];
        *off += p->ncomp;
    }
    l->corner = rib_xmalloc((l->nv ? l->nv : 1) * sizeof *l->corner);
    memcpy(l->corner, g->corner, l->nv * sizeof *l->corner);
    l->fstart = rib_xmalloc((l->nf + 1) * sizeof *l->fstart);
    memcpy(l->fstart, g->fstart, (l->nf + 1) * sizeof *l->fstart);
    l->fv = rib_xmalloc((l->ncorners ? l->ncorners : 1) * sizeof *l->fv);
    memcpy(l->fv, g->fv, l->ncorners * sizeof *l->fv);
    l->origin = rib_xmalloc((l->nf ? l->nf : 1) * sizeof *l->origin);
    l->hole = rib_xmalloc((l->nf ? l->nf : 1) * sizeof *l->hole);
    for (size_t f = 0; f < l->nf; f++)
        l->origin[f] = f, l->hole[f] = g->hole[f];
}

/* ---- output ------------------------------------------------------------------ */

/* Writes the final level's vertex (or corner) k values into the mesh's
   vertex-interpolated primitive variables. */
static void write_vars(const RibPrim *prim, RibMesh *m, const Level *l,
                       size_t k, size_t v, size_t corner)
{
    int xo = 3, yo = 0, fo = 0;
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        const double *src;
        if (p->cls == RIB_CLASS_VERTEX)
            src = l->x + v * (size_t)l->dim + xo, xo += p->ncomp;
        else if (p->cls == RIB_CLASS_VARYING)
            src = l->y + v * (size_t)l->vdim + yo, yo += p->ncomp;
        else if (p->cls == RIB_CLASS_FACEVARYING)
            src = l->fvd + corner * (size_t)l->fdim + fo, fo += p->ncomp;
        else
            continue;
        for (int j = 0; j < p->ncomp; j++)
            m->primvars[i].p.f[k * (size_t)p->ncomp + (size_t)j] =
                rib_to_float(src[j]);
    }
}

/* Whether the final face f is drawn. */
static bool drawn(const Level *l, const bool *cage_boundary, size_t f)
{
    return !l->hole[f] && !(cage_boundary && cage_boundary[l->origin[f]]);
}

/* Emits the final level's drawn quads as triangles. Mesh vertices are
   the level's vertices those quads use (their corners, with a
   facevarying variable), numbered in the order met. */
static void emit(RibCtx *c, const RibRequest *r, const RibPrim *prim,
                 const Level *l, const bool *cage_boundary)
{
    bool per_corner = l->fdim > 0;
    size_t nslots = per_corner ? l->ncorners : l->nv, nquads = 0;
    size_t *slot = rib_xmalloc(nslots * sizeof *slot);
    size_t *from = rib_xmalloc(nslots * sizeof *from);  /* mesh -> slot */
    size_t nverts = 0;
    for (size_t i = 0; i < nslots; i++)
        slot[i] = SIZE_MAX;
    for (size_t f = 0; f < l->nf; f++) {
        if (!drawn(l, cage_boundary, f))
            continue;
        nquads++;
        for (size_t cn = l->fstart[f]; cn < l->fstart[f + 1]; cn++) {
            size_t i = per_corner ? cn : l->fv[cn];
            if (slot[i] == SIZE_MAX)
                from[nverts] = i, slot[i] = nverts++;
        }
    }
    RibMesh m;
    memset(&m, 0, sizeof m);
    m.prim = r->name;
    m.loc = r->loc;
    m.nverts = nverts;
    m.ntris = 2 * nquads;
    m.P = rib_xmalloc((3 * m.nverts + 1) * sizeof *m.P);
    m.Ng = rib_xcalloc(3 * m.nverts + 1, sizeof *m.Ng);
    m.tris = rib_xmalloc((3 * m.ntris + 1) * sizeof *m.tris);
    rib_prim_outputs(prim, &m);
    /* Area-weighted normals on the shared vertices, from every face
       (the surface goes on under holes). */
    double *N = rib_xcalloc(3 * l->nv + 1, sizeof *N);
    for (size_t f = 0; f < l->nf; f++) {
        const size_t *q = l->fv + l->fstart[f];
        for (int t = 0; t < 2; t++) {
            size_t i0 = q[0], i1 = q[1 + t], i2 = q[2 + t];
            const double *a = l->x + i0 * (size_t)l->dim,
                         *b = l->x + i1 * (size_t)l->dim,
                         *d = l->x + i2 * (size_t)l->dim;
            double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            double e2[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
            double n[3] = {e1[1] * e2[2] - e1[2] * e2[1],
                           e1[2] * e2[0] - e1[0] * e2[2],
                           e1[0] * e2[1] - e1[1] * e2[0]};
            for (int k = 0; k < 3; k++)
                N[3 * i0 + k] += n[k], N[3 * i1 + k] += n[k],
                    N[3 * i2 + k] += n[k];
        }
    }
    for (size_t k = 0; k < m.nverts; k++) {
        size_t cn = from[k], v = per_corner ? l->fv[cn] : cn;
        double len = sqrt(N[3 * v] * N[3 * v] + N[3 * v + 1] * N[3 * v + 1] +
                          N[3 * v + 2] * N[3 * v + 2]);
        for (int i = 0; i < 3; i++) {
            m.P[3 * k + i] = rib_to_float(l->x[v * (size_t)l->dim + i]);
            m.Ng[3 * k + i] = len > 0 ? (float)(N[3 * v + i] / len) : 0.0f;
        }
        write_vars(prim, &m, l, k, v, cn);
    }
    free(N);
    size_t t = 0;
    for (size_t f = 0; f < l->nf; f++) {
        if (!drawn(l, cage_boundary, f))
            continue;
        size_t s = l->fstart[f];
        for (int h = 0; h < 2; h++, t++) {
            static const int corner[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int k = 0; k < 3; k++) {
                size_t cn = s + (size_t)corner[h][k];
                m.tris[3 * t + (size_t)k] =
                    (uint32_t)slot[per_corner ? cn : l->fv[cn]];
            }
            rib_prim_triangle(prim, &m, t, l->origin[f]);
        }
    }
    free(slot);
    free(from);
    rib_emit_mesh(c, &m);
}

/* Refines the cage, limits it and emits it. */
static void subdivide(RibCtx *c, const RibRequest *r, const Cage *g,
                      const RibPrim *prim)
{
    int levels = SUBDIV_LEVELS;
    while (levels > 1 &&
           (g->ncorners << (2 * (levels - 1))) > SUBDIV_MAX_QUADS)
        levels--;
    size_t quads = g->ncorners << (2 * (levels - 1));
    if ((quads >> (2 * (levels - 1))) != g->ncorners ||
        !rib_budget(c, r->loc, r->name, 2 * quads))
        return;
    Level l;
    EdgeMap m;
    cage_level(g, prim, &l);
    build_edges(&l, &m);
    /* The cage's boundary faces, which have no limit surface unless the
       boundary is interpolated. */
    bool *cage_boundary = NULL;
    if (!g->interp_boundary) {
        bool *bv = rib_xcalloc(l.nv, sizeof *bv);
        for (size_t i = 0; i < l.ne; i++)
            if (l.e[i].nf != 2)
                bv[l.e[i].v[0]] = bv[l.e[i].v[1]] = true;
        cage_boundary = rib_xcalloc(l.nf, sizeof *cage_boundary);
        for (size_t f = 0; f < l.nf; f++)
            for (size_t k = l.fstart[f]; k < l.fstart[f + 1]; k++)
                cage_boundary[f] |= bv[l.fv[k]];
        free(bv);
    }
    for (size_t i = 0; i < g->ncreases; i++) {
        size_t id = edge_find(&m, l.e, g->crease[i][0], g->crease[i][1]);
        if (id == SIZE_MAX)
            rib_warning(c, r->loc, "SubdivisionMesh: crease from vertex %zu "
                        "to %zu is not an edge; ignored", g->crease[i][0],
                        g->crease[i][1]);
        else if (l.e[id].nf == 2)
            l.e[id].sharp = g->crease_sharp[i];
    }
    for (int i = 0; i < levels; i++) {
        Level next;
        EdgeMap nm;
        refine(&l, g->interp_boundary, &next, &nm);
        level_free(&l);
        free(m.slot);
        l = next, m = nm;
    }
    /* To the limit: every face is a quad now. */
    Ring *q = rings(&l, NULL);
    double *lim = rib_xmalloc(l.nv * (size_t)l.dim * sizeof *lim);
    for (size_t v = 0; v < l.nv; v++)
        vertex_rule(&l, &q[v], v, true, g->interp_boundary,
                    lim + v * (size_t)l.dim);
    rings_free(q);
    free(l.x);
    l.x = lim;
    emit(c, r, prim, &l, cage_boundary);
    free(cage_boundary);
    level_free(&l);
    free(m.slot);
}

/* Reads the topology, the tags and the parameter list. */
void rib_req_SubdivisionMesh(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *scheme = rib_arg_string(c, r, &pos, "scheme");
    const RibArg *nverts = scheme ? rib_arg_number_array(c, r, &pos,
                                                         "nvertices") : NULL;
    const RibArg *verts = nverts ? rib_arg_number_array(c, r, &pos,
                                                        "vertices") : NULL;
    if (!verts)
        return;
    if (strcmp(scheme, "catmull-clark") != 0) {
        rib_unsupported(c, r->loc, "SubdivisionMesh: scheme \"%s\" is not "
                        "supported; ignored", scheme);
        return;
    }
    /* The tags are four arrays, the first of strings (or empty). */
    TagArgs t = {0};
    if (pos + 3 < r->nargs &&
        (r->args[pos].kind == RIB_ARG_STRINGS ||
         (r->args[pos].kind == RIB_ARG_NUMBERS && r->args[pos].n == 0))) {
        t.tags = &r->args[pos++];
        t.nargs = rib_arg_number_array(c, r, &pos, "nargs");
        t.ints = t.nargs ? rib_arg_number_array(c, r, &pos, "intargs") : NULL;
        t.floats = t.ints ? rib_arg_number_array(c, r, &pos, "floatargs")
                          : NULL;
        if (!t.floats)
            return;
    }
    Cage g = {0};
    g.nfaces = nverts->n;
    g.fstart = rib_xmalloc((g.nfaces + 1) * sizeof *g.fstart);
    g.fstart[0] = 0;
    bool ok = true;
    for (size_t f = 0; ok && f < g.nfaces; f++) {
        long n;
        ok = rib_int_at(c, r, nverts, f, 3, 0x7fffffffL, &n, "nvertices");
        g.fstart[f + 1] = g.fstart[f] + (ok ? (size_t)n : 0);
    }
    g.ncorners = g.fstart[g.nfaces];
    if (ok && verts->n != g.ncorners) {
        rib_error(c, verts->loc, "SubdivisionMesh: vertices has %zu values, "
                  "but nvertices adds up to %zu", verts->n, g.ncorners);
        ok = false;
    }
    if (ok) {
        g.fv = rib_xmalloc((g.ncorners ? g.ncorners : 1) * sizeof *g.fv);
        for (size_t i = 0; ok && i < g.ncorners; i++) {
            long v;
            ok = rib_int_at(c, r, verts, i, 0, 0x7fffffffL, &v, "vertices");
            g.fv[i] = (size_t)v;
            if (ok && g.fv[i] + 1 > g.nverts)
                g.nverts = g.fv[i] + 1;
        }
    }
    /* A face must not use a vertex twice: its edges would be loops. */
    for (size_t f = 0; ok && f < g.nfaces; f++)
        for (size_t i = g.fstart[f]; ok && i < g.fstart[f + 1]; i++)
            for (size_t j = i + 1; ok && j < g.fstart[f + 1]; j++)
                if (g.fv[i] == g.fv[j]) {
                    rib_error(c, verts->loc, "SubdivisionMesh: face %zu "
                              "uses vertex %zu twice", f, g.fv[i]);
                    ok = false;
                }
    RibPrim prim;
    if (ok && g.nfaces && rib_prim_parse(c, r, pos, RIB_POS_PW, &prim)) {
        g.hole = rib_xcalloc(g.nfaces, sizeof *g.hole);
        g.corner = rib_xcalloc(g.nverts, sizeof *g.corner);
        RibPrimCounts counts = {g.nfaces, g.nverts, g.nverts, g.ncorners};
        if (rib_prim_check(c, r, &prim, &counts) &&
            (!t.tags || read_tags(c, r, &t, &g)))
            subdivide(c, r, &g, &prim);
        rib_prim_free(&prim);
    }
    cage_free(&g);
}
