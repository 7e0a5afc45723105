/*
** check_quadric.c: the seven quadrics against RISpec 3.2's equations.
** Every tessellated vertex must lie on the analytic surface (float
** rounding: 1e-5 of the size), inside the sweep angle and the z or phi
** range, with both ends reached; facets stay within the chord tolerance
** that the 2.5 degree facet angle allows; areas match the closed forms;
** normals point out (or in) as Orientation says; varying values are
** bilinear in (u, v). Expected values come from the formulas here, not
** from the reader.
*/
#include <stdio.h>
#include <string.h>

#include "tests/rib/check_rib.h"

#define DEG (M_PI / 180.0)
/* Vertices are computed on the surface and stored as floats. */
#define ON_SURFACE 1e-5
/* A facet spanning at most 2.5 degrees of a circle of radius r lies
   within r (1 - cos 2.5deg) of it. */
#define CHORD (1.0 - cos(2.5 * DEG))

/* The distance-like residual of a point from a surface (0 on it), and the
   surface's outward direction there. */
typedef struct Shape {
    double (*residual)(const struct Shape *sh, const double p[3]);
    void (*outward)(const struct Shape *sh, const double p[3], double n[3]);
    double a, b, c, d;  /* the shape's own numbers */
} Shape;

static RibScene *one_world(const char *body, RibDiag *d)
{
    char text[2048];
    snprintf(text, sizeof text, "WorldBegin\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    ck_assert_msg(s && d->nerrors == 0, "%s",
                  d->nmessages ? d->messages[0] : "load failed");
    return s;
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double radial(const double p[3])
{
    return hypot(p[0], p[1]);
}

/* The sweep angle of p about +z, in [0, 2pi). */
static double theta_of(const double p[3])
{
    double t = atan2(p[1], p[0]);
    return t < -1e-6 ? t + 2 * M_PI : t < 0 ? 0 : t;
}

static void assert_on_surface(const RibMesh *m, const Shape *sh, double tol)
{
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        double r = sh->residual(sh, p);
        ck_assert_msg(fabs(r) <= tol, "%s vertex %zu (%g %g %g) is %g off",
                      m->prim, k, p[0], p[1], p[2], r);
    }
}

/* Each triangle's centroid lies within tol of the surface. */
static void assert_facets_close(const RibMesh *m, const Shape *sh, double tol)
{
    for (size_t t = 0; t < m->ntris; t++) {
        double c[3] = {0, 0, 0}, p[3];
        for (int k = 0; k < 3; k++) {
            vertex(m, m->tris[3 * t + k], p);
            for (int i = 0; i < 3; i++)
                c[i] += p[i] / 3;
        }
        double r = sh->residual(sh, c);
        ck_assert_msg(fabs(r) <= tol, "%s facet %zu is %g off (tolerance %g)",
                      m->prim, t, r, tol);
    }
}

/* Every vertex's sweep angle is in [0, thetamax], and both ends occur. */
static void assert_sweep(const RibMesh *m, double thetamax_deg)
{
    double lo = INFINITY, hi = -INFINITY, tmax = thetamax_deg * DEG;
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        if (radial(p) < 1e-6)
            continue;  /* on the axis: no angle */
        double t = theta_of(p);
        ck_assert_msg(t <= tmax + 1e-5, "%s vertex %zu at %g deg is past "
                      "thetamax %g", m->prim, k, t / DEG, thetamax_deg);
        lo = fmin(lo, t);
        hi = fmax(hi, t);
    }
    ck_assert_near(lo, 0, 1e-5);
    /* a full sweep ends where it began: the last angle seen is one
       segment short of it */
    ck_assert_near(hi, tmax, thetamax_deg < 360 ? 1e-5 : 2.5 * DEG + 1e-5);
}

/* Every vertex's z is in [zmin, zmax], and both ends occur. */
static void assert_z_range(const RibMesh *m, double zmin, double zmax)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < m->nverts; k++) {
        double z = m->P[3 * k + 2];
        ck_assert_msg(z >= zmin - 1e-5 && z <= zmax + 1e-5,
                      "%s vertex %zu has z %g outside [%g, %g]", m->prim, k,
                      z, zmin, zmax);
        lo = fmin(lo, z);
        hi = fmax(hi, z);
    }
    ck_assert_near(lo, zmin, 1e-5);
    ck_assert_near(hi, zmax, 1e-5);
}

