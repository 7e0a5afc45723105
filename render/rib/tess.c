/*
** tess.c: turns a parametric surface into a triangle mesh.
**
** Segment counts: analytic quadrics pick theirs from their sweep angles.
** Patches and NURBS are sampled on a 5x5 grid per face; along a direction
** the steepest turning of their tangent or normal between neighbouring
** samples, spread over the whole face, divided by the maximum facet angle
** (RibLoadOptions, default 2.5 degrees) gives the count, between 1 and
** RIB_MAX_FACE_SEGMENTS: segments are evenly spaced, so the total turning
** would let a face that bends unevenly have facets turning through more
** than the angle. The rule
** depends only on shape, not on size or the screen, so one tessellation
** serves every instance; at 2.5 degrees a circle's chords stay within
** 1 - cos(1.25 deg) = 0.024% of its radius.
**
** All faces of a column share its segment count (and of a row), so the
** mesh is one (NU+1) x (NV+1) grid whose patch borders share vertices.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/tess.h"

int rib_angle_segments(double angle, double max_angle)
{
    double n = ceil(fabs(angle) / max_angle - 1e-9);
    if (!(n >= 1))
        return 1;
    return n > 1e6 ? 1000000 : (int)n;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Angle between two vectors; 0 when either is null or not finite. */
static double angle_between(const double a[3], const double b[3])
{
    double la = sqrt(dot(a, a)), lb = sqrt(dot(b, b));
    if (!(la > 0 && lb > 0 && la < INFINITY && lb < INFINITY))
        return 0;
    double c = dot(a, b) / (la * lb);
    return acos(c > 1 ? 1 : c < -1 ? -1 : c);
}

/* One evaluated surface point with the stencil of its vertex values. */
typedef struct Sample {
    double P[3], Pa[3], Pb[3];
    int n;
    size_t idx[RIB_MAX_STENCIL];
    double w[RIB_MAX_STENCIL];
} Sample;

static const size_t corner_idx[4] = {0, 1, 2, 3};

/* Bilinear weights of the corners (0,0) (1,0) (0,1) (1,1). */
static void bilinear(double a, double b, double w[4])
{
    w[0] = (1 - a) * (1 - b);
    w[1] = a * (1 - b);
    w[2] = (1 - a) * b;
    w[3] = a * b;
}

static void evaluate(const RibSurface *s, int fu, int fv, double a, double b,
                     Sample *out)
{
    if (s->point) {
        s->point(s, a, b, out->P, out->Pa, out->Pb);
        out->n = 4;
        memcpy(out->idx, corner_idx, sizeof corner_idx);
        bilinear(a, b, out->w);
        return;
    }
    double wa[RIB_MAX_STENCIL], wb[RIB_MAX_STENCIL];
    int n = s->basis(s, fu, fv, a, b, out->idx, out->w, wa, wb);
    double H[4] = {0}, Ha[4] = {0}, Hb[4] = {0};
    for (int i = 0; i < n; i++) {
        const double *cp = s->cp + 4 * out->idx[i];
        for (int k = 0; k < 4; k++) {
            H[k] += out->w[i] * cp[k];
            Ha[k] += wa[i] * cp[k];
            Hb[k] += wb[i] * cp[k];
        }
    }
    out->n = n;
    if (!s->rational) {
        memcpy(out->P, H, sizeof out->P);
        memcpy(out->Pa, Ha, sizeof out->Pa);
        memcpy(out->Pb, Hb, sizeof out->Pb);
        return;
    }
    /* Rational (homogeneous) points: P = H/w, quotient rule for the
       derivatives, and vertex values weighted like P. */
    for (int k = 0; k < 3; k++) {
        out->P[k] = H[k] / H[3];
        out->Pa[k] = (Ha[k] - out->P[k] * Ha[3]) / H[3];
        out->Pb[k] = (Hb[k] - out->P[k] * Hb[3]) / H[3];
    }
    for (int i = 0; i < n; i++)
        out->w[i] *= s->cp[4 * out->idx[i] + 3] / H[3];
}

#define SAMPLES 4

/* The turning of face (fu, fv) along a (dir 0) and b (dir 1), in
   radians, at the rate of its steepest sampled step. */
static void face_turning(const RibSurface *s, int fu, int fv, double turn[2])
{
    Sample g[SAMPLES + 1][SAMPLES + 1];
    double N[SAMPLES + 1][SAMPLES + 1][3];
    for (int j = 0; j <= SAMPLES; j++)
        for (int i = 0; i <= SAMPLES; i++) {
            evaluate(s, fu, fv, (double)i / SAMPLES, (double)j / SAMPLES,
                     &g[j][i]);
            cross(g[j][i].Pa, g[j][i].Pb, N[j][i]);
        }
    double peak[2] = {0, 0};
    for (int j = 0; j <= SAMPLES; j++)
        for (int i = 0; i < SAMPLES; i++) {
            peak[0] = fmax(peak[0],
                           fmax(angle_between(g[j][i].Pa, g[j][i + 1].Pa),
                                angle_between(N[j][i], N[j][i + 1])));
            peak[1] = fmax(peak[1],
                           fmax(angle_between(g[i][j].Pb, g[i + 1][j].Pb),
                                angle_between(N[i][j], N[i + 1][j])));
        }
    turn[0] = peak[0] * SAMPLES;
    turn[1] = peak[1] * SAMPLES;
}

