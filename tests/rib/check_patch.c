/*
** check_patch.c: Patch, PatchMesh and NuPatch. Every tessellated vertex
** must be the surface point at its (u, v), computed here from the
** textbook forms of the bases (Bernstein polynomials, the uniform
** B-spline, Catmull-Rom and Hermite cubics, the power basis, Cox-de Boor
** recursion for NURBS), not from matrices: so the reader's matrices and
** their wiring (runtime/spline.h) are checked too. PatchMesh wrapping, steps,
** patch counts, and varying/uniform/vertex values per RISpec 3.2.
*/
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tests/rib/check_rib.h"

static RibScene *one_world(const char *body, RibDiag *d)
{
    static char text[1 << 16];
    snprintf(text, sizeof text, "WorldBegin\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    ck_assert_msg(s && d->nerrors == 0, "%s",
                  d->nmessages ? d->messages[0] : "load failed");
    return s;
}

/* ---- the bases, as polynomials ------------------------------------------- */

typedef void (*Weights)(double t, double w[4]);

static void bezier(double t, double w[4])
{
    double s = 1 - t;
    w[0] = s * s * s, w[1] = 3 * t * s * s, w[2] = 3 * t * t * s;
    w[3] = t * t * t;
}

static void bspline(double t, double w[4])
{
    double s = 1 - t;
    w[0] = s * s * s / 6;
    w[1] = (3 * t * t * t - 6 * t * t + 4) / 6;
    w[2] = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6;
    w[3] = t * t * t / 6;
}

static void catmull_rom(double t, double w[4])
{
    w[0] = 0.5 * (-t * t * t + 2 * t * t - t);
    w[1] = 0.5 * (3 * t * t * t - 5 * t * t + 2);
    w[2] = 0.5 * (-3 * t * t * t + 4 * t * t + t);
    w[3] = 0.5 * (t * t * t - t * t);
}

/* geometry (P0, T0, P1, T1) */
static void hermite(double t, double w[4])
{
    w[0] = 2 * t * t * t - 3 * t * t + 1;
    w[1] = t * t * t - 2 * t * t + t;
    w[2] = -2 * t * t * t + 3 * t * t;
    w[3] = t * t * t - t * t;
}

/* geometry (a, b, c, d) of a t^3 + b t^2 + c t + d */
static void power(double t, double w[4])
{
    w[0] = t * t * t, w[1] = t * t, w[2] = t, w[3] = 1;
}

static void linear(double t, double w[4])
{
    w[0] = 1 - t, w[1] = t, w[2] = w[3] = 0;
}

/* A mesh of nu x nv points (u fastest) as RISpec lays out PatchMesh. */
typedef struct Grid {
    const double *pts;   /* 3 per point */
    int nu, nv;
    bool uper, vper;
    Weights wu, wv;
    int ustep, vstep;
    int order;           /* 2 or 4 */
} Grid;

static int patches(int n, bool per, int step, int order)
{
    if (order == 2)
        return per ? n : n - 1;
    return per ? n / step : (n - 4) / step + 1;
}

/* The patch a mesh parameter falls in, and the local parameter. */
static int locate(double U, int np, double *a)
{
    int p = (int)floor(U * np);
    p = p < 0 ? 0 : p >= np ? np - 1 : p;
    *a = U * np - p;
    return p;
}

static void grid_point(const Grid *g, double U, double V, double out[3])
{
    int nup = patches(g->nu, g->uper, g->ustep, g->order);
    int nvp = patches(g->nv, g->vper, g->vstep, g->order);
    double a, b, wu[4], wv[4];
    int pu = locate(U, nup, &a), pv = locate(V, nvp, &b);
    g->wu(a, wu);
    g->wv(b, wv);
    out[0] = out[1] = out[2] = 0;
    for (int j = 0; j < g->order; j++)
        for (int i = 0; i < g->order; i++) {
            int cu = (pu * g->ustep + i) % g->nu;
            int cv = (pv * g->vstep + j) % g->nv;
            const double *p = g->pts + 3 * (cv * g->nu + cu);
            for (int k = 0; k < 3; k++)
                out[k] += wu[i] * wv[j] * p[k];
        }
}

