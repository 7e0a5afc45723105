/*
** check_curves.c: Points and Curves against closed forms. A point is a
** disk of area pi (w/2)^2 facing the camera (or its "N"); a ribbon along
** a straight curve of length L is a rectangle of area L w (a trapezoid
** for a width running linearly from w0 to w1: L (w0 + w1) / 2). A cubic
** B-spline over evenly spaced collinear points 0, 1, 2, 3 runs from 1 to
** 2; Bezier segments (vstep 3) through 0 .. 6 run from 0 to 6.
*/
#include <stdio.h>
#include <string.h>

#include "tests/rib/check_rib.h"

/* Camera at the origin looking along +z; the primitives 5 ahead, so the
   eye is at (0, 0, -5) in object space. */
static RibScene *world(const char *body, RibDiag *d)
{
    static char text[1 << 14];
    snprintf(text, sizeof text, "Projection \"perspective\"\nWorldBegin\n"
             "Translate 0 0 5\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    ck_assert_msg(s && d->nerrors == 0, "%s",
                  d->nmessages ? d->messages[0] : "load failed");
    return s;
}

/* Every triangle's normal turns towards the point eye. */
static void assert_faces_eye(const RibMesh *m, const double eye[3])
{
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3], p[3];
        tri_normal(m, t, n);
        vertex(m, m->tris[3 * t], p);
        double d = n[0] * (eye[0] - p[0]) + n[1] * (eye[1] - p[1]) +
                   n[2] * (eye[2] - p[2]);
        ck_assert_msg(d > 0, "triangle %zu faces away", t);
    }
}

static const double EYE[3] = {0, 0, -5};