static int clamp_segments(double turn, double max_angle)
{
    int n = rib_angle_segments(turn, max_angle);
    return n > RIB_MAX_FACE_SEGMENTS ? RIB_MAX_FACE_SEGMENTS : n;
}

/* Segment counts per face column (su) and row (sv). */
static void choose_segments(const RibSurface *s, double max_angle, int *su,
                            int *sv)
{
    if (s->segments) {
        s->segments(s, max_angle, su, sv);
        return;
    }
    memset(su, 0, (size_t)s->nfu * sizeof *su);
    memset(sv, 0, (size_t)s->nfv * sizeof *sv);
    for (int fv = 0; fv < s->nfv; fv++)
        for (int fu = 0; fu < s->nfu; fu++) {
            if ((s->empty_u && s->empty_u[fu]) ||
                (s->empty_v && s->empty_v[fv]))
                continue;
            double turn[2];
            face_turning(s, fu, fv, turn);
            int nu = clamp_segments(turn[0], max_angle);
            int nv = clamp_segments(turn[1], max_angle);
            su[fu] = su[fu] > nu ? su[fu] : nu;
            sv[fv] = sv[fv] > nv ? sv[fv] : nv;
        }
}

/* Grid line I -> (face, local parameter); returns the line count - 1. */
static size_t lay_out(const int *seg, int nfaces, int *face, double *local)
{
    size_t k = 0;
    int last = -1;
    for (int f = 0; f < nfaces; f++) {
        for (int i = 0; i < seg[f]; i++, k++) {
            face[k] = f;
            local[k] = (double)i / seg[f];
        }
        if (seg[f])
            last = f;
    }
    face[k] = last;
    local[k] = 1.0;
    return k;
}

typedef struct Grid {
    size_t NU, NV;
    int *fu, *fv;       /* per grid line: its face */
    double *a, *b;      /* per grid line: the local parameter */
} Grid;

static void eval_vertex(const RibSurface *s, const RibPrim *prim, RibMesh *m,
                        size_t k, int fu, int fv, double a, double b)
{
    Sample sm;
    evaluate(s, fu, fv, a, b, &sm);
    double n[3], len;
    cross(sm.Pa, sm.Pb, n);
    len = sqrt(dot(n, n));
    /* A derivative that is zero but for rounding (summing the weights of
       identical control points away from the origin leaves ~1e-16 |P|)
       is zero: its cross product would point anywhere. */
    double la = sqrt(dot(sm.Pa, sm.Pa)), lb = sqrt(dot(sm.Pb, sm.Pb));
    double scale = sqrt(dot(sm.P, sm.P)) + la + lb;
    if (!(len > 0) || la <= 1e-9 * scale || lb <= 1e-9 * scale) {
        /* A degenerate point (a collapsed edge): take the normal from
           just inside the face. */
        Sample in;
        evaluate(s, fu, fv, a + (a < 0.5 ? 1e-4 : -1e-4),
                 b + (b < 0.5 ? 1e-4 : -1e-4), &in);
        cross(in.Pa, in.Pb, n);
        len = sqrt(dot(n, n));
    }
    for (int i = 0; i < 3; i++) {
        m->P[3 * k + i] = rib_to_float(sm.P[i]);
        m->Ng[3 * k + i] = len > 0 && len < INFINITY
                               ? rib_to_float(n[i] / len) : 0.0f;
    }
    double uv[2];
    s->uv(s, fu, fv, a, b, uv);
    m->uv[2 * k] = rib_to_float(uv[0]);
    m->uv[2 * k + 1] = rib_to_float(uv[1]);
    size_t cidx[4];
    double cw[4];
    if (s->corners)
        s->corners(s, fu, fv, cidx);
    else
        memcpy(cidx, corner_idx, sizeof cidx);
    bilinear(a, b, cw);
    RibStencil vertex = {sm.n, sm.idx, sm.w}, corners = {4, cidx, cw};
    rib_prim_vertex(prim, m, k, &vertex, &corners, &corners);
}

/* Squared area below which a triangle is dropped: collapsed edges and
   poles make such slivers, and they only waste the ray tracer's time. */
