/*
** nurbs.c: NuPatch, a tensor-product NURBS surface. Each pair of knot
** spans inside [umin, umax] x [vmin, vmax] is one face; points come from
** the Cox-de Boor basis functions (and their derivatives) of the span,
** made rational by the tessellator when positions are given as "Pw".
** (u, v) are the knot parameters themselves. Trim curves are not applied.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/tess.h"

#define MAX_ORDER 16

typedef struct Dir {
    size_t n;                 /* control points */
    int order;
    const double *knot;       /* n + order values */
    double min, max;
    int spans;                /* n - order + 1: the uniform count */
    bool *empty;              /* spans outside [min, max] or of no width */
} Dir;

typedef struct Nurbs {
    Dir u, v;
} Nurbs;

/* The p+1 basis functions of degree p that are nonzero in knot span i
   (knot[i] <= t < knot[i+1]), as in Piegl and Tiller's algorithm A2.2. */
static void basis_funs(const double *knot, int i, double t, int p, double *N)
{
    double left[MAX_ORDER], right[MAX_ORDER];
    N[0] = 1.0;
    for (int j = 1; j <= p; j++) {
        left[j] = t - knot[i + 1 - j];
        right[j] = knot[i + j] - t;
        double saved = 0.0;
        for (int r = 0; r < j; r++) {
            double tmp = N[r] / (right[r + 1] + left[j - r]);
            N[r] = saved + right[r + 1] * tmp;
            saved = left[j - r] * tmp;
        }
        N[j] = saved;
    }
}

/* The span's span-local interval [t0, t1]. */
static void span_range(const Dir *d, int span, double *t0, double *t1)
{
    const double *k = d->knot + d->order - 1 + span;
    *t0 = k[0] > d->min ? k[0] : d->min;
    *t1 = k[1] < d->max ? k[1] : d->max;
}

/* Weights and derivatives (per unit of the face-local parameter) of the
   order nonzero functions in span at local parameter a. */
static void dir_weights(const Dir *d, int span, double a, double *N,
                        double *dN)
{
    int p = d->order - 1, i = p + span;
    double t0, t1;
    span_range(d, span, &t0, &t1);
    double t = t0 + a * (t1 - t0);
    basis_funs(d->knot, i, t, p, N);
    if (p == 0) {
        dN[0] = 0;
        return;
    }
    /* N'_{g,p} = p (N_{g,p-1} / (k[g+p] - k[g])
                     - N_{g+1,p-1} / (k[g+p+1] - k[g+1])) */
    double low[MAX_ORDER];
    basis_funs(d->knot, i, t, p - 1, low);
    for (int j = 0; j <= p; j++) {
        int g = i - p + j;
        double s = 0, den;
        if (j >= 1 && (den = d->knot[g + p] - d->knot[g]) > 0)
            s += low[j - 1] / den;
        if (j <= p - 1 && (den = d->knot[g + p + 1] - d->knot[g + 1]) > 0)
            s -= low[j] / den;
        dN[j] = p * s * (t1 - t0);
    }
}

static int nurbs_basis(const RibSurface *s, int fu, int fv, double a,
                       double b, size_t *idx, double *w, double *wa,
                       double *wb)
{
    const Nurbs *nb = s->data;
    double Nu[MAX_ORDER], dNu[MAX_ORDER], Nv[MAX_ORDER], dNv[MAX_ORDER];
    dir_weights(&nb->u, fu, a, Nu, dNu);
    dir_weights(&nb->v, fv, b, Nv, dNv);
    int n = 0;
    for (int j = 0; j < nb->v.order; j++)
        for (int i = 0; i < nb->u.order; i++, n++) {
            /* span k's functions start at control point k */
            idx[n] = ((size_t)fv + (size_t)j) * nb->u.n + (size_t)fu +
                     (size_t)i;
            w[n] = Nu[i] * Nv[j];
            wa[n] = dNu[i] * Nv[j];
            wb[n] = Nu[i] * dNv[j];
        }
    return n;
}

static void nurbs_corners(const RibSurface *s, int fu, int fv, size_t idx[4])
{
    const Nurbs *nb = s->data;
    size_t w = (size_t)nb->u.spans + 1;
    idx[0] = (size_t)fv * w + (size_t)fu;
    idx[1] = idx[0] + 1;
    idx[2] = idx[0] + w;
    idx[3] = idx[2] + 1;
}

static void nurbs_uv(const RibSurface *s, int fu, int fv, double a, double b,
                     double uv[2])
{
    const Nurbs *nb = s->data;
    double t0, t1;
    span_range(&nb->u, fu, &t0, &t1);
    uv[0] = t0 + a * (t1 - t0);
    span_range(&nb->v, fv, &t0, &t1);
    uv[1] = t0 + b * (t1 - t0);
}

