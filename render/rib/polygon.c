/*
** polygon.c: Polygon, GeneralPolygon, PointsPolygons and
** PointsGeneralPolygons, all read into one form — faces made of loops
** (outer boundary, then holes) of corners that index shared vertices —
** checked against the real array lengths before anything is sized from a
** count, then triangulated face by face.
**
** Mesh vertices are the polygons' vertices, shared between faces, unless
** a facevarying variable is present: then every corner is its own vertex.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/primvar.h"
#include "render/rib/triangulate.h"

typedef struct Polys {
    size_t nfaces;
    size_t *face_loops;    /* loops per face */
    size_t nloops;
    size_t *loop_size;     /* corners per loop */
    size_t ncorners;
    size_t *vert;          /* corner -> vertex */
    size_t nvertices;      /* largest vertex index + 1 */
} Polys;

static void polys_free(Polys *p)
{
    free(p->face_loops);
    free(p->loop_size);
    free(p->vert);
}

/* Converts an array of counts, each at least min, and sums them. */
static bool counts_of(RibCtx *c, const RibRequest *r, const RibArg *a,
                      long min, size_t **out, size_t *sum, const char *what)
{
    *out = rib_xmalloc((a->n ? a->n : 1) * sizeof **out);
    *sum = 0;
    for (size_t i = 0; i < a->n; i++) {
        long v;
        if (!rib_int_at(c, r, a, i, min, 0x7fffffffL, &v, what))
            return false;
        (*out)[i] = (size_t)v;
        *sum += (size_t)v;
    }
    return true;
}

static bool expect_len(RibCtx *c, const RibRequest *r, const RibArg *a,
                       size_t n, const char *what)
{
    if (a->n == n)
        return true;
    rib_error(c, a->loc, "%s: %s has %zu values, but the counts before it "
              "add up to %zu", r->name, what, a->n, n);
    return false;
}

/* Corners from an explicit vertex array, or 0..n-1 when a is NULL. */
static bool corners_of(RibCtx *c, const RibRequest *r, Polys *p,
                       const RibArg *a)
{
    p->vert = rib_xmalloc((p->ncorners ? p->ncorners : 1) * sizeof *p->vert);
    p->nvertices = a ? 0 : p->ncorners;
    for (size_t i = 0; i < p->ncorners; i++) {
        long v = (long)i;
        if (a && !rib_int_at(c, r, a, i, 0, 0x7fffffffL, &v, "verts"))
            return false;
        p->vert[i] = (size_t)v;
        if (p->vert[i] + 1 > p->nvertices)
            p->nvertices = p->vert[i] + 1;
    }
    return true;
}

/* Each face has one loop. */
static void one_loop_each(Polys *p)
{
    p->face_loops = rib_xmalloc((p->nfaces ? p->nfaces : 1) *
                                sizeof *p->face_loops);
    for (size_t i = 0; i < p->nfaces; i++)
        p->face_loops[i] = 1;
}

/* Points of the face's loops, from corner first on, as doubles. */
static double *face_points(const Polys *p, const double *pts4,
                           size_t first, size_t n)
{
    double *out = rib_xmalloc(3 * n * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        const double *q = pts4 + 4 * p->vert[first + i];
        for (int k = 0; k < 3; k++)
            out[3 * i + k] = q[k] / q[3];
    }
    return out;
}

static void build(RibCtx *c, const RibRequest *r, const Polys *p,
                  const RibPrim *prim)
{
    bool per_corner = false;
    for (size_t i = 0; i < prim->nvars; i++)
        per_corner |= prim->vars[i].cls == RIB_CLASS_FACEVARYING;
    RibMesh m;
    memset(&m, 0, sizeof m);
    m.prim = r->name;
    m.loc = r->loc;
    m.nverts = per_corner ? p->ncorners : p->nvertices;
    size_t maxtris = p->ncorners + 2 * p->nloops;
    if (m.nverts >= UINT32_MAX) {
        rib_error(c, r->loc, "%s: too many vertices for 32-bit indices",
                  r->name);
        return;
    }
    if (!rib_budget(c, r->loc, r->name, maxtris))
        return;
    m.ntris = maxtris;
    m.P = rib_xmalloc(3 * (m.nverts ? m.nverts : 1) * sizeof *m.P);
    m.tris = rib_xmalloc(3 * maxtris * sizeof *m.tris);
    rib_prim_outputs(prim, &m);
    double *pts4 = rib_prim_points(prim, 0, 0);
    for (size_t k = 0; k < m.nverts; k++) {
        size_t v = per_corner ? p->vert[k] : k, fv = k;
        for (int i = 0; i < 3; i++)
            m.P[3 * k + i] = rib_to_float(pts4[4 * v + i] / pts4[4 * v + 3]);
        double one = 1.0;
        RibStencil shared = {1, &v, &one}, corner = {1, &fv, &one};
        rib_prim_vertex(prim, &m, k, &shared, &shared, &corner);
    }
    m.ntris = 0;
    size_t *local = rib_xmalloc(3 * maxtris * sizeof *local);
    size_t loop = 0, corner = 0;
    bool warned = false;
    for (size_t f = 0; f < p->nfaces; f++) {
        size_t n = 0;
        for (size_t l = 0; l < p->face_loops[f]; l++)
            n += p->loop_size[loop + l];
        double *pts = face_points(p, pts4, corner, n);
        bool fanned;
        size_t nt = rib_triangulate(pts, p->loop_size + loop,
                                    p->face_loops[f], local, &fanned);
        if (fanned && !warned) {
            rib_warning(c, r->loc, "%s: polygon of %zu points is too large "
                        "to triangulate properly; fanned", r->name, n);
            warned = true;
        }
        for (size_t t = 0; t < nt; t++, m.ntris++) {
            for (int k = 0; k < 3; k++) {
                size_t cn = corner + local[3 * t + k];
                m.tris[3 * m.ntris + k] =
                    (uint32_t)(per_corner ? cn : p->vert[cn]);
            }
            rib_prim_triangle(prim, &m, m.ntris, f);
        }
        free(pts);
        corner += n;
        loop += p->face_loops[f];
    }
    free(local);
    free(pts4);
    rib_emit_mesh(c, &m);
}

