/*
** curves.c: Curves (RISpec 3.2 section 5.6), linear or cubic in the
** current v basis, periodic or not, as flat ribbons.
**
** A ribbon is "width" (varying or vertex) or "constantwidth" (default 1,
** object space) wide. Without normals it turns about the curve to face
** the camera at each sample; with "N" it lies across the curve
** perpendicular to N (an oriented ribbon). Each segment is sampled
** evenly at as many points as keep its tangent turning at most the
** maximum facet angle between samples (a straight segment: two), at most
** CURVE_MAX_STEPS; every sample is a pair of vertices, at -w/2 and +w/2
** across. Segments do not share their end samples: where the tangent
** breaks (a polyline's corners, Bezier joins) each keeps its own width
** direction rather than twisting towards the next. u runs across the ribbon (0 to 1), v along the curve (0 to 1).
** Vertex values follow the basis weights, varying and facevarying values
** run linearly along each segment, uniform values are per curve.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/basis.h"
#include "render/rib/tess.h"

#define CURVE_MAX_STEPS 32

typedef struct Curves {
    bool cubic, periodic;
    RibBasis basis;
    int step;
    size_t ncurves;
    size_t *nv;          /* control points of each curve */
    size_t *first;       /* first control point of each curve */
    size_t *nseg;        /* segments of each curve */
    size_t *vfirst;      /* first varying value of each curve */
} Curves;

/* Weights of segment seg of curve i at t: returns how many. */
static int stencil(const Curves *cv, size_t i, size_t seg, double t,
                   size_t idx[4], double w[4], double dw[4])
{
    size_t n = cv->nv[i];
    if (!cv->cubic) {
        idx[0] = cv->first[i] + seg;
        idx[1] = cv->first[i] + (seg + 1) % n;
        w[0] = 1 - t, w[1] = t;
        dw[0] = -1, dw[1] = 1;
        return 2;
    }
    rib_basis_eval(&cv->basis, t, w, dw);
    for (size_t j = 0; j < 4; j++)
        idx[j] = cv->first[i] + (seg * (size_t)cv->step + j) % n;
    return 4;
}

/* A weighted sum of one component-set of values (ncomp each). */
static void combine(const float *vals, int ncomp, int n, const size_t *idx,
                    const double *w, double *out)
{
    for (int k = 0; k < ncomp; k++) {
        out[k] = 0;
        for (int e = 0; e < n; e++)
            out[k] += w[e] * vals[idx[e] * (size_t)ncomp + (size_t)k];
    }
}

static const RibParam *var(const RibPrim *prim, const char *name, int ncomp,
                           RibClass cls)
{
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        if (strcmp(p->name, name) == 0 && p->ncomp == ncomp && p->f &&
            p->cls == cls)
            return p;
    }
    return NULL;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double normalize(double v[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0)
        for (int i = 0; i < 3; i++)
            v[i] /= len;
    return len;
}

/* What a ribbon's sample needs besides its position. */
typedef struct Across {
    const RibParam *width, *vwidth, *cwidth, *N, *vN;
    RibEye eye;
} Across;