/* The RenderMan normal of each triangle, flipped as rib_normals_flipped()
   says for its orientation and transform, points outward (want > 0) or
   inward (want < 0); the per-vertex Ng agree with their triangles. */
static void assert_normals(const RibFrame *f, const RibMesh *m,
                           const Shape *sh, int want)
{
    RibMatrix to_camera = rib_matrix_mul(&m->object_to_world,
                                         &f->world_to_camera);
    /* The renderer negates the camera-space normal when flip says; under
       a mirroring transform (of these tests' kind: rotations, mirrors and
       positive scales) that normal is the opposite of the object-space
       one carried over, so the object-space check takes both signs. */
    int flip = rib_normals_flipped(m->attrs->orientation, &to_camera);
    int mirror = rib_normals_flipped(RIB_ORIENT_LH, &to_camera);
    ck_assert_uint_gt(m->ntris, 0);
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3], c[3] = {0, 0, 0}, p[3], out[3];
        tri_normal(m, t, n);
        for (int k = 0; k < 3; k++) {
            size_t v = m->tris[3 * t + k];
            vertex(m, v, p);
            for (int i = 0; i < 3; i++)
                c[i] += p[i] / 3;
            const double ng[3] = {m->Ng[3 * v], m->Ng[3 * v + 1],
                                  m->Ng[3 * v + 2]};
            ck_assert_msg(dot3(ng, n) > 0, "%s: Ng of vertex %zu is against "
                          "triangle %zu", m->prim, v, t);
        }
        sh->outward(sh, c, out);
        double s = dot3(n, out) * (flip ? -1 : 1) * (mirror ? -1 : 1);
        ck_assert_msg(s * want > 0, "%s triangle %zu points %s", m->prim, t,
                      want > 0 ? "inward" : "outward");
    }
}

/* ---- the surfaces, from RISpec 3.2's definitions ------------------------ */

/* Sphere radius a. */
static double sphere_res(const Shape *sh, const double p[3])
{
    return sqrt(dot3(p, p)) - sh->a;
}

static void sphere_out(const Shape *sh, const double p[3], double n[3])
{
    memcpy(n, p, 3 * sizeof *n);
}

/* Cylinder radius a. */
static double cylinder_res(const Shape *sh, const double p[3])
{
    return radial(p) - sh->a;
}

static void radial_out(const Shape *sh, const double p[3], double n[3])
{
    n[0] = p[0], n[1] = p[1], n[2] = 0;
}

/* Cone height a, radius b: r = b (1 - z/a); outward (a cos, a sin, b). */
static double cone_res(const Shape *sh, const double p[3])
{
    return radial(p) - sh->b * (1 - p[2] / sh->a);
}

static void cone_out(const Shape *sh, const double p[3], double n[3])
{
    double r = radial(p);
    n[0] = sh->a * p[0] / r, n[1] = sh->a * p[1] / r, n[2] = sh->b;
}

/* Disk at height a, radius b: the plane, and inside the radius. */
static double disk_res(const Shape *sh, const double p[3])
{
    double out = radial(p) - sh->b;
    return fabs(p[2] - sh->a) + (out > 0 ? out : 0);
}

static void up(const Shape *sh, const double p[3], double n[3])
{
    n[0] = n[1] = 0, n[2] = 1;
}

/* Paraboloid rmax a, zmax b: r^2 = a^2 z / b; outward is the gradient
   of (b/a^2) r^2 - z. */
static double paraboloid_res(const Shape *sh, const double p[3])
{
    return radial(p) - sh->a * sqrt(p[2] / sh->b);
}

static void paraboloid_out(const Shape *sh, const double p[3], double n[3])
{
    double k = sh->b / (sh->a * sh->a);
    n[0] = 2 * k * p[0], n[1] = 2 * k * p[1], n[2] = -1;
}

/* Hyperboloid through (1,0,-1) and (0,1,1): the line at v = (z+1)/2 is
   ((1-v), v), so r^2 = (1-v)^2 + v^2; outward is the gradient of
   r^2 - g(z), g'(z) = 2v - 1. */
static double hyperboloid_res(const Shape *sh, const double p[3])
{
    double v = (p[2] + 1) / 2;
    return radial(p) - sqrt((1 - v) * (1 - v) + v * v);
}

static void hyperboloid_out(const Shape *sh, const double p[3], double n[3])
{
    double v = (p[2] + 1) / 2;
    n[0] = 2 * p[0], n[1] = 2 * p[1], n[2] = -(2 * v - 1);
}