/* n order knot[] min max of one direction (name "nu" or "nv"); false
   after an error. */
static bool read_dir(RibCtx *c, const RibRequest *r, size_t *pos, Dir *d,
                     const char *name)
{
    long n, order;
    double mm[2];
    const RibArg *k;
    char what[3][16];
    snprintf(what[0], sizeof what[0], "%sorder", name + 1);
    snprintf(what[1], sizeof what[1], "%sknot", name + 1);
    snprintf(what[2], sizeof what[2], "%smin %smax", name + 1, name + 1);
    if (!rib_arg_int(c, r, pos, 1, 0x7fffffffL, &n, name) ||
        !rib_arg_int(c, r, pos, 1, MAX_ORDER, &order, what[0]) ||
        !(k = rib_arg_number_array(c, r, pos, what[1])) ||
        !rib_arg_numbers(c, r, pos, 2, mm, what[2]))
        return false;
    if (n < order) {
        rib_error(c, r->loc, "NuPatch: %s = %ld is less than its order %ld",
                  name, n, order);
        return false;
    }
    if (k->n != (size_t)(n + order)) {
        rib_error(c, k->loc, "NuPatch: %zu knots, expected %s + %s = %ld",
                  k->n, name, what[0], n + order);
        return false;
    }
    for (size_t i = 1; i < k->n; i++) {
        if (k->nums[i] < k->nums[i - 1]) {
            rib_error(c, k->loc, "NuPatch: %s %zu (%g) is less than the "
                      "one before it", what[1], i, k->nums[i]);
            return false;
        }
    }
    d->n = (size_t)n;
    d->order = (int)order;
    d->knot = k->nums;
    /* the parameter range is clamped to where the basis sums to one */
    d->min = mm[0] > k->nums[order - 1] ? mm[0] : k->nums[order - 1];
    d->max = mm[1] < k->nums[n] ? mm[1] : k->nums[n];
    d->spans = (int)(n - order + 1);
    if (!(d->max > d->min)) {
        rib_error(c, r->loc, "NuPatch: %s [%g, %g] leaves no surface "
                  "within the knots' range [%g, %g]", what[2], mm[0], mm[1],
                  k->nums[order - 1], k->nums[n]);
        return false;
    }
    return true;
}

static void mark_empty(Dir *d)
{
    d->empty = rib_xmalloc((size_t)d->spans * sizeof *d->empty);
    for (int i = 0; i < d->spans; i++) {
        double t0, t1;
        span_range(d, i, &t0, &t1);
        d->empty[i] = !(t1 > t0);
    }
}

/* Rational weights must be positive for the surface to exist. */
static bool weights_ok(RibCtx *c, const RibRequest *r, const RibPrim *prim,
                       size_t n)
{
    if (prim->poskind != RIB_POS_PW)
        return true;
    for (size_t i = 0; i < n; i++) {
        if (!(prim->pos.f[4 * i + 3] > 0)) {
            rib_error(c, r->loc, "NuPatch: \"Pw\" weight %zu is %g; weights "
                      "must be positive", i, prim->pos.f[4 * i + 3]);
            return false;
        }
    }
    return true;
}

void rib_req_NuPatch(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    Nurbs nb;
    memset(&nb, 0, sizeof nb);
    if (!read_dir(c, r, &pos, &nb.u, "nu") || !read_dir(c, r, &pos, &nb.v,
                                                         "nv"))
        return;
    RibPrimCounts counts;
    counts.uniform = (size_t)nb.u.spans * (size_t)nb.v.spans;
    counts.varying = counts.facevarying =
        ((size_t)nb.u.spans + 1) * ((size_t)nb.v.spans + 1);
    counts.vertex = nb.u.n * nb.v.n;
    RibPrim prim;
    if (!rib_prim_parse(c, r, pos, RIB_POS_PW, &prim))
        return;
    if (rib_prim_check(c, r, &prim, &counts) &&
        weights_ok(c, r, &prim, counts.vertex)) {
        if (c->attr.trimmed)
            rib_unsupported(c, r->loc, "NuPatch: trim curves are not supported; "
                        "the patch is rendered untrimmed");
        mark_empty(&nb.u);
        mark_empty(&nb.v);
        double *cp = rib_prim_points(&prim, nb.u.n, nb.v.n);
        RibSurface s = {
            .nfu = nb.u.spans, .nfv = nb.v.spans, .basis = nurbs_basis,
            .cp = cp, .rational = prim.poskind == RIB_POS_PW, .corners = nurbs_corners, .uv = nurbs_uv,
            .empty_u = nb.u.empty, .empty_v = nb.v.empty, .data = &nb,
        };
        rib_tessellate(c, r, &s, &prim);
        free(cp);
        free(nb.u.empty);
        free(nb.v.empty);
    }
    rib_prim_free(&prim);
}