/* Every vertex of m is the grid's point at the vertex's (u, v). */
static void assert_on_grid(const RibMesh *m, const Grid *g, double tol)
{
    ck_assert_ptr_nonnull(m->uv);
    ck_assert_uint_gt(m->ntris, 0);
    for (size_t k = 0; k < m->nverts; k++) {
        double want[3], p[3];
        grid_point(g, m->uv[2 * k], m->uv[2 * k + 1], want);
        vertex(m, k, p);
        for (int i = 0; i < 3; i++)
            ck_assert_msg(fabs(p[i] - want[i]) <= tol,
                          "%s vertex %zu at (u %g, v %g): %g %g %g, "
                          "expected %g %g %g", m->prim, k, m->uv[2 * k],
                          m->uv[2 * k + 1], p[0], p[1], p[2], want[0],
                          want[1], want[2]);
    }
}

/* The RIB list of a grid's points. */
static char *points_text(const double *pts, int n, char *buf)
{
    char *p = buf;
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%.17g %.17g %.17g  ", pts[3 * i], pts[3 * i + 1],
                     pts[3 * i + 2]);
    return buf;
}

/* n x m points on a wavy sheet: x = i, y = j, z from a small table. */
static void wavy(double *pts, int nu, int nv)
{
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nu; i++) {
            double *p = pts + 3 * (j * nu + i);
            p[0] = i, p[1] = j, p[2] = ((i * 7 + j * 3) % 5) * 0.5 - 1;
        }
}

/* The smallest and largest u and v over the mesh's vertices. */
static void uv_range(const RibMesh *m, double r[4])
{
    r[0] = r[2] = INFINITY, r[1] = r[3] = -INFINITY;
    for (size_t k = 0; k < m->nverts; k++) {
        r[0] = fmin(r[0], m->uv[2 * k]), r[1] = fmax(r[1], m->uv[2 * k]);
        r[2] = fmin(r[2], m->uv[2 * k + 1]);
        r[3] = fmax(r[3], m->uv[2 * k + 1]);
    }
}

/* ---- Patch ------------------------------------------------------------------ */

/* A twisted bilinear patch is the saddle z = x y. */
START_TEST(test_bilinear_patch)
{
    RibDiag d;
    RibScene *s = one_world("Patch \"bilinear\" \"P\" [0 0 0  1 0 0  0 1 0  "
                            "1 1 1]",
                            &d);
    const RibMesh *m = mesh_at(s, 0);
    const double pts[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1};
    Grid g = {pts, 2, 2, false, false, linear, linear, 1, 1, 2};
    assert_on_grid(m, &g, 1e-6);
    for (size_t k = 0; k < m->nverts; k++)
        ck_assert_near(m->P[3 * k + 2], m->P[3 * k] * m->P[3 * k + 1], 1e-6);
    double r[4];
    uv_range(m, r);
    ck_assert(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 1);
    /* the saddle bends: more than one quad */
    ck_assert_uint_gt(m->ntris, 2);
    /* RenderMan normal dPdu x dPdv = (-v, -u, 1): up */
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3];
        tri_normal(m, t, n);
        ck_assert(n[2] > 0);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A bicubic patch with each named basis (and Bezier's matrix written
   out), against the basis polynomials. */
START_TEST(test_bicubic_patch_bases)
{
    static const struct {
        const char *basis;
        Weights w;
    } cases[] = {
        {"\"bezier\" 3 \"bezier\" 3", bezier},
        {"\"b-spline\" 1 \"b-spline\" 1", bspline},
        {"\"bspline\" 1 \"bspline\" 1", bspline},
        {"\"catmull-rom\" 1 \"catmull-rom\" 1", catmull_rom},
        {"\"hermite\" 2 \"hermite\" 2", hermite},
        {"\"power\" 4 \"power\" 4", power},
        {"[-1 3 -3 1  3 -6 3 0  -3 3 0 0  1 0 0 0] 3 "
         "[-1 3 -3 1  3 -6 3 0  -3 3 0 0  1 0 0 0] 3", bezier},
    };
    double pts[48];
    char list[2048], body[4096];
    wavy(pts, 4, 4);
    points_text(pts, 16, list);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        snprintf(body, sizeof body, "Basis %s\nPatch \"bicubic\" \"P\" [%s]",
                 cases[c].basis, list);
        RibDiag d;
        RibScene *s = one_world(body, &d);
        Grid g = {pts, 4, 4, false, false, cases[c].w, cases[c].w, 4, 4, 4};
        assert_on_grid(mesh_at(s, 0), &g, 1e-5);
        rib_scene_free(s);
        rib_diag_free(&d);
    }
}
END_TEST

