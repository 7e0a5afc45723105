/*
** check_polygon.c: Polygon, GeneralPolygon, PointsPolygons and
** PointsGeneralPolygons: triangle counts (n - 2 per simple polygon, two
** more per hole), areas by the shoelace formula worked out here, winding
** kept from the vertex order, holes left empty, and primitive variables
** of every class (constant, uniform, varying, vertex, facevarying) on the
** right vertices and triangles, per RISpec 3.2's class counts.
*/
#include <stdio.h>
#include <string.h>

#include "tests/rib/check_rib.h"

static RibScene *one_world(const char *body, RibDiag *d)
{
    static char text[1 << 18];
    snprintf(text, sizeof text, "WorldBegin\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    ck_assert_msg(s && d->nerrors == 0, "%s",
                  d->nmessages ? d->messages[0] : "load failed");
    return s;
}

/* Every triangle's normal has a positive component along dir. */
static void assert_facing(const RibMesh *m, const double dir[3])
{
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3];
        tri_normal(m, t, n);
        ck_assert_msg(n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2] > 1e-12,
                      "%s triangle %zu faces (%g %g %g)", m->prim, t, n[0],
                      n[1], n[2]);
    }
}

static void centroid(const RibMesh *m, size_t t, double c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < 3; k++) {
        double p[3];
        vertex(m, m->tris[3 * t + k], p);
        for (int i = 0; i < 3; i++)
            c[i] += p[i] / 3;
    }
}

/* No triangle's centroid lies inside the open box [x0,x1] x [y0,y1]. */
static void assert_hole(const RibMesh *m, double x0, double x1, double y0,
                        double y1)
{
    for (size_t t = 0; t < m->ntris; t++) {
        double c[3];
        centroid(m, t, c);
        ck_assert_msg(!(c[0] > x0 && c[0] < x1 && c[1] > y0 && c[1] < y1),
                      "triangle %zu (centroid %g %g) covers the hole", t,
                      c[0], c[1]);
    }
}

static const double UP[3] = {0, 0, 1};