START_TEST(test_points_area_and_facing)
{
    RibDiag d;
    RibScene *s = world("Points \"P\" [0 0 0  1 0 0  0 2 1] "
                        "\"constantwidth\" 0.2 \"Cs\" [1 0 0  0 1 0  0 0 1]\n"
                        "Points \"P\" [0 0 0  3 0 0] \"width\" [0.5 1]",
                        &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_str_eq(m->prim, "Points");
    ck_assert_near(mesh_area(m), 3 * M_PI * 0.01, 1e-6);
    assert_faces_eye(m, EYE);
    /* each disk is flat and square to the line of sight */
    for (size_t v = 0; v < m->nverts; v++) {
        size_t centre = v / 13 * 13;
        double p[3], c[3];
        vertex(m, v, p);
        vertex(m, centre, c);
        double to_eye[3] = {EYE[0] - c[0], EYE[1] - c[1], EYE[2] - c[2]};
        double along = (p[0] - c[0]) * to_eye[0] + (p[1] - c[1]) * to_eye[1] +
                       (p[2] - c[2]) * to_eye[2];
        ck_assert_near(along, 0, 1e-5);
    }
    /* vertex colours: every vertex of point 1's disk is green */
    const RibPrimvar *cs = rib_mesh_primvar(m, "Cs");
    for (size_t v = 13; v < 26; v++)
        ck_assert(cs->p.f[3 * v] == 0 && cs->p.f[3 * v + 1] == 1);
    const RibMesh *w = mesh_at(s, 1);
    ck_assert_near(mesh_area(w), M_PI * (0.0625 + 0.25), 1e-6);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_oriented_points)
{
    RibDiag d;
    RibScene *s = world("Points \"P\" [0 0 0] \"N\" [0 1 0] "
                        "\"constantwidth\" 2", &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_near(mesh_area(m), M_PI, 1e-6);
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3];
        tri_normal(m, t, n);
        ck_assert(n[1] > 0 && fabs(n[0]) < 1e-9 && fabs(n[2]) < 1e-9);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_linear_curves)
{
    RibDiag d;
    RibScene *s = world(
        "Curves \"linear\" [2] \"nonperiodic\" \"P\" [0 0 0  3 0 0] "
        "\"constantwidth\" 0.1\n"
        "Curves \"linear\" [2] \"nonperiodic\" \"P\" [0 0 0  0 2 0] "
        "\"width\" [0.1 0.3]\n"
        "Curves \"linear\" [4] \"periodic\" \"P\" [0 0 0 1 0 0 1 1 0 0 1 0] "
        "\"constantwidth\" 0.01", &d);
    const RibMesh *a = mesh_at(s, 0), *b = mesh_at(s, 1), *sq = mesh_at(s, 2);
    ck_assert_str_eq(a->prim, "Curves");
    ck_assert_uint_eq(a->ntris, 2);
    ck_assert_near(mesh_area(a), 0.3, 1e-6);
    assert_faces_eye(a, EYE);
    ck_assert_near(mesh_area(b), 2 * 0.2, 1e-6);
    assert_faces_eye(b, EYE);
    /* the closed square: four sides of length 1, a ribbon each */
    ck_assert_uint_eq(sq->ntris, 8);
    ck_assert_near(mesh_area(sq), 4 * 0.01, 1e-6);
    /* u across, v along */
    ck_assert_ptr_nonnull(a->uv);
    ck_assert(a->uv[0] == 0 && a->uv[2] == 1 && a->uv[1] == 0 &&
              a->uv[5] == 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_cubic_curves)
{
    RibDiag d;
    RibScene *s = world(
        "Declare \"q\" \"vertex float\"\n"
        "Basis \"b-spline\" 1 \"b-spline\" 1\n"
        "Curves \"cubic\" [4] \"nonperiodic\" \"P\" [0 0 0 1 0 0 2 0 0 3 0 0] "
        "\"constantwidth\" 0.1 \"q\" [0 1 2 3]\n"
        "Basis \"bezier\" 3 \"bezier\" 3\n"
        "Curves \"cubic\" [7] \"nonperiodic\" \"P\" [0 0 0 1 0 0 2 0 0 3 0 0 "
        "4 0 0 5 0 0 6 0 0] \"constantwidth\" 0.5", &d);
    const RibMesh *a = mesh_at(s, 0), *b = mesh_at(s, 1);
    ck_assert_near(mesh_area(a), 0.1, 1e-6);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t v = 0; v < a->nverts; v++)
        lo = fmin(lo, a->P[3 * v]), hi = fmax(hi, a->P[3 * v]);
    ck_assert_near(lo, 1, 1e-6);
    ck_assert_near(hi, 2, 1e-6);
    /* a vertex variable follows the basis: equal to x along the line */
    const RibPrimvar *q = rib_mesh_primvar(a, "q");
    for (size_t v = 0; v < a->nverts; v++)
        ck_assert_near(q->p.f[v], a->P[3 * v], 1e-6);
    ck_assert_near(mesh_area(b), 6 * 0.5, 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A quarter circle as one Bezier segment: its ribbon's area is close
   to its arc length (pi/2) times the width, within 5e-4 (the Bezier's
   radius is off by up to 0.027%, and chords of 2.5 degrees are short by
   0.008%), and the ribbon is finely cut. */
START_TEST(test_bent_curve_and_normals)
{
    RibDiag d;
    const double k = 0.5522847498;
    char body[512];
    snprintf(body, sizeof body,
             "Basis \"bezier\" 3 \"bezier\" 3\n"
             "Curves \"cubic\" [4] \"nonperiodic\" \"P\" [1 0 0 1 %.10f 0 "
             "%.10f 1 0 0 1 0] \"constantwidth\" 0.01\n"
             "Curves \"linear\" [2] \"nonperiodic\" \"P\" [0 0 0 1 0 0] "
             "\"N\" [0 1 0 0 1 0] \"constantwidth\" 0.2", k, k);
    RibScene *s = world(body, &d);
    const RibMesh *a = mesh_at(s, 0), *o = mesh_at(s, 1);
    ck_assert_uint_gt(a->ntris, 2 * 30);
    ck_assert_near(mesh_area(a), M_PI / 2 * 0.01, 5e-4 * M_PI / 2 * 0.01);
    /* oriented by N: the ribbon lies in y = 0, its normal along +y */
    for (size_t v = 0; v < o->nverts; v++) {
        ck_assert_near(o->P[3 * v + 1], 0, 1e-9);
        ck_assert_near(fabs(o->P[3 * v + 2]), 0.1, 1e-6);
    }
    for (size_t t = 0; t < o->ntris; t++) {
        double n[3];
        tri_normal(o, t, n);
        ck_assert(n[1] > 0);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_curve_errors)
{
    RibDiag d;
    RibScene *s = load_text("WorldBegin\nCurves \"quadratic\" [2] "
                            "\"nonperiodic\" \"P\" [0 0 0 1 0 0]\n"
                            "Basis \"bezier\" 3 \"bezier\" 3\n"
                            "Curves \"cubic\" [5] \"nonperiodic\" \"P\" "
                            "[0 0 0 1 0 0 2 0 0 3 0 0 4 0 0]\nWorldEnd\n", &d);
    ck_assert_diag(&d, "neither \"linear\" nor \"cubic\"");
    ck_assert_diag(&d, "does not fit vstep 3");
    ck_assert_uint_eq(only_frame(s)->nmeshes, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *curves_suite(void)
{
    Suite *s = suite_create("curves");
    TCase *tc = tcase_create("curves");
    tcase_add_test(tc, test_points_area_and_facing);
    tcase_add_test(tc, test_oriented_points);
    tcase_add_test(tc, test_linear_curves);
    tcase_add_test(tc, test_cubic_curves);
    tcase_add_test(tc, test_bent_curve_and_normals);
    tcase_add_test(tc, test_curve_errors);
    suite_add_tcase(s, tc);
    return s;
}