/* Different bases in u and v. */
START_TEST(test_mixed_basis)
{
    double pts[48];
    char list[2048], body[4096];
    wavy(pts, 4, 4);
    snprintf(body, sizeof body, "Basis \"catmull-rom\" 1 \"bezier\" 3\n"
             "Patch \"bicubic\" \"P\" [%s]", points_text(pts, 16, list));
    RibDiag d;
    RibScene *s = one_world(body, &d);
    Grid g = {pts, 4, 4, false, false, catmull_rom, bezier, 1, 3, 4};
    assert_on_grid(mesh_at(s, 0), &g, 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- PatchMesh --------------------------------------------------------------- */

/* Nonperiodic meshes: patch counts (n - 4) / step + 1 per basis, and the
   mesh's (u, v) spread over all patches. */
START_TEST(test_patch_mesh_nonperiodic)
{
    static const struct {
        const char *basis;
        Weights w;
        int step, nu, nv;
    } cases[] = {
        {"\"bezier\" 3 \"bezier\" 3", bezier, 3, 7, 4},
        {"\"b-spline\" 1 \"b-spline\" 1", bspline, 1, 6, 5},
        {"\"catmull-rom\" 1 \"catmull-rom\" 1", catmull_rom, 1, 5, 6},
        {"\"hermite\" 2 \"hermite\" 2", hermite, 2, 6, 4},
        {"\"power\" 4 \"power\" 4", power, 4, 8, 4},
    };
    static double pts[3 * 64];
    static char list[8192], body[9000];
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int nu = cases[c].nu, nv = cases[c].nv;
        wavy(pts, nu, nv);
        snprintf(body, sizeof body,
                 "Basis %s\nPatchMesh \"bicubic\" %d \"nonperiodic\" %d "
                 "\"nonperiodic\" \"P\" [%s]",
                 cases[c].basis, nu, nv, points_text(pts, nu * nv, list));
        RibDiag d;
        RibScene *s = one_world(body, &d);
        Grid g = {pts, nu, nv, false, false, cases[c].w, cases[c].w,
                  cases[c].step, cases[c].step, 4};
        const RibMesh *m = mesh_at(s, 0);
        assert_on_grid(m, &g, 1e-5);
        double r[4];
        uv_range(m, r);
        ck_assert(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 1);
        rib_scene_free(s);
        rib_diag_free(&d);
    }
}
END_TEST

/* A periodic B-spline tube: 6 points round, wrapping in u, gives 6
   patches that close up; a periodic Catmull-Rom ring wraps in v. */
START_TEST(test_patch_mesh_periodic)
{
    static double pts[3 * 6 * 4];
    static char list[4096], body[5000];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 6; i++) {
            double *p = pts + 3 * (j * 6 + i), a = i * M_PI / 3;
            p[0] = cos(a), p[1] = sin(a), p[2] = j;
        }
    snprintf(body, sizeof body,
             "Basis \"b-spline\" 1 \"b-spline\" 1\n"
             "PatchMesh \"bicubic\" 6 \"periodic\" 4 \"nonperiodic\" "
             "\"P\" [%s]", points_text(pts, 24, list));
    RibDiag d;
    RibScene *s = one_world(body, &d);
    const RibMesh *m = mesh_at(s, 0);
    Grid g = {pts, 6, 4, true, false, bspline, bspline, 1, 1, 4};
    assert_on_grid(m, &g, 1e-5);
    /* closed: the points at u = 0 and u = 1 coincide */
    for (size_t k = 0; k < m->nverts; k++) {
        if (m->uv[2 * k] != 0)
            continue;
        double a[3], b[3];
        grid_point(&g, 1.0, m->uv[2 * k + 1], b);
        vertex(m, k, a);
        for (int i = 0; i < 3; i++)
            ck_assert_near(a[i], b[i], 1e-5);
    }
    rib_scene_free(s);
    rib_diag_free(&d);

    /* the same points, wrapping in v instead (rows as the ring) */
    static double rows[3 * 4 * 6];
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 4; i++) {
            double *p = rows + 3 * (j * 4 + i), a = j * M_PI / 3;
            p[0] = cos(a) * (1 + 0.25 * i), p[1] = sin(a) * (1 + 0.25 * i);
            p[2] = i * i * 0.1;
        }
    snprintf(body, sizeof body,
             "Basis \"bezier\" 3 \"catmull-rom\" 1\n"
             "PatchMesh \"bicubic\" 4 \"nonperiodic\" 6 \"periodic\" "
             "\"P\" [%s]", points_text(rows, 24, list));
    s = one_world(body, &d);
    Grid h = {rows, 4, 6, false, true, bezier, catmull_rom, 3, 1, 4};
    assert_on_grid(mesh_at(s, 0), &h, 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Bilinear meshes: n - 1 patches, or n when periodic. */
START_TEST(test_patch_mesh_bilinear)
{
    static double pts[3 * 12];
    static char list[4096], body[5000];
    wavy(pts, 4, 3);
    snprintf(body, sizeof body,
             "PatchMesh \"bilinear\" 4 \"periodic\" 3 \"nonperiodic\" "
             "\"P\" [%s]", points_text(pts, 12, list));
    RibDiag d;
    RibScene *s = one_world(body, &d);
    Grid g = {pts, 4, 3, true, false, linear, linear, 1, 1, 2};
    assert_on_grid(mesh_at(s, 0), &g, 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* The older spellings "wrap" and "nowrap" (RISpec 3.0, BMRT's scenes)
   mean periodic and nonperiodic: the same grid as above. */
START_TEST(test_patch_mesh_wrap_nowrap)
{
    static double pts[3 * 12];
    static char list[4096], body[5000];
    wavy(pts, 4, 3);
    snprintf(body, sizeof body,
             "PatchMesh \"bilinear\" 4 \"wrap\" 3 \"nowrap\" "
             "\"P\" [%s]", points_text(pts, 12, list));
    RibDiag d;
    RibScene *s = one_world(body, &d);
    ck_assert_int_eq(d.nmessages, 0);
    Grid g = {pts, 4, 3, true, false, linear, linear, 1, 1, 2};
    assert_on_grid(mesh_at(s, 0), &g, 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* "Pz" height fields: x and y spread evenly over [0, 1]. */
START_TEST(test_patch_height_field)
{
    RibDiag d;
    RibScene *s = one_world("PatchMesh \"bilinear\" 3 \"nonperiodic\" 2 "
                            "\"nonperiodic\" \"Pz\" [0 1 2  3 4 5]",
                            &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_uint_eq(m->ntris, 4);
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        ck_assert_near(p[0], m->uv[2 * k], 1e-6);
        ck_assert_near(p[1], m->uv[2 * k + 1], 1e-6);
        ck_assert_near(p[2], 2 * p[0] + 3 * p[1], 1e-6);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* On a periodic B-spline mesh of 6 x 4 points (6 x 1 patches): varying
   values sit at the 6 x 2 patch corners, the last column wrapping to the
   first; uniform values go one per patch; vertex values follow the
   basis like the points. */
START_TEST(test_patch_mesh_primvars)
{
    static double pts[3 * 24];
    static char list[4096], body[6000];
    wavy(pts, 6, 4);
    char *p = body;
    p += sprintf(p, "Declare \"id\" \"uniform float\"\n"
                    "Declare \"h\" \"vertex float\"\n"
                    "Declare \"c\" \"varying float\"\n"
                    "Basis \"b-spline\" 1 \"b-spline\" 1\n"
                    "PatchMesh \"bicubic\" 6 \"periodic\" 4 \"nonperiodic\" "
                    "\"P\" [%s] \"id\" [0 1 2 3 4 5] \"c\" [",
                 points_text(pts, 24, list));
    for (int i = 0; i < 12; i++)
        p += sprintf(p, "%d ", (i % 6) + 10 * (i / 6));
    p += sprintf(p, "] \"h\" [");
    for (int i = 0; i < 24; i++)
        p += sprintf(p, "%g ", pts[3 * i + 2]);
    sprintf(p, "]");
    RibDiag d;
    RibScene *s = one_world(body, &d);
    const RibMesh *m = mesh_at(s, 0);
    const RibPrimvar *id = rib_mesh_primvar(m, "id"),
                     *h = rib_mesh_primvar(m, "h"),
                     *c = rib_mesh_primvar(m, "c");
    Grid g = {pts, 6, 4, true, false, bspline, bspline, 1, 1, 4};
    for (size_t k = 0; k < m->nverts; k++) {
        double U = m->uv[2 * k], V = m->uv[2 * k + 1], a, want[3];
        int pu = locate(U, 6, &a);
        /* c at corner (i, j) is i + 10 j, column 6 being column 0 */
        double lo = pu, hi = (pu + 1) % 6;
        ck_assert_near(c->p.f[k], (1 - a) * lo + a * hi + 10 * V, 1e-4);
        grid_point(&g, U, V, want);
        ck_assert_near(h->p.f[k], want[2], 1e-5);
    }
    for (size_t t = 0; t < m->ntris; t++) {
        double U = 0, a;
        for (int k = 0; k < 3; k++)
            U += m->uv[2 * m->tris[3 * t + k]] / 3;
        ck_assert_near(id->p.f[t], locate(U, 6, &a), 0);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- NuPatch ------------------------------------------------------------------ */

/* B-spline basis function i of order k at t by the Cox-de Boor recursion
   (0/0 taken as 0); the last knot's value counts as inside. */
static double cox_de_boor(const double *knot, int nknots, int i, int k,
                          double t)
{
    if (k == 1) {
        if (knot[i] <= t && t < knot[i + 1])
            return 1;
        /* t at the end of the range belongs to the last nonempty span */
        if (t == knot[nknots - 1] && knot[i] < t && t == knot[i + 1]) {
            for (int j = i + 1; j < nknots - 1; j++)
                if (knot[j + 1] > knot[j])
                    return 0;
            return 1;
        }
        return 0;
    }
    double s = 0, den;
    if ((den = knot[i + k - 1] - knot[i]) > 0)
        s += (t - knot[i]) / den * cox_de_boor(knot, nknots, i, k - 1, t);
    if ((den = knot[i + k] - knot[i + 1]) > 0)
        s += (knot[i + k] - t) / den *
             cox_de_boor(knot, nknots, i + 1, k - 1, t);
    return s;
}

typedef struct Nurbs {
    int nu, uorder, nv, vorder;
    const double *uknot, *vknot;
    const double *pw;    /* 4 per point: x w, y w, z w, w */
} Nurbs;

static void nurbs_point(const Nurbs *n, double u, double v, double out[3])
{
    double h[4] = {0, 0, 0, 0};
    for (int j = 0; j < n->nv; j++) {
        double bv = cox_de_boor(n->vknot, n->nv + n->vorder, j, n->vorder, v);
        for (int i = 0; i < n->nu; i++) {
            double bu = cox_de_boor(n->uknot, n->nu + n->uorder, i,
                                    n->uorder, u);
            for (int k = 0; k < 4; k++)
                h[k] += bu * bv * n->pw[4 * (j * n->nu + i) + k];
        }
    }
    for (int k = 0; k < 3; k++)
        out[k] = h[k] / h[3];
}

static void assert_on_nurbs(const RibMesh *m, const Nurbs *n, double tol)
{
    ck_assert_uint_gt(m->ntris, 0);
    for (size_t k = 0; k < m->nverts; k++) {
        double want[3], p[3];
        nurbs_point(n, m->uv[2 * k], m->uv[2 * k + 1], want);
        vertex(m, k, p);
        for (int i = 0; i < 3; i++)
            ck_assert_msg(fabs(p[i] - want[i]) <= tol,
                          "NuPatch vertex %zu at (%g, %g): %g, expected %g",
                          k, m->uv[2 * k], m->uv[2 * k + 1], p[i], want[i]);
    }
}

/* Order 4 with Bezier knots is the Bezier patch; order 2 is bilinear. */
START_TEST(test_nupatch_bezier_and_bilinear)
{
    double pts[48];
    char list[2048], body[4096];
    wavy(pts, 4, 4);
    snprintf(body, sizeof body,
             "NuPatch 4 4 [0 0 0 0 1 1 1 1] 0 1 4 4 [0 0 0 0 1 1 1 1] 0 1 "
             "\"P\" [%s]\n"
             "NuPatch 2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 "
             "\"P\" [0 0 0  1 0 0  0 1 0  1 1 1]",
             points_text(pts, 16, list));
    RibDiag d;
    RibScene *s = one_world(body, &d);
    Grid g = {pts, 4, 4, false, false, bezier, bezier, 3, 3, 4};
    assert_on_grid(mesh_at(s, 0), &g, 1e-5);
    const RibMesh *m = mesh_at(s, 1);
    for (size_t k = 0; k < m->nverts; k++)
        ck_assert_near(m->P[3 * k + 2], m->P[3 * k] * m->P[3 * k + 1], 1e-6);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A rational quadratic quarter circle swept linearly up z: every point is
   on the unit cylinder, which no polynomial patch could give. */
START_TEST(test_nupatch_rational_circle)
{
    const double w = sqrt(0.5);
    char body[2048];
    snprintf(body, sizeof body,
             "NuPatch 3 3 [0 0 0 1 1 1] 0 1 2 2 [0 0 1 1] 0 1 \"Pw\" ["
             "1 0 0 1  %.17g %.17g 0 %.17g  0 1 0 1 "
             "1 0 1 1  %.17g %.17g %.17g %.17g  0 1 1 1]",
             w, w, w, w, w, w, w);
    RibDiag d;
    RibScene *s = one_world(body, &d);
    const RibMesh *m = mesh_at(s, 0);
    const double pw[] = {1, 0, 0, 1, w, w, 0, w, 0, 1, 0, 1,
                         1, 0, 1, 1, w, w, w, w, 0, 1, 1, 1};
    const double k3[] = {0, 0, 0, 1, 1, 1}, k2[] = {0, 0, 1, 1};
    Nurbs n = {3, 3, 2, 2, k3, k2, pw};
    assert_on_nurbs(m, &n, 1e-5);
    for (size_t k = 0; k < m->nverts; k++)
        ck_assert_near(hypot(m->P[3 * k], m->P[3 * k + 1]), 1, 1e-6);
    /* the arc turns 90 degrees: many facets at 2.5 degrees */
    ck_assert_uint_ge(m->ntris, 2 * 36);
    ck_assert_near(mesh_area(m), M_PI / 2, 2e-3);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Several spans with inner knots, and a parameter range narrower than
   the knots': (u, v) are the knot parameters, inside [min, max]. */
START_TEST(test_nupatch_spans_and_range)
{
    static double pts[3 * 20];
    static char list[4096], body[6000];
    wavy(pts, 5, 4);
    snprintf(body, sizeof body,
             "NuPatch 5 3 [0 0 0 1 2 3 3 3] 0.5 2.5 "
             "4 4 [0 1 2 3 4 5 6 7] 3 4 \"P\" [%s]",
             points_text(pts, 20, list));
    RibDiag d;
    RibScene *s = one_world(body, &d);
    const RibMesh *m = mesh_at(s, 0);
    double pw[4 * 20];
    for (int i = 0; i < 20; i++) {
        memcpy(pw + 4 * i, pts + 3 * i, 3 * sizeof *pw);
        pw[4 * i + 3] = 1;
    }
    const double ku[] = {0, 0, 0, 1, 2, 3, 3, 3};
    const double kv[] = {0, 1, 2, 3, 4, 5, 6, 7};
    Nurbs n = {5, 3, 4, 4, ku, kv, pw};
    assert_on_nurbs(m, &n, 1e-5);
    double r[4];
    uv_range(m, r);
    ck_assert_near(r[0], 0.5, 1e-6);
    ck_assert_near(r[1], 2.5, 1e-6);
    ck_assert_near(r[2], 3, 1e-6);
    ck_assert_near(r[3], 4, 1e-6);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Uniform values per span pair; varying values at span corners. */
START_TEST(test_nupatch_primvars)
{
    RibDiag d;
    RibScene *s = one_world(
        "Declare \"id\" \"uniform float\"\n"
        "NuPatch 3 2 [0 0 1 2 2] 0 2 2 2 [0 0 1 1] 0 1"
        " \"P\" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0]"
        " \"id\" [7 8] \"Cs\" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0]",
        &d);
    const RibMesh *m = mesh_at(s, 0);
    const RibPrimvar *id = rib_mesh_primvar(m, "id"),
                     *cs = rib_mesh_primvar(m, "Cs");
    for (size_t k = 0; k < m->nverts; k++) {
        /* the varying corners were given equal to the (u, v) there */
        ck_assert_near(cs->p.f[3 * k], m->uv[2 * k], 1e-6);
        ck_assert_near(cs->p.f[3 * k + 1], m->uv[2 * k + 1], 1e-6);
    }
    for (size_t t = 0; t < m->ntris; t++) {
        double U = 0;
        for (int k = 0; k < 3; k++)
            U += m->uv[2 * m->tris[3 * t + k]] / 3;
        ck_assert_near(id->p.f[t], U < 1 ? 7 : 8, 0);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A bilinear NuPatch over a planar parallelogram is that piece of the
   plane, exactly: P = (2u, 3v, u), two triangles, one normal. */
START_TEST(test_nupatch_bilinear_plane)
{
    RibDiag d;
    RibScene *s = one_world("NuPatch 2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 "
                            "\"P\" [0 0 0  2 0 1  0 3 0  2 3 1]",
                            &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_uint_eq(m->ntris, 2);
    for (size_t k = 0; k < m->nverts; k++) {
        double u = m->uv[2 * k], v = m->uv[2 * k + 1];
        ck_assert_near(m->P[3 * k], 2 * u, 1e-7);
        ck_assert_near(m->P[3 * k + 1], 3 * v, 1e-7);
        ck_assert_near(m->P[3 * k + 2], u, 1e-7);
        /* dPdu x dPdv = (2,0,1) x (0,3,0) = (-3, 0, 6), normalised */
        ck_assert_near(m->Ng[3 * k], -3 / sqrt(45), 1e-6);
        ck_assert_near(m->Ng[3 * k + 1], 0, 1e-6);
        ck_assert_near(m->Ng[3 * k + 2], 6 / sqrt(45), 1e-6);
    }
    ck_assert_near(mesh_area(m), sqrt(45), 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* The nine-point rational circle (order 3, double inner knots, corner
   weights sqrt(1/2)) of radius 2, swept up z: every vertex lies on the
   circle, and the area is the cylinder's within the chords' error. */
START_TEST(test_nupatch_full_circle)
{
    const double w = sqrt(0.5), R = 2;
    const double cx[9] = {1, 1, 0, -1, -1, -1, 0, 1, 1};
    const double cy[9] = {0, 1, 1, 1, 0, -1, -1, -1, 0};
    double pw[4 * 18];
    char list[2048], body[3072];
    size_t len = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 9; i++) {
            double wi = i % 2 ? w : 1, *q = pw + 4 * (9 * j + i);
            q[0] = R * cx[i] * wi, q[1] = R * cy[i] * wi, q[2] = j * wi;
            q[3] = wi;
            len += (size_t)snprintf(list + len, sizeof list - len,
                                    "%.17g %.17g %.17g %.17g  ", q[0], q[1],
                                    q[2], q[3]);
        }
    snprintf(body, sizeof body,
             "NuPatch 9 3 [0 0 0 0.25 0.25 0.5 0.5 0.75 0.75 1 1 1] 0 1 "
             "2 2 [0 0 1 1] 0 1 \"Pw\" [%s]",
             list);
    RibDiag d;
    RibScene *s = one_world(body, &d);
    const RibMesh *m = mesh_at(s, 0);
    for (size_t k = 0; k < m->nverts; k++)
        ck_assert_near(hypot(m->P[3 * k], m->P[3 * k + 1]), R, 2e-6);
    const double uk[] = {0, 0, 0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1};
    const double vk[] = {0, 0, 1, 1};
    Nurbs n = {9, 3, 2, 2, uk, vk, pw};
    assert_on_nurbs(m, &n, 1e-5);
    /* each quarter turns 90 degrees: at 2.5 degrees, 36 segments */
    ck_assert_uint_ge(m->ntris, 2 * 4 * 36);
    ck_assert_near(mesh_area(m), 2 * M_PI * R, 2 * M_PI * R * 2e-4);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Knot vectors and weights are checked; each bad NuPatch is skipped with
   its own message and the good one after them still loads. */
START_TEST(test_nupatch_errors)
{
    const char *quad = "2 2 [0 0 1 1] 0 1 \"P\" [0 0 0 1 0 0 0 1 0 1 1 0]\n";
    const char *heads[] = {
        "NuPatch 2 2 [0 1 0 1] 0 1 ",         /* decreasing */
        "NuPatch 2 2 [0 0 1] 0 1 ",           /* one knot short */
        "NuPatch 2 3 [0 0 0 1 1] 0 1 ",       /* order above the count */
        "NuPatch 2 17 [0 0 1 1] 0 1 ",        /* order above 16 */
        "NuPatch 2 0 [0 0 1 1] 0 1 ",         /* order 0 */
        "NuPatch 2 2 [0 0 0 0] 0 1 ",         /* no span of any width */
        "NuPatch 2 2 [0 0 1 1] 1 0 ",         /* min above max */
        "NuPatch 2 2 [0 0 1 1] 2 3 ",         /* range beyond the knots */
        "NuPatch 2 2 [0 0 1 1] [0 1 2] ",     /* min max min */
    };
    char body[4096] = "";
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
        strcat(body, heads[i]);
        strcat(body, quad);
    }
    strcat(body, "NuPatch 2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 \"Pw\" "
                 "[0 0 0 1 1 0 0 1 0 1 0 0 1 1 0 1]\n");
    strcat(body, "NuPatch 2 2 [0 0 1 1] 0 1 ");
    strcat(body, quad);
    RibDiag d;
    char text[8192];
    snprintf(text, sizeof text, "WorldBegin\n%sWorldEnd\n", body);
    RibScene *s = load_text(text, &d);
    static const char *const want[] = {
        "test.rib:2:13: error: NuPatch: uknot 2 (0) is less than the one "
        "before it",
        "test.rib:3:13: error: NuPatch: 3 knots, expected nu + uorder = 4",
        "test.rib:4:1: error: NuPatch: nu = 2 is less than its order 3",
        "test.rib:5:11: error: NuPatch: expected an integer in [1, 16] for "
        "uorder, got 17",
        "test.rib:6:11: error: NuPatch: expected an integer in [1, 16] for "
        "uorder, got 0",
        "test.rib:7:1: error: NuPatch: umin umax [0, 1] leaves no surface "
        "within the knots' range [0, 0]",
        "test.rib:8:1: error: NuPatch: umin umax [1, 0] leaves no surface "
        "within the knots' range [0, 1]",
        "test.rib:9:1: error: NuPatch: umin umax [2, 3] leaves no surface "
        "within the knots' range [0, 1]",
        "test.rib:10:23: error: NuPatch: expected 2 numbers for umin umax, "
        "got an array of 3",
        "test.rib:11:1: error: NuPatch: \"Pw\" weight 2 is 0; weights must "
        "be positive",
    };
    size_t n = sizeof want / sizeof *want;
    ck_assert_uint_eq(d.nmessages, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(d.messages[i], want[i]);
    ck_assert_uint_eq(only_frame(s)->nmeshes, 1);
    ck_assert_int_eq(mesh_at(s, 0)->loc.line, 12);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Trim curves are checked and remembered, but not applied: NuPatch says
   so, for as long as the attribute block that set them lasts. */
START_TEST(test_trim_curves_warn)
{
    const char *patch = "NuPatch 2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 \"P\" "
                        "[0 0 0 1 0 0 0 1 0 1 1 0]\n";
    char text[4096];
    snprintf(text, sizeof text,
             "WorldBegin\nAttributeBegin\n"
             "TrimCurve [1] [3] [0 0 0 1 1 1] [0] [1] [3] [0.2 0.8 0.2] "
             "[0.2 0.2 0.8] [1 1 1]\n%s"
             "AttributeEnd\n%s"
             "TrimCurve [1] [3] [0 0 0 1 1] [0] [1] [3] [0 1 1] [0 0 1] "
             "[1 1 1]\n"
             "TrimCurve [1] [4] [0 0 0 0 1 1 1] [0] [1] [3] [0 1 1] [0 0 1] "
             "[1 1 1]\n"
             "TrimCurve [1] [3] [0 0 0 1 1 1] [0] [1] [3] [0 1] [0 0 1] "
             "[1 1 1]\n"
             "TrimCurve [1] [3]\n%sWorldEnd\n",
             patch, patch, patch);
    RibDiag d;
    RibScene *s = load_text(text, &d);
    static const char *const want[] = {
        "test.rib:4:1: warning: NuPatch: trim curves are not supported; the "
        "patch is rendered untrimmed",
        "test.rib:7:19: error: TrimCurve: knot has 5 values, expected 6",
        "test.rib:8:43: error: TrimCurve: expected an integer in [4, "
        "16777216] for n[0], got 3",
        "test.rib:9:45: error: TrimCurve: u has 2 values, expected 3",
        "test.rib:10:1: error: TrimCurve: expected an array of numbers for "
        "knot",
    };
    size_t n = sizeof want / sizeof *want;
    ck_assert_uint_eq(d.nmessages, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(d.messages[i], want[i]);
    /* the patches are made untrimmed all the same */
    ck_assert_uint_eq(only_frame(s)->nmeshes, 3);
    ck_assert_near(mesh_area(mesh_at(s, 0)), 1, 1e-6);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *patch_suite(void)
{
    Suite *s = suite_create("patch");
    TCase *tc = tcase_create("patch");
    tcase_add_test(tc, test_bilinear_patch);
    tcase_add_test(tc, test_bicubic_patch_bases);
    tcase_add_test(tc, test_mixed_basis);
    tcase_add_test(tc, test_patch_mesh_nonperiodic);
    tcase_add_test(tc, test_patch_mesh_periodic);
    tcase_add_test(tc, test_patch_mesh_bilinear);
    tcase_add_test(tc, test_patch_mesh_wrap_nowrap);
    tcase_add_test(tc, test_patch_height_field);
    tcase_add_test(tc, test_patch_mesh_primvars);
    tcase_add_test(tc, test_nupatch_bezier_and_bilinear);
    tcase_add_test(tc, test_nupatch_rational_circle);
    tcase_add_test(tc, test_nupatch_spans_and_range);
    tcase_add_test(tc, test_nupatch_primvars);
    tcase_add_test(tc, test_nupatch_bilinear_plane);
    tcase_add_test(tc, test_nupatch_full_circle);
    tcase_add_test(tc, test_nupatch_errors);
    tcase_add_test(tc, test_trim_curves_warn);
    suite_add_tcase(s, tc);
    return s;
}