/* Torus major a, minor b: the distance from the tube's centre circle. */
static double torus_res(const Shape *sh, const double p[3])
{
    return hypot(radial(p) - sh->a, p[2]) - sh->b;
}

static void torus_out(const Shape *sh, const double p[3], double n[3])
{
    double r = radial(p);
    n[0] = p[0] - sh->a * p[0] / r;
    n[1] = p[1] - sh->a * p[1] / r;
    n[2] = p[2];
}

/* ---- tests ---------------------------------------------------------------- */

START_TEST(test_sphere)
{
    RibDiag d;
    RibScene *s = one_world("Sphere 2 -1 1.5 270", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {sphere_res, sphere_out, 2, 0, 0, 0};
    ck_assert_str_eq(m->prim, "Sphere");
    assert_on_surface(m, &sh, 2 * ON_SURFACE);
    assert_facets_close(m, &sh, 2 * CHORD);
    assert_sweep(m, 270);
    assert_z_range(m, -1, 1.5);
    assert_normals(only_frame(s), m, &sh, +1);
    /* a zone of a sphere: 2 pi r (zmax - zmin), times 270/360 */
    ck_assert_near(mesh_area(m), 2 * M_PI * 2 * 2.5 * 0.75,
                   2e-3 * 7.5 * M_PI);
    /* Ng are the unit outward normals P / r */
    for (size_t k = 0; k < m->nverts; k++)
        for (int i = 0; i < 3; i++)
            ck_assert_near(m->Ng[3 * k + i], m->P[3 * k + i] / 2, 1e-3);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* z beyond the radius clamps to the poles: a whole sphere. */
START_TEST(test_sphere_clamped_z)
{
    RibDiag d;
    RibScene *s = one_world("Sphere 1 -5 5 360", &d);
    const RibMesh *m = mesh_at(s, 0);
    assert_z_range(m, -1, 1);
    ck_assert_near(mesh_area(m), 4 * M_PI, 2e-3 * 4 * M_PI);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_cylinder)
{
    RibDiag d;
    RibScene *s = one_world("Cylinder 1.5 -1 2 180", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {cylinder_res, radial_out, 1.5, 0, 0, 0};
    assert_on_surface(m, &sh, 1.5 * ON_SURFACE);
    assert_facets_close(m, &sh, 1.5 * CHORD);
    assert_sweep(m, 180);
    assert_z_range(m, -1, 2);
    assert_normals(only_frame(s), m, &sh, +1);
    ck_assert_near(mesh_area(m), M_PI * 1.5 * 3, 1e-3 * 4.5 * M_PI);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_cone)
{
    RibDiag d;
    RibScene *s = one_world("Cone 2 1 360", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {cone_res, cone_out, 2, 1, 0, 0};
    assert_on_surface(m, &sh, 2 * ON_SURFACE);
    assert_facets_close(m, &sh, CHORD);
    assert_sweep(m, 360);
    assert_z_range(m, 0, 2);
    assert_normals(only_frame(s), m, &sh, +1);
    /* lateral area pi r slant */
    ck_assert_near(mesh_area(m), M_PI * sqrt(5.0), 1e-3 * M_PI * sqrt(5.0));
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_disk)
{
    RibDiag d;
    RibScene *s = one_world("Disk 0.5 3 120", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {disk_res, up, 0.5, 3, 0, 0};
    assert_on_surface(m, &sh, 3 * ON_SURFACE);
    assert_sweep(m, 120);
    assert_z_range(m, 0.5, 0.5);
    assert_normals(only_frame(s), m, &sh, +1);
    /* a sector: (theta / 2) r^2 */
    ck_assert_near(mesh_area(m), 3 * M_PI, 1e-3 * 3 * M_PI);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_paraboloid)
{
    RibDiag d;
    RibScene *s = one_world("Paraboloid 1 0.5 2 90", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {paraboloid_res, paraboloid_out, 1, 2, 0, 0};
    assert_on_surface(m, &sh, ON_SURFACE);
    assert_facets_close(m, &sh, CHORD);
    assert_sweep(m, 90);
    assert_z_range(m, 0.5, 2);
    assert_normals(only_frame(s), m, &sh, +1);
    /* z = k r^2 with k = 2, r from 0.5 to 1: theta/(12 k^2)
       [(1 + 4 k^2 r^2)^(3/2)] */
    double k = 2, want = (M_PI / 2) / (12 * k * k) *
                         (pow(1 + 4 * k * k * 1.0, 1.5) -
                          pow(1 + 4 * k * k * 0.25, 1.5));
    ck_assert_near(mesh_area(m), want, 1e-3 * want);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_hyperboloid)
{
    RibDiag d;
    RibScene *s = one_world("Hyperboloid 1 0 -1 0 1 1 360", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {hyperboloid_res, hyperboloid_out, 0, 0, 0, 0};
    assert_on_surface(m, &sh, ON_SURFACE);
    assert_facets_close(m, &sh, CHORD);
    assert_z_range(m, -1, 1);
    assert_normals(only_frame(s), m, &sh, +1);
    /* the ends are circles through the two points: radius 1 at z = -1 and
       z = 1, the waist sqrt(1/2) at z = 0 */
    double waist = INFINITY;
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        if (fabs(p[2]) > 1 - 1e-6)
            ck_assert_near(radial(p), 1, 1e-5);
        waist = fmin(waist, radial(p));
    }
    ck_assert_near(waist, sqrt(0.5), 1e-3);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_torus)
{
    RibDiag d;
    RibScene *s = one_world("Torus 2 0.5 0 270 180", &d);
    const RibMesh *m = mesh_at(s, 0);
    const Shape sh = {torus_res, torus_out, 2, 0.5, 0, 0};
    assert_on_surface(m, &sh, 2.5 * ON_SURFACE);
    assert_facets_close(m, &sh, 2.5 * CHORD);
    assert_sweep(m, 180);
    assert_normals(only_frame(s), m, &sh, +1);
    /* phi in [0, 270] degrees round the tube, both ends reached */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        double phi = atan2(p[2], radial(p) - 2);
        if (phi < -1e-6)
            phi += 2 * M_PI;
        ck_assert_msg(phi <= 1.5 * M_PI + 1e-4, "phi %g past 270", phi / DEG);
        lo = fmin(lo, phi);
        hi = fmax(hi, phi);
    }
    ck_assert_near(lo, 0, 1e-4);
    ck_assert_near(hi, 1.5 * M_PI, 1e-4);
    /* theta r [R dphi + r (sin phimax - sin phimin)] */
    double want = M_PI * 0.5 * (2 * 1.5 * M_PI + 0.5 * (-1.0 - 0.0));
    ck_assert_near(mesh_area(m), want, 2e-3 * want);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Orientation "inside" and ReverseOrientation turn normals in; a
   mirroring transform leaves them out, as the current orientation flips
   with the coordinate system (RISpec 3.2, RiOrientation), and so does
   Orientation "outside" after it. */
START_TEST(test_orientation)
{
    RibDiag d;
    RibScene *s = one_world("Orientation \"inside\"\nSphere 1 -1 1 360\n"
                            "Orientation \"outside\"\nCylinder 1 0 1 360\n"
                            "ReverseOrientation\nTorus 1 0.25 0 360 360\n"
                            "Orientation \"lh\"\nScale 1 -1 1\n"
                            "Cone 1 1 360\nOrientation \"outside\"\n"
                            "Paraboloid 1 0 1 360",
                            &d);
    const RibFrame *f = only_frame(s);
    const Shape sphere = {sphere_res, sphere_out, 1, 0, 0, 0};
    const Shape cyl = {cylinder_res, radial_out, 1, 0, 0, 0};
    const Shape torus = {torus_res, torus_out, 1, 0.25, 0, 0};
    const Shape cone = {cone_res, cone_out, 1, 1, 0, 0};
    const Shape para = {paraboloid_res, paraboloid_out, 1, 1, 0, 0};
    assert_normals(f, mesh_at(s, 0), &sphere, -1);
    assert_normals(f, mesh_at(s, 1), &cyl, +1);
    assert_normals(f, mesh_at(s, 2), &torus, -1);
    assert_normals(f, mesh_at(s, 3), &cone, +1);
    assert_normals(f, mesh_at(s, 4), &para, +1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Segment counts follow the facet angle: at 30 degrees a full cylinder
   is 12 quads around and one along its straight side; a disk's centre
   row collapses, leaving one triangle per segment; a sphere's profile
   turns 180 degrees in 6 segments, and its pole rows lose one triangle
   per segment each. */
START_TEST(test_segment_counts)
{
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.max_angle_deg = 30;
    RibDiag d;
    RibScene *s = load_text_opt("WorldBegin\nCylinder 1 0 1 360\n"
                                "Disk 0 1 360\nSphere 1 -1 1 360\n"
                                "Cylinder 1 0 1 45\nWorldEnd\n",
                                &opt, &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_uint_eq(mesh_at(s, 0)->ntris, 24);
    ck_assert_uint_eq(mesh_at(s, 1)->ntris, 12);
    ck_assert_uint_eq(mesh_at(s, 2)->ntris, 2 * 12 * 6 - 2 * 12);
    ck_assert_uint_eq(mesh_at(s, 3)->ntris, 4);
    /* the 12-gon cylinder's area: 12 flat quads of width 2 sin 15deg */
    ck_assert_near(mesh_area(mesh_at(s, 0)), 12 * 2 * sin(15 * DEG), 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* (u, v) = (theta / thetamax, profile fraction); varying (and vertex)
   values are bilinear over the four parametric corners, uniform and
   constant ones single. */
START_TEST(test_quadric_primvars)
{
    RibDiag d;
    RibScene *s = one_world(
        "Declare \"k\" \"uniform float\"\nDeclare \"g\" \"constant float\"\n"
        "Declare \"h\" \"vertex float\"\n"
        "Cylinder 1 0 2 90 \"Cs\" [1 0 0  0 1 0  0 0 1  1 1 1]\n"
        "  \"k\" [7] \"g\" [9] \"h\" [0 10 20 30]",
        &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_ptr_nonnull(m->uv);
    const RibPrimvar *cs = rib_mesh_primvar(m, "Cs");
    const RibPrimvar *k = rib_mesh_primvar(m, "k");
    const RibPrimvar *g = rib_mesh_primvar(m, "g");
    const RibPrimvar *h = rib_mesh_primvar(m, "h");
    ck_assert_int_eq(cs->interp, RIB_INTERP_VERTEX);
    ck_assert_int_eq(k->interp, RIB_INTERP_TRIANGLE);
    ck_assert_int_eq(g->interp, RIB_INTERP_CONSTANT);
    ck_assert_int_eq(h->interp, RIB_INTERP_VERTEX);
    ck_assert_uint_eq(k->p.count, m->ntris);
    ck_assert_near(g->p.f[0], 9, 0);
    for (size_t t = 0; t < m->ntris; t++)
        ck_assert_near(k->p.f[t], 7, 0);
    const double c[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    for (size_t v = 0; v < m->nverts; v++) {
        double p[3];
        vertex(m, v, p);
        double u = m->uv[2 * v], w = m->uv[2 * v + 1];
        ck_assert_near(u, theta_of(p) / (M_PI / 2), 1e-5);
        ck_assert_near(w, p[2] / 2, 1e-5);
        const double b[4] = {(1 - u) * (1 - w), u * (1 - w), (1 - u) * w,
                             u * w};
        for (int i = 0; i < 3; i++)
            ck_assert_near(cs->p.f[3 * v + i],
                           b[0] * c[0][i] + b[1] * c[1][i] +
                               b[2] * c[2][i] + b[3] * c[3][i],
                           1e-5);
        ck_assert_near(h->p.f[v], 10 * b[1] + 20 * b[2] + 30 * b[3], 1e-4);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Degenerate quadrics make no mesh and no error. */
START_TEST(test_degenerate_quadrics)
{
    RibDiag d;
    RibScene *s = load_text("WorldBegin\nSphere 1 -1 1 0\nDisk 0 0 360\n"
                            "Cylinder 1 1 1 360\nSphere 0 -1 1 360\n"
                            "WorldEnd\n",
                            &d);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_uint_eq(only_frame(s)->nmeshes, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *quadric_suite(void)
{
    Suite *s = suite_create("quadric");
    TCase *tc = tcase_create("quadric");
    tcase_add_test(tc, test_sphere);
    tcase_add_test(tc, test_sphere_clamped_z);
    tcase_add_test(tc, test_cylinder);
    tcase_add_test(tc, test_cone);
    tcase_add_test(tc, test_disk);
    tcase_add_test(tc, test_paraboloid);
    tcase_add_test(tc, test_hyperboloid);
    tcase_add_test(tc, test_torus);
    tcase_add_test(tc, test_orientation);
    tcase_add_test(tc, test_segment_counts);
    tcase_add_test(tc, test_quadric_primvars);
    tcase_add_test(tc, test_degenerate_quadrics);
    suite_add_tcase(s, tc);
    return s;
}
