/*
** check_subdiv.c: SubdivisionMesh "catmull-clark" against closed forms.
** A cube [-1,1]^3's limit surface passes through (1/2, 1/2, 1/2) at its
** corners (the valence-3 mask (9 v + 4 sum e + sum d) / 24) and through
** (68/81, 0, 0) at a face centre (the regular mask after one round:
** (16 (1,0,0) + 4 * 4 (3/4) + 4 (5/9)) / 36); with every edge creased
** and every corner pinned it is the cube itself (area 24). A planar grid
** is reproduced: its inner face is the bicubic B-spline patch over
** [1,2]^2 (area 1) and, with "interpolateboundary", the whole grid is
** covered (area 9). Vertex variables that are affine in P stay so;
** varying ones keep their cage values at the cage's vertices.
*/
#include <stdio.h>
#include <string.h>

#include "tests/rib/check_rib.h"

#define CUBE_TOPOLOGY                                                         \
    "[4 4 4 4 4 4] [0 1 3 2  4 6 7 5  0 4 5 1  2 3 7 6  0 2 6 4  1 5 7 3]\n"
#define CUBE_P                                                                \
    " \"P\" [-1 -1 -1  1 -1 -1  -1 1 -1  1 1 -1  -1 -1 1  1 -1 1  -1 1 1  "    \
    "1 1 1]\n"

static RibScene *world(const char *body, RibDiag *d)
{
    static char text[1 << 16];
    snprintf(text, sizeof text, "WorldBegin\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    ck_assert_msg(s && d->nerrors == 0, "%s",
                  d->nmessages ? d->messages[0] : "load failed");
    return s;
}

/* The mesh vertex nearest to p, and its distance. */
static double nearest(const RibMesh *m, const double p[3], size_t *at)
{
    double best = INFINITY;
    for (size_t k = 0; k < m->nverts; k++) {
        double q[3];
        vertex(m, k, q);
        double d = sqrt((q[0] - p[0]) * (q[0] - p[0]) +
                        (q[1] - p[1]) * (q[1] - p[1]) +
                        (q[2] - p[2]) * (q[2] - p[2]));
        if (d < best)
            best = d, *at = k;
    }
    return best;
}

/* Every triangle turns the same way about the origin (a closed, consistently
   wound surface around it). */
static void assert_consistent(const RibMesh *m)
{
    int sign = 0;
    for (size_t t = 0; t < m->ntris; t++) {
        double n[3], c[3] = {0, 0, 0};
        tri_normal(m, t, n);
        for (int k = 0; k < 3; k++) {
            double p[3];
            vertex(m, m->tris[3 * t + k], p);
            for (int i = 0; i < 3; i++)
                c[i] += p[i];
        }
        int s = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] > 0 ? 1 : -1;
        if (!sign)
            sign = s;
        ck_assert_msg(s == sign, "triangle %zu is wound the other way", t);
    }
}

START_TEST(test_cube_limit_points)
{
    RibDiag d;
    RibScene *s = world("SubdivisionMesh \"catmull-clark\" " CUBE_TOPOLOGY
                        CUBE_P, &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_str_eq(m->prim, "SubdivisionMesh");
    /* three rounds: 24 quads after the first, 16 times as many after */
    ck_assert_uint_eq(m->ntris, 2 * 24 * 16);
    size_t at;
    for (int i = 0; i < 8; i++) {
        double corner[3] = {i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5,
                            i & 4 ? 0.5 : -0.5};
        ck_assert_near(nearest(m, corner, &at), 0, 1e-6);
    }
    double centre[3] = {68.0 / 81, 0, 0};
    ck_assert_near(nearest(m, centre, &at), 0, 1e-6);
    /* the limit lies inside the cage */
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        ck_assert(fabs(p[0]) < 1 && fabs(p[1]) < 1 && fabs(p[2]) < 1);
    }
    assert_consistent(m);
    /* smooth normals: at the corner point, along the diagonal */
    double corner[3] = {0.5, 0.5, 0.5};
    nearest(m, corner, &at);
    ck_assert_ptr_nonnull(m->Ng);
    for (int i = 0; i < 3; i++)
        ck_assert_near(fabs(m->Ng[3 * at + i]), 1 / sqrt(3.0), 1e-5);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_sharp_cube)
{
    RibDiag d;
    RibScene *s = world(
        "SubdivisionMesh \"catmull-clark\" " CUBE_TOPOLOGY
        "[\"crease\" \"crease\" \"crease\" \"crease\" \"crease\" "
        "\"crease\" \"corner\"]\n"
        "[5 1  5 1  2 1  2 1  2 1  2 1  8 1]\n"
        "[0 1 3 2 0  4 5 7 6 4  0 4  1 5  2 6  3 7  0 1 2 3 4 5 6 7]\n"
        "[10 10 10 10 10 10 10]\n" CUBE_P, &d);
    ck_assert_int_eq(d.nwarnings, 0);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_near(mesh_area(m), 24, 1e-4);
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        double big = fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2])));
        ck_assert_near(big, 1, 1e-6);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A 4 x 4 grid of unit squares' corners (3 x 3 faces) in the plane z = 0,
   with the given tags. */