START_TEST(test_convex_polygon)
{
    RibDiag d;
    RibScene *s = one_world("Polygon \"P\" [0 0 0  2 0 0  2 1 0  0 1 0]", &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_str_eq(m->prim, "Polygon");
    ck_assert_uint_eq(m->nverts, 4);
    ck_assert_uint_eq(m->ntris, 2);
    ck_assert_near(mesh_area(m), 2, 1e-6);
    assert_facing(m, UP);
    /* a polygon is flat: no parametric normals or (u, v) */
    ck_assert_ptr_null(m->Ng);
    ck_assert_ptr_null(m->uv);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* An L and a five-pointed star: concave outlines whose ears must be
   chosen with care. */
START_TEST(test_concave_polygons)
{
    char text[4096], *p = text;
    p += sprintf(p, "Polygon \"P\" [0 0 0  3 0 0  3 1 0  1 1 0  1 3 0  0 3 0]\n"
                    "Polygon \"P\" [");
    const double ri = 0.4;
    double xy[10][2];
    for (int i = 0; i < 10; i++) {
        double a = M_PI / 2 + i * M_PI / 5, r = i % 2 ? ri : 1;
        xy[i][0] = r * cos(a), xy[i][1] = r * sin(a);
        p += sprintf(p, "%.17g %.17g 0 ", xy[i][0], xy[i][1]);
    }
    sprintf(p, "]");
    RibDiag d;
    RibScene *s = one_world(text, &d);
    const RibMesh *l = mesh_at(s, 0), *star = mesh_at(s, 1);
    ck_assert_uint_eq(l->ntris, 4);
    ck_assert_near(mesh_area(l), 5, 1e-6);
    assert_facing(l, UP);
    /* the notch of the L stays empty */
    assert_hole(l, 1, 3, 1, 3);
    /* the star: ten triangles (tip, centre, tip) of 1/2 * 1 * ri * sin 36 */
    ck_assert_uint_eq(star->ntris, 8);
    ck_assert_near(mesh_area(star), 10 * 0.5 * ri * sin(M_PI / 5), 1e-6);
    assert_facing(star, UP);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* The winding follows the vertex order in any plane: a clockwise square
   in the plane x = 2 faces -x. Homogeneous "Pw" points are divided
   through. */
START_TEST(test_polygon_planes_and_pw)
{
    RibDiag d;
    RibScene *s = one_world("Polygon \"P\" [2 0 0  2 0 1  2 1 1  2 1 0]\n"
                            "Polygon \"Pw\" [0 0 0 2  4 0 0 2  0 6 0 2]",
                            &d);
    const double minus_x[3] = {-1, 0, 0};
    ck_assert_near(mesh_area(mesh_at(s, 0)), 1, 1e-6);
    assert_facing(mesh_at(s, 0), minus_x);
    const RibMesh *w = mesh_at(s, 1);
    ck_assert_near(w->P[3], 2, 0);
    ck_assert_near(w->P[7], 3, 0);
    ck_assert_near(mesh_area(w), 0.5 * 2 * 3, 1e-6);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* One hole: 16 - 4; n + 2 (holes) - 2 triangles. The hole may run either
   way round. Two holes: 18 - 1 - 1. */
START_TEST(test_general_polygon_holes)
{
    RibDiag d;
    RibScene *s = one_world(
        "GeneralPolygon [4 4] \"P\" [0 0 0  4 0 0  4 4 0  0 4 0"
        "  1 1 0  1 3 0  3 3 0  3 1 0]\n"
        "GeneralPolygon [4 4] \"P\" [0 0 0  4 0 0  4 4 0  0 4 0"
        "  1 1 0  3 1 0  3 3 0  1 3 0]\n"
        "GeneralPolygon [4 4 4] \"P\" [0 0 0  6 0 0  6 3 0  0 3 0"
        "  1 1 0  1 2 0  2 2 0  2 1 0  4 1 0  4 2 0  5 2 0  5 1 0]",
        &d);
    for (int i = 0; i < 2; i++) {
        const RibMesh *m = mesh_at(s, (size_t)i);
        ck_assert_uint_eq(m->ntris, 8 + 2 - 2);
        ck_assert_near(mesh_area(m), 12, 1e-6);
        assert_facing(m, UP);
        assert_hole(m, 1, 3, 1, 3);
    }
    const RibMesh *two = mesh_at(s, 2);
    ck_assert_uint_eq(two->ntris, 12 + 4 - 2);
    ck_assert_near(mesh_area(two), 16, 1e-6);
    assert_facing(two, UP);
    assert_hole(two, 1, 2, 1, 2);
    assert_hole(two, 4, 5, 1, 2);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A unit cube of six quads over eight shared points, each wound
   (right-hand rule) outward; and faces of 3, 4 and 5 points. */
START_TEST(test_points_polygons)
{
    RibDiag d;
    RibScene *s = one_world(
        "PointsPolygons [4 4 4 4 4 4]"
        " [0 2 3 1  4 5 7 6  0 1 5 4  2 6 7 3  0 4 6 2  1 3 7 5]"
        " \"P\" [0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1]\n"
        "PointsPolygons [3 4 5] [0 1 2  0 2 3 4  0 4 5 6 1]"
        " \"P\" [0 0 0  2 0 0  2 2 0  0 2 0  -1 1 0  -1 -1 0  0 -2 0]",
        &d);
    const RibMesh *cube = mesh_at(s, 0);
    ck_assert_uint_eq(cube->nverts, 8);
    ck_assert_uint_eq(cube->ntris, 12);
    ck_assert_near(mesh_area(cube), 6, 1e-6);
    for (size_t t = 0; t < cube->ntris; t++) {
        double n[3], c[3];
        tri_normal(cube, t, n);
        centroid(cube, t, c);
        double out = n[0] * (c[0] - 0.5) + n[1] * (c[1] - 0.5) +
                     n[2] * (c[2] - 0.5);
        ck_assert_msg(out > 0, "cube triangle %zu faces inward", t);
    }
    const RibMesh *mixed = mesh_at(s, 1);
    ck_assert_uint_eq(mixed->ntris, 1 + 2 + 3);
    /* triangle 2, quad (0,0) (2,2) (0,2) (-1,1): 2 + 1, and the concave
       pentagon by the shoelace formula */
    const double pent[5][2] = {{0, 0}, {-1, 1}, {-1, -1}, {0, -2}, {2, 0}};
    double twice = 0;
    for (int i = 0; i < 5; i++)
        twice += pent[i][0] * pent[(i + 1) % 5][1] -
                 pent[(i + 1) % 5][0] * pent[i][1];
    ck_assert_near(twice, 8, 0);
    ck_assert_near(mesh_area(mixed), 2 + 3 + twice / 2, 1e-6);
    assert_facing(mixed, UP);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A square with a hole beside a triangle; the hole's points come from the
   shared point list. */
START_TEST(test_points_general_polygons)
{
    RibDiag d;
    RibScene *s = one_world(
        "PointsGeneralPolygons [2 1] [4 3 3]"
        " [0 1 2 3  4 5 6  1 7 2]"
        " \"P\" [0 0 0  3 0 0  3 3 0  0 3 0  1 1 0  1 2 0  2 1 0  5 0 0]",
        &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_uint_eq(m->ntris, (4 + 3 + 2 - 2) + 1);
    ck_assert_near(mesh_area(m), 9 - 0.5 + 0.5 * 2 * 3, 1e-6);
    assert_facing(m, UP);
    for (size_t t = 0; t < m->ntris; t++) {
        double c[3];
        centroid(m, t, c);
        /* inside the hole triangle (1,1) (1,2) (2,1): x, y > 1, x + y < 3 */
        ck_assert(!(c[0] > 1 && c[1] > 1 && c[0] + c[1] < 3));
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Two quads sharing the edge (1,0)-(1,1). Without facevarying values the
   mesh keeps the six shared points; varying and vertex values ride on
   them, uniform values on each face's triangles, constants once. */
START_TEST(test_polygon_primvars)
{
    RibDiag d;
    RibScene *s = one_world(
        "Declare \"id\" \"uniform float\"\nDeclare \"g\" \"constant float\"\n"
        "Declare \"h\" \"vertex float\"\nDeclare \"tag\" \"uniform string\"\n"
        "PointsPolygons [4 4] [0 1 4 3  1 2 5 4]"
        " \"P\" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0]"
        " \"Cs\" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0]"
        " \"h\" [10 11 12 13 14 15] \"id\" [100 200] \"g\" 5"
        " \"tag\" [\"left\" \"right\"]",
        &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_uint_eq(m->nverts, 6);
    ck_assert_uint_eq(m->ntris, 4);
    const RibPrimvar *cs = rib_mesh_primvar(m, "Cs"), *h = rib_mesh_primvar(m, "h"),
                     *id = rib_mesh_primvar(m, "id"),
                     *g = rib_mesh_primvar(m, "g"),
                     *tag = rib_mesh_primvar(m, "tag");
    ck_assert_int_eq(cs->interp, RIB_INTERP_VERTEX);
    ck_assert_int_eq(h->interp, RIB_INTERP_VERTEX);
    ck_assert_int_eq(id->interp, RIB_INTERP_TRIANGLE);
    ck_assert_int_eq(g->interp, RIB_INTERP_CONSTANT);
    ck_assert_int_eq(tag->interp, RIB_INTERP_TRIANGLE);
    ck_assert_near(g->p.f[0], 5, 0);
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        /* Cs was given equal to each point's position; h = 10 + index */
        for (int i = 0; i < 3; i++)
            ck_assert_near(cs->p.f[3 * k + i], p[i], 0);
        ck_assert_near(h->p.f[k], 10 + p[0] + 3 * p[1], 0);
    }
    for (size_t t = 0; t < m->ntris; t++) {
        double c[3];
        centroid(m, t, c);
        int right = c[0] > 1;
        ck_assert_near(id->p.f[t], right ? 200 : 100, 0);
        ck_assert_str_eq(tag->p.s[t], right ? "right" : "left");
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Facevarying values belong to a face's corners: the shared edge's points
   get one value in each face, so the mesh splits them. */
START_TEST(test_polygon_facevarying)
{
    RibDiag d;
    RibScene *s = one_world(
        "Declare \"id\" \"uniform float\"\n"
        "PointsPolygons [4 4] [0 1 4 3  1 2 5 4]"
        " \"P\" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0]"
        " \"facevarying float[2] st\" [0 0  1 0  1 1  0 1"
        "                              5 5  6 5  6 6  5 6]"
        " \"id\" [0 1] \"Cs\" [0 0 0  1 0 0  2 0 0  0 1 0  1 1 0  2 1 0]",
        &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_uint_eq(m->ntris, 4);
    const RibPrimvar *st = rib_mesh_primvar(m, "st"),
                     *id = rib_mesh_primvar(m, "id"),
                     *cs = rib_mesh_primvar(m, "Cs");
    ck_assert_int_eq(st->interp, RIB_INTERP_VERTEX);
    ck_assert_int_eq(st->p.ncomp, 2);
    /* corner (x, y) of face f has st = (x - f, y) + 5 f */
    for (size_t t = 0; t < m->ntris; t++) {
        double f = id->p.f[t];
        for (int k = 0; k < 3; k++) {
            size_t v = m->tris[3 * t + k];
            double p[3];
            vertex(m, v, p);
            ck_assert_near(st->p.f[2 * v], p[0] - f + 5 * f, 0);
            ck_assert_near(st->p.f[2 * v + 1], p[1] + 5 * f, 0);
            /* varying values still follow the point */
            ck_assert_near(cs->p.f[3 * v], p[0], 0);
            ck_assert_near(cs->p.f[3 * v + 1], p[1], 0);
        }
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A polygon larger than ear clipping takes is fanned from its first
   point, with a warning; a convex one comes out whole. */
START_TEST(test_huge_polygon_fanned)
{
    enum { N = 5000 };
    static char body[N * 48 + 64];
    char *p = body;
    p += sprintf(p, "Polygon \"P\" [");
    for (int i = 0; i < N; i++) {
        double a = 2 * M_PI * i / N;
        p += sprintf(p, "%.9f %.9f 0 ", cos(a), sin(a));
    }
    sprintf(p, "]");
    RibDiag d;
    RibScene *s = one_world(body, &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_diag(&d, "too large to triangulate properly; fanned");
    ck_assert_uint_eq(m->ntris, N - 2);
    ck_assert_near(mesh_area(m), 0.5 * N * sin(2 * M_PI / N), 1e-4);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *polygon_suite(void)
{
    Suite *s = suite_create("polygon");
    TCase *tc = tcase_create("polygon");
    tcase_add_test(tc, test_convex_polygon);
    tcase_add_test(tc, test_concave_polygons);
    tcase_add_test(tc, test_polygon_planes_and_pw);
    tcase_add_test(tc, test_general_polygon_holes);
    tcase_add_test(tc, test_points_polygons);
    tcase_add_test(tc, test_points_general_polygons);
    tcase_add_test(tc, test_polygon_primvars);
    tcase_add_test(tc, test_polygon_facevarying);
    tcase_add_test(tc, test_huge_polygon_fanned);
    suite_add_tcase(s, tc);
    return s;
}