static double tiny_area2(const RibMesh *m)
{
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX,
                                                       -FLT_MAX};
    for (size_t k = 0; k < m->nverts; k++)
        for (int i = 0; i < 3; i++) {
            float v = m->P[3 * k + i];
            if (isfinite(v)) {
                lo[i] = v < lo[i] ? v : lo[i];
                hi[i] = v > hi[i] ? v : hi[i];
            }
        }
    double d2 = 0;
    for (int i = 0; i < 3; i++)
        if (hi[i] >= lo[i])
            d2 += ((double)hi[i] - lo[i]) * ((double)hi[i] - lo[i]);
    return 1e-28 * d2 * d2;
}

static bool add_triangle(RibMesh *m, const RibPrim *prim, size_t face,
                         size_t i0, size_t i1, size_t i2, double eps)
{
    double e1[3], e2[3], n[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)m->P[3 * i1 + i] - m->P[3 * i0 + i];
        e2[i] = (double)m->P[3 * i2 + i] - m->P[3 * i0 + i];
    }
    cross(e1, e2, n);
    if (!(dot(n, n) > eps))  /* also drops non-finite triangles */
        return false;
    uint32_t *t = m->tris + 3 * m->ntris;
    t[0] = (uint32_t)i0, t[1] = (uint32_t)i1, t[2] = (uint32_t)i2;
    rib_prim_triangle(prim, m, m->ntris, face);
    m->ntris++;
    return true;
}

static void build(RibCtx *c, const RibRequest *r, const RibSurface *s,
                  const RibPrim *prim, const Grid *g)
{
    size_t W = g->NU + 1;
    RibMesh m;
    memset(&m, 0, sizeof m);
    m.prim = r->name;
    m.loc = r->loc;
    m.nverts = W * (g->NV + 1);
    m.ntris = 2 * g->NU * g->NV;  /* room for all; trimmed below */
    m.P = rib_xmalloc(3 * m.nverts * sizeof *m.P);
    m.Ng = rib_xmalloc(3 * m.nverts * sizeof *m.Ng);
    m.uv = rib_xmalloc(2 * m.nverts * sizeof *m.uv);
    m.tris = rib_xmalloc(3 * m.ntris * sizeof *m.tris);
    rib_prim_outputs(prim, &m);
    for (size_t J = 0; J <= g->NV; J++)
        for (size_t I = 0; I < W; I++)
            eval_vertex(s, prim, &m, J * W + I, g->fu[I], g->fv[J], g->a[I],
                        g->b[J]);
    double eps = tiny_area2(&m);
    m.ntris = 0;
    for (size_t J = 0; J < g->NV; J++)
        for (size_t I = 0; I < g->NU; I++) {
            size_t k00 = J * W + I, k10 = k00 + 1, k01 = k00 + W,
                   k11 = k01 + 1;
            size_t face = (size_t)g->fv[J] * (size_t)s->nfu + (size_t)g->fu[I];
            /* (a, b, a+b) winding: e1 x e2 follows dPda x dPdb */
            add_triangle(&m, prim, face, k00, k10, k11, eps);
            add_triangle(&m, prim, face, k00, k11, k01, eps);
        }
    rib_emit_mesh(c, &m);
}

void rib_tessellate(RibCtx *c, const RibRequest *r, const RibSurface *s,
                    const RibPrim *prim)
{
    double max_angle = c->opt.max_angle_deg * (M_PI / 180.0);
    if (!(max_angle > 1e-4))
        max_angle = 1e-4;
    int *su = rib_xmalloc((size_t)s->nfu * sizeof *su);
    int *sv = rib_xmalloc((size_t)s->nfv * sizeof *sv);
    choose_segments(s, max_angle, su, sv);
    Grid g;
    size_t cols = 1, rows = 1;
    for (int i = 0; i < s->nfu; i++)
        cols += (size_t)su[i];
    for (int i = 0; i < s->nfv; i++)
        rows += (size_t)sv[i];
    g.fu = rib_xmalloc(cols * sizeof *g.fu);
    g.a = rib_xmalloc(cols * sizeof *g.a);
    g.fv = rib_xmalloc(rows * sizeof *g.fv);
    g.b = rib_xmalloc(rows * sizeof *g.b);
    g.NU = lay_out(su, s->nfu, g.fu, g.a);
    g.NV = lay_out(sv, s->nfv, g.fv, g.b);
    /* Too many quads to count saturates, and the budget refuses it. */
    size_t quads = SIZE_MAX / 4, nverts = SIZE_MAX;
    rib_mul_size(g.NU, g.NV, &quads);
    rib_mul_size(g.NU + 1, g.NV + 1, &nverts);
    if (g.NU && g.NV && rib_budget(c, r->loc, r->name, 2 * quads)) {
        if (nverts >= UINT32_MAX)
            rib_error(c, r->loc, "%s: too many vertices for 32-bit indices",
                      r->name);
        else
            build(c, r, s, prim, &g);
    }
    free(su);
    free(sv);
    free(g.fu);
    free(g.fv);
    free(g.a);
    free(g.b);
}