/* How a request gives its corners' vertices. */
typedef enum Corners {
    FROM_POSITIONS,   /* Polygon: one loop of every point of "P" */
    IN_ORDER,         /* GeneralPolygon: the loops take "P" in order */
    INDEXED           /* Points*Polygons: corners_of() has run */
} Corners;

/* Parses the parameter list at pos; checks it and builds the mesh.
   Corners in order are only made once "P" has been checked to hold them,
   so a count far beyond the input is an error, never an allocation. */
static void polygons(RibCtx *c, const RibRequest *r, size_t pos, Polys *p,
                     Corners corners)
{
    RibPrim prim;
    if (!rib_prim_parse(c, r, pos, RIB_POS_PW, &prim))
        return;
    if (corners == FROM_POSITIONS) {
        p->ncorners = p->loop_size[0] = prim.pos.count;
        if (p->ncorners < 3) {
            rib_error(c, r->loc, "%s: %zu vertices; a polygon needs 3",
                      r->name, p->ncorners);
            rib_prim_free(&prim);
            return;
        }
    }
    if (corners != INDEXED)
        p->nvertices = p->ncorners;
    RibPrimCounts counts = {p->nfaces, p->nvertices, p->nvertices,
                            p->ncorners};
    if (rib_prim_check(c, r, &prim, &counts) &&
        (corners == INDEXED || corners_of(c, r, p, NULL)))
        build(c, r, p, &prim);
    rib_prim_free(&prim);
}

void rib_req_Polygon(RibCtx *c, const RibRequest *r)
{
    Polys p = {.nfaces = 1, .nloops = 1};
    one_loop_each(&p);
    p.loop_size = rib_xmalloc(sizeof *p.loop_size);
    polygons(c, r, 0, &p, FROM_POSITIONS);
    polys_free(&p);
}

void rib_req_GeneralPolygon(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    Polys p = {.nfaces = 1};
    const RibArg *nverts = rib_arg_number_array(c, r, &pos, "nverts");
    if (nverts && nverts->n == 0)
        rib_error(c, nverts->loc, "GeneralPolygon: no loops");
    else if (nverts && counts_of(c, r, nverts, 3, &p.loop_size, &p.ncorners,
                                 "nverts")) {
        p.face_loops = rib_xmalloc(sizeof *p.face_loops);
        p.face_loops[0] = p.nloops = nverts->n;
        polygons(c, r, pos, &p, IN_ORDER);
    }
    polys_free(&p);
}

void rib_req_PointsPolygons(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    Polys p = {0};
    const RibArg *nverts = rib_arg_number_array(c, r, &pos, "nverts");
    const RibArg *verts = nverts ? rib_arg_number_array(c, r, &pos, "verts")
                                 : NULL;
    if (verts &&
        counts_of(c, r, nverts, 3, &p.loop_size, &p.ncorners, "nverts") &&
        expect_len(c, r, verts, p.ncorners, "verts") &&
        corners_of(c, r, &p, verts)) {
        p.nfaces = p.nloops = nverts->n;
        one_loop_each(&p);
        polygons(c, r, pos, &p, INDEXED);
    }
    polys_free(&p);
}

void rib_req_PointsGeneralPolygons(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    Polys p = {0};
    const RibArg *nloops = rib_arg_number_array(c, r, &pos, "nloops");
    const RibArg *nverts = nloops ? rib_arg_number_array(c, r, &pos, "nverts")
                                  : NULL;
    const RibArg *verts = nverts ? rib_arg_number_array(c, r, &pos, "verts")
                                 : NULL;
    if (verts &&
        counts_of(c, r, nloops, 1, &p.face_loops, &p.nloops, "nloops") &&
        expect_len(c, r, nverts, p.nloops, "nverts") &&
        counts_of(c, r, nverts, 3, &p.loop_size, &p.ncorners, "nverts") &&
        expect_len(c, r, verts, p.ncorners, "verts") &&
        corners_of(c, r, &p, verts)) {
        p.nfaces = nloops->n;
        polygons(c, r, pos, &p, INDEXED);
    }
    polys_free(&p);
}