/* One sample of curve i: its two vertices (k and k + 1) in the mesh. */
static void sample(const Curves *cv, const RibPrim *prim, const double *pts,
                   const Across *ac, RibMesh *m, size_t k, size_t i,
                   size_t seg, double t)
{
    size_t idx[4];
    double w[4], dw[4], H[4], dH[4], P[3], T[3];
    int n = stencil(cv, i, seg, t, idx, w, dw);
    for (int c = 0; c < 4; c++) {
        H[c] = dH[c] = 0;
        for (int e = 0; e < n; e++)
            H[c] += w[e] * pts[4 * idx[e] + (size_t)c],
                dH[c] += dw[e] * pts[4 * idx[e] + (size_t)c];
    }
    for (int c = 0; c < 3; c++) {
        P[c] = H[c] / H[3];
        T[c] = (dH[c] - P[c] * dH[3]) / H[3];
    }
    /* varying: linear along the segment */
    size_t nvary = cv->periodic ? cv->nseg[i] : cv->nseg[i] + 1;
    size_t vidx[2] = {cv->vfirst[i] + seg,
                      cv->vfirst[i] + (seg + 1) % nvary};
    double vw[2] = {1 - t, t};
    double width = 1, nrm[3], side[3];
    if (ac->width)
        combine(ac->width->f, 1, 2, vidx, vw, &width);
    else if (ac->vwidth)
        combine(ac->vwidth->f, 1, n, idx, w, &width);
    else if (ac->cwidth)
        width = ac->cwidth->f[0];
    if (ac->N)
        combine(ac->N->f, 3, 2, vidx, vw, nrm);
    else if (ac->vN)
        combine(ac->vN->f, 3, n, idx, w, nrm);
    else
        rib_eye_towards(&ac->eye, P, nrm);
    cross(T, nrm, side);
    if (!(normalize(side) > 0)) {
        /* The curve runs along the facing direction: any side will do. */
        double a[3] = {fabs(T[0]) < 0.6, fabs(T[0]) >= 0.6, 0};
        cross(T, a, side);
        normalize(side);
    }
    double ng[3];
    cross(side, T, ng);
    normalize(ng);
    double v = ((double)seg + t) / (double)cv->nseg[i];
    for (int s = 0; s < 2; s++) {
        double off = (s ? 0.5 : -0.5) * width;
        for (int c = 0; c < 3; c++) {
            m->P[3 * (k + (size_t)s) + (size_t)c] =
                rib_to_float(P[c] + off * side[c]);
            m->Ng[3 * (k + (size_t)s) + (size_t)c] = (float)ng[c];
        }
        m->uv[2 * (k + (size_t)s)] = (float)s;
        m->uv[2 * (k + (size_t)s) + 1] = rib_to_float(v);
        RibStencil vs = {n, idx, w}, ls = {2, vidx, vw};
        rib_prim_vertex(prim, m, k + (size_t)s, &vs, &ls, &ls);
    }
}

/* How many steps segment seg of curve i takes: its tangent's sampled
   turning over the maximum facet angle. */
static int steps(const Curves *cv, const double *pts, size_t i, size_t seg,
                 double max_angle)
{
    if (!cv->cubic)
        return 1;
    double turn = 0, prev[3] = {0, 0, 0};
    for (int j = 0; j <= 8; j++) {
        size_t idx[4];
        double w[4], dw[4], T[3] = {0, 0, 0};
        int n = stencil(cv, i, seg, j / 8.0, idx, w, dw);
        for (int e = 0; e < n; e++)
            for (int c = 0; c < 3; c++)
                T[c] += dw[e] * pts[4 * idx[e] + (size_t)c] /
                        pts[4 * idx[e] + 3];
        if (normalize(T) > 0 && j > 0 && (prev[0] || prev[1] || prev[2])) {
            double d = T[0] * prev[0] + T[1] * prev[1] + T[2] * prev[2];
            turn += acos(d > 1 ? 1 : d < -1 ? -1 : d);
        }
        memcpy(prev, T, sizeof prev);
    }
    int s = rib_angle_segments(turn, max_angle);
    return s > CURVE_MAX_STEPS ? CURVE_MAX_STEPS : s;
}

static void build(RibCtx *c, const RibRequest *r, const Curves *cv,
                  const RibPrim *prim)
{
    double max_angle = c->opt.max_angle_deg * (M_PI / 180.0);
    if (!(max_angle > 1e-4))
        max_angle = 1e-4;
    double *pts = rib_prim_points(prim, 0, 0);
    size_t total = 0, nsegs = 0;
    for (size_t i = 0; i < cv->ncurves; i++)
        nsegs += cv->nseg[i];
    int *nsteps = rib_xmalloc((nsegs ? nsegs : 1) * sizeof *nsteps);
    for (size_t i = 0, s = 0; i < cv->ncurves; i++)
        for (size_t seg = 0; seg < cv->nseg[i]; seg++, s++)
            total += (size_t)(nsteps[s] = steps(cv, pts, i, seg, max_angle));
    if (total == 0 || 2 * (total + nsegs) >= UINT32_MAX ||
        !rib_budget(c, r->loc, r->name, 2 * total)) {
        free(nsteps);
        free(pts);
        return;
    }
    Across ac = {var(prim, "width", 1, RIB_CLASS_VARYING),
                 var(prim, "width", 1, RIB_CLASS_VERTEX),
                 var(prim, "constantwidth", 1, RIB_CLASS_CONSTANT),
                 var(prim, "N", 3, RIB_CLASS_VARYING),
                 var(prim, "N", 3, RIB_CLASS_VERTEX), {0}};
    rib_eye(c, &ac.eye);
    RibMesh m;
    memset(&m, 0, sizeof m);
    m.prim = r->name;
    m.loc = r->loc;
    m.nverts = 2 * (total + nsegs);
    m.ntris = 2 * total;
    m.P = rib_xmalloc(3 * m.nverts * sizeof *m.P);
    m.Ng = rib_xmalloc(3 * m.nverts * sizeof *m.Ng);
    m.uv = rib_xmalloc(2 * m.nverts * sizeof *m.uv);
    m.tris = rib_xmalloc(3 * m.ntris * sizeof *m.tris);
    rib_prim_outputs(prim, &m);
    size_t k = 0, t = 0;
    for (size_t i = 0, s = 0; i < cv->ncurves; i++)
        for (size_t seg = 0; seg < cv->nseg[i]; seg++, s++) {
            for (int j = 0; j <= nsteps[s]; j++, k += 2) {
                sample(cv, prim, pts, &ac, &m, k, i, seg,
                       (double)j / nsteps[s]);
                if (j == nsteps[s])
                    continue;
                /* (left, right) now, the next pair after: wound so the
                   normal is side x tangent, towards the camera */
                uint32_t l0 = (uint32_t)k, r0 = l0 + 1, l1 = l0 + 2,
                         r1 = l0 + 3;
                uint32_t *tri = m.tris + 3 * t;
                tri[0] = l0, tri[1] = r0, tri[2] = r1;
                tri[3] = l0, tri[4] = r1, tri[5] = l1;
                rib_prim_triangle(prim, &m, t++, i);
                rib_prim_triangle(prim, &m, t++, i);
            }
        }
    free(nsteps);
    free(pts);
    rib_emit_mesh(c, &m);
}