static const char *grid(const char *tags)
{
    static char text[4096];
    char *p = text;
    p += sprintf(p, "SubdivisionMesh \"catmull-clark\" [4 4 4 4 4 4 4 4 4] [");
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            int v = 4 * j + i;
            p += sprintf(p, "%d %d %d %d  ", v, v + 1, v + 5, v + 4);
        }
    p += sprintf(p, "]\n%s \"P\" [", tags);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            p += sprintf(p, "%d %d 0  ", i, j);
    p += sprintf(p, "] \"Cs\" [");
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            p += sprintf(p, "%d %d 0.5  ", i, j);
    sprintf(p, "]");
    return text;
}

START_TEST(test_grid_boundaries)
{
    RibDiag d;
    /* Without interpolateboundary only the inner face is drawn. */
    RibScene *s = world(grid(""), &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_near(mesh_area(m), 1, 1e-6);
    ck_assert_uint_eq(m->ntris, 2 * 4 * 16);
    for (size_t k = 0; k < m->nverts; k++) {
        double p[3];
        vertex(m, k, p);
        ck_assert(p[0] > 1 - 1e-6 && p[0] < 2 + 1e-6 && p[1] > 1 - 1e-6 &&
                  p[1] < 2 + 1e-6 && fabs(p[2]) < 1e-9);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
    /* With it the grid is covered, the boundary kept straight. */
    s = world(grid("[\"interpolateboundary\"] [0 0] [] []"), &d);
    m = mesh_at(s, 0);
    ck_assert_near(mesh_area(m), 9, 1e-5);
    ck_assert_uint_eq(m->ntris, 2 * 36 * 16);
    /* Cs (vertex) = (x, y, 0.5), affine in P: it stays so everywhere. */
    const RibPrimvar *cs = rib_mesh_primvar(m, "Cs");
    ck_assert_ptr_nonnull(cs);
    ck_assert_int_eq(cs->interp, RIB_INTERP_VERTEX);
    for (size_t k = 0; k < m->nverts; k++) {
        ck_assert_near(cs->p.f[3 * k], m->P[3 * k], 1e-5);
        ck_assert_near(cs->p.f[3 * k + 1], m->P[3 * k + 1], 1e-5);
        ck_assert_near(cs->p.f[3 * k + 2], 0.5, 1e-6);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_hole)
{
    RibDiag d;
    RibScene *s = world(grid("[\"interpolateboundary\" \"hole\"] [0 0 1 0] "
                             "[4] []"), &d);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_uint_eq(m->ntris, 2 * 32 * 16);
    for (size_t t = 0; t < m->ntris; t++) {
        double c[2] = {0, 0};
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 2; i++)
                c[i] += m->P[3 * m->tris[3 * t + k] + i] / 3;
        ck_assert(fabs(c[0] - 1.5) > 0.25 || fabs(c[1] - 1.5) > 0.25);
    }
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_primvar_classes)
{
    RibDiag d;
    RibScene *s = world(
        "Declare \"k\" \"varying float\"\n"
        "Declare \"id\" \"uniform float\"\n"
        "Declare \"fs\" \"facevarying float\"\n"
        "SubdivisionMesh \"catmull-clark\" " CUBE_TOPOLOGY CUBE_P
        " \"k\" [0 1 2 3 4 5 6 7] \"id\" [10 11 12 13 14 15]\n"
        " \"fs\" [0 1 2 3  0 1 2 3  0 1 2 3  0 1 2 3  0 1 2 3  0 1 2 3]",
        &d);
    const RibMesh *m = mesh_at(s, 0);
    /* facevarying: each quad corner is its own vertex */
    ck_assert_uint_eq(m->nverts, 4 * 24 * 16);
    const RibPrimvar *k = rib_mesh_primvar(m, "k"), *id =
        rib_mesh_primvar(m, "id"), *fs = rib_mesh_primvar(m, "fs");
    ck_assert_int_eq(id->interp, RIB_INTERP_TRIANGLE);
    ck_assert_int_eq(fs->interp, RIB_INTERP_VERTEX);
    /* varying at the corner point (1/2)^3 is cage vertex 7's value; the
       face corners there carry fs's corner values of the three faces */
    int seen = 0;
    for (size_t v = 0; v < m->nverts; v++) {
        double p[3];
        vertex(m, v, p);
        if (fabs(p[0] - 0.5) + fabs(p[1] - 0.5) + fabs(p[2] - 0.5) > 1e-6)
            continue;
        seen++;
        ck_assert_near(k->p.f[v], 7, 1e-6);
        /* vertex 7 is corner 2 of each of its faces */
        ck_assert_near(fs->p.f[v], 2, 1e-6);
    }
    ck_assert_int_eq(seen, 3);
    /* uniform: every triangle carries its cage face's value */
    for (size_t t = 0; t < m->ntris; t++)
        ck_assert(id->p.f[t] == 10 + (float)(t / (2 * 4 * 16)));
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A crease of growing sharpness on the edge (1,1,-1)-(1,1,1) pulls the
   surface out towards it. */
START_TEST(test_semi_sharp_crease)
{
    double last = 0;
    const char *sharp[] = {"0", "0.5", "1", "2", "10"};
    for (int i = 0; i < 5; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "SubdivisionMesh \"catmull-clark\" " CUBE_TOPOLOGY
                 "[\"crease\"] [2 1] [3 7] [%s]" CUBE_P, sharp[i]);
        RibDiag d;
        RibScene *s = world(text, &d);
        const RibMesh *m = mesh_at(s, 0);
        double reach = 0;
        for (size_t v = 0; v < m->nverts; v++)
            reach = fmax(reach, m->P[3 * v] + m->P[3 * v + 1]);
        ck_assert_msg(reach > last + 1e-3, "sharpness %s: reach %g",
                      sharp[i], reach);
        ck_assert(reach < 2);
        last = reach;
        rib_scene_free(s);
        rib_diag_free(&d);
    }
}
END_TEST

START_TEST(test_unsupported_warns)
{
    RibDiag d;
    RibScene *s = world("SubdivisionMesh \"loop\" [3] [0 1 2] \"P\" "
                        "[0 0 0 1 0 0 0 1 0]\n"
                        "SubdivisionMesh \"catmull-clark\" " CUBE_TOPOLOGY
                        "[\"facevaryinginterpolateboundary\"] [0 0] [] []"
                        CUBE_P, &d);
    ck_assert_diag(&d, "scheme \"loop\" is not supported");
    ck_assert_diag(&d, "tag \"facevaryinginterpolateboundary\" is not "
                       "supported");
    ck_assert_uint_eq(only_frame(s)->nmeshes, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
    RibLoadOptions o;
    rib_load_options_init(&o);
    o.strict = true;
    s = load_text_opt("WorldBegin\nSubdivisionMesh \"loop\" [3] [0 1 2] "
                      "\"P\" [0 0 0 1 0 0 0 1 0]\nWorldEnd\n", &o, &d);
    ck_assert_int_eq(d.nerrors, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
    /* malformed topology is an error */
    s = load_text("WorldBegin\nSubdivisionMesh \"catmull-clark\" [4] "
                  "[0 1 2] \"P\" [0 0 0 1 0 0 0 1 0]\nWorldEnd\n", &d);
    ck_assert_diag(&d, "nvertices adds up to 4");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *subdiv_suite(void)
{
    Suite *s = suite_create("subdiv");
    TCase *tc = tcase_create("subdiv");
    tcase_add_test(tc, test_cube_limit_points);
    tcase_add_test(tc, test_sharp_cube);
    tcase_add_test(tc, test_grid_boundaries);
    tcase_add_test(tc, test_hole);
    tcase_add_test(tc, test_primvar_classes);
    tcase_add_test(tc, test_semi_sharp_crease);
    tcase_add_test(tc, test_unsupported_warns);
    suite_add_tcase(s, tc);
    return s;
}