void rib_req_Curves(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *type = rib_arg_string(c, r, &pos, "type");
    const RibArg *nverts = type ? rib_arg_number_array(c, r, &pos,
                                                       "nvertices") : NULL;
    const char *wrap = nverts ? rib_arg_string(c, r, &pos, "wrap") : NULL;
    if (!wrap)
        return;
    Curves cv = {0};
    cv.cubic = strcmp(type, "cubic") == 0;
    cv.periodic = strcmp(wrap, "periodic") == 0;
    if (!cv.cubic && strcmp(type, "linear") != 0) {
        rib_error(c, r->loc, "Curves: type \"%s\" is neither \"linear\" nor "
                  "\"cubic\"", type);
        return;
    }
    if (!cv.periodic && strcmp(wrap, "nonperiodic") != 0) {
        rib_error(c, r->loc, "Curves: wrap \"%s\" is neither \"periodic\" "
                  "nor \"nonperiodic\"", wrap);
        return;
    }
    cv.basis = c->attr.vbasis;
    cv.step = cv.cubic ? c->attr.vbasis.step : 1;
    cv.ncurves = nverts->n;
    size_t ncurves = cv.ncurves ? cv.ncurves : 1;
    cv.nv = rib_xmalloc(ncurves * sizeof *cv.nv);
    cv.first = rib_xmalloc(ncurves * sizeof *cv.first);
    cv.nseg = rib_xmalloc(ncurves * sizeof *cv.nseg);
    cv.vfirst = rib_xmalloc(ncurves * sizeof *cv.vfirst);
    size_t nvertex = 0, nvarying = 0;
    bool ok = cv.ncurves > 0;
    for (size_t i = 0; ok && i < cv.ncurves; i++) {
        long n;
        ok = rib_int_at(c, r, nverts, i, cv.cubic ? 4 : 2, 0x7fffffffL, &n,
                        "nvertices");
        if (!ok)
            break;
        size_t nv = (size_t)n, step = (size_t)cv.step;
        if (cv.cubic && (cv.periodic ? nv % step : (nv - 4) % step)) {
            rib_error(c, r->loc, "Curves: curve %zu has %zu vertices, which "
                      "does not fit vstep %zu", i, nv, step);
            ok = false;
            break;
        }
        cv.nv[i] = nv;
        cv.first[i] = nvertex;
        cv.nseg[i] = cv.cubic ? (cv.periodic ? nv / step : (nv - 4) / step + 1)
                              : (cv.periodic ? nv : nv - 1);
        cv.vfirst[i] = nvarying;
        nvertex += nv;
        nvarying += cv.periodic ? cv.nseg[i] : cv.nseg[i] + 1;
    }
    RibPrim prim;
    if (ok && rib_prim_parse(c, r, pos, RIB_POS_PW, &prim)) {
        RibPrimCounts counts = {cv.ncurves, nvarying, nvertex, nvarying};
        if (rib_prim_check(c, r, &prim, &counts))
            build(c, r, &cv, &prim);
        rib_prim_free(&prim);
    }
    free(cv.nv);
    free(cv.first);
    free(cv.nseg);
    free(cv.vfirst);
}
