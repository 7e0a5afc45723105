/*
** check_errors.c: malformed RIB. Every kind of bad input gets its exact
** "file:line:col: error: ..." diagnostic and neither crashes nor hangs;
** where a renderer would skip the bad request and go on, the rest of the
** file still loads; unbalanced blocks and damaged files stop loading.
** Each test_fuzz_* test replays an input the RIB fuzzer found.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "runcmd.h"
#include "tests/rib/check_rib.h"

/* Asserts that diag holds exactly the messages given (a NULL-terminated
   list), in order. */
static void expect(const RibDiag *d, ...)
{
    va_list ap;
    va_start(ap, d);
    size_t n = 0;
    for (const char *want; (want = va_arg(ap, const char *)); n++) {
        ck_assert_msg(n < d->nmessages, "missing diagnostic \"%s\"", want);
        ck_assert_str_eq(d->messages[n], want);
    }
    va_end(ap);
    ck_assert_msg(n == d->nmessages, "unexpected diagnostic \"%s\"",
                  n < d->nmessages ? d->messages[n] : "");
}

/* Loads the file at path with opt (NULL: defaults); diag must be
   rib_diag_free'd. */
static RibScene *load_path(const char *path, const RibLoadOptions *opt,
                           RibDiag *d)
{
    rib_diag_init(d, NULL);
    return rib_load_ex(path, opt, d);
}

/* Loads "WorldBegin\n" body "WorldEnd\n", which must load despite its
   errors. */
static RibScene *world(const char *body, RibDiag *d)
{
    char *text = malloc(strlen(body) + 32);
    sprintf(text, "WorldBegin\n%s\nWorldEnd\n", body);
    RibScene *s = load_text(text, d);
    free(text);
    ck_assert_msg(s != NULL, "load failed: %s",
                  d->nmessages ? d->messages[d->nmessages - 1] : "");
    return s;
}

/* The prim names of the only frame's meshes, space-separated. */
static const char *prims(const RibScene *s)
{
    static char buf[512];
    const RibFrame *f = only_frame(s);
    buf[0] = '\0';
    for (size_t i = 0; i < f->nmeshes; i++) {
        if (i)
            strcat(buf, " ");
        strcat(buf, f->meshes[i].prim);
    }
    return buf;
}

/* ---- requests and their arguments ----------------------------------------- */

/* An unknown request (a renderer's own, as GeometricRepresentation) is
   a warning and skipped with its arguments, as RenderMan renderers do;
   strict loading makes it an error. */
START_TEST(test_unknown_request)
{
    RibDiag d;
    const char *body = "FooBar 1 [2 3] \"x\"\nSphere 1 -1 1 360\n"
                       "sphere 1 -1 1 360\nGeometricRepresentation \"lines\"\n"
                       "Disk 0 1 360";
    RibScene *s = world(body, &d);
    expect(&d, "test.rib:2:1: warning: unknown request \"FooBar\" skipped",
           "test.rib:4:1: warning: unknown request \"sphere\" skipped",
           "test.rib:5:1: warning: unknown request \"GeometricRepresentation\" "
           "skipped", NULL);
    ck_assert_int_eq(d.nerrors, 0);
    ck_assert_str_eq(prims(s), "Sphere Disk");
    rib_scene_free(s);
    rib_diag_free(&d);

    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.strict = true;
    char text[512];
    snprintf(text, sizeof text, "WorldBegin\n%s\nBlobby 0 [] [] []\nWorldEnd\n", body);
    s = load_text_opt(text, &opt, &d);
    ck_assert_ptr_nonnull(s);
    expect(&d, "test.rib:2:1: error: unknown request \"FooBar\" skipped",
           "test.rib:4:1: error: unknown request \"sphere\" skipped",
           "test.rib:5:1: error: unknown request \"GeometricRepresentation\" "
           "skipped",
           "test.rib:7:1: error: Blobby is not supported; ignored", NULL);
    ck_assert_str_eq(prims(s), "Sphere Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_wrong_arity)
{
    RibDiag d;
    RibScene *s = world("Sphere 1 -1 1\nTranslate 1 2\nColor 1 2 3 4\n"
                        "Rotate [90 0 0]\nCone 1 1 360 \"Cs\"\n"
                        "Skew 45 0 1 0 1 0\nConcatTransform [1 0 0 1]\n"
                        "Disk 0 1 360",
                        &d);
    expect(&d,
           "test.rib:2:1: error: Sphere: expected 4 numbers for radius zmin "
           "zmax thetamax",
           "test.rib:3:1: error: Translate: expected 3 numbers for dx dy dz",
           "test.rib:4:13: error: Color: too many arguments",
           "test.rib:5:8: error: Rotate: expected 4 numbers for angle dx dy "
           "dz, got an array of 3",
           "test.rib:6:14: error: Cone: parameter \"Cs\" has no value",
           "test.rib:7:1: error: Skew: expected 7 numbers for angle dx1 dy1 "
           "dz1 dx2 dy2 dz2",
           "test.rib:8:17: error: ConcatTransform: expected 16 numbers for "
           "the matrix, got an array of 4",
           NULL);
    /* the Cone is made without its dangling parameter; the rest skipped */
    ck_assert_str_eq(prims(s), "Cone Disk");
    ck_assert_near(mesh_at(s, 1)->object_to_world.m[12], 0, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_wrong_types)
{
    RibDiag d;
    RibScene *s = world(
        "Sphere 1 -1 1 360 \"Cs\" [\"a\" \"b\" \"c\"]\n"
        "Surface \"plastic\" \"Kd\" \"x\" \"Ka\" 0.5\n"
        "Surface \"matte\" \"Ks\" [1 \"a\"]\n"
        "Color \"red\"\nSides 3\nSides 1.5\nOrientation 1\n"
        "Orientation \"sideways\"\nBasis \"bezier\" 3 \"nurbs\" 3\n"
        "Disk 0 1 360 1 2 \"Kd\" 1",
        &d);
    expect(&d,
           "test.rib:2:24: error: Sphere: parameter \"Cs\" (color) needs "
           "numeric values",
           "test.rib:3:24: error: Surface: parameter \"Kd\" (float) needs "
           "numeric values",
           /* a malformed argument skips its whole request */
           "test.rib:4:25: error: Surface: array mixes numbers and strings",
           "test.rib:5:7: error: Color: expected 3 numbers for the color",
           "test.rib:6:7: error: Sides: expected an integer in [1, 2] for "
           "sides (1 or 2), got 3",
           "test.rib:7:7: error: Sides: expected an integer in [1, 2] for "
           "sides (1 or 2), got 1.5",
           "test.rib:8:13: error: Orientation: expected a string for the "
           "orientation",
           "test.rib:9:13: error: Orientation: unknown orientation "
           "\"sideways\" (lh, rh, inside, outside)",
           "test.rib:10:18: error: Basis: unknown basis \"nurbs\"",
           /* reported once for the run of stray values */
           "test.rib:11:14: error: Disk: expected a parameter name", NULL);
    /* each bad parameter is dropped, the primitive kept */
    ck_assert_str_eq(prims(s), "Sphere Disk");
    ck_assert_uint_eq(mesh_at(s, 0)->nprimvars, 0);
    const RibShader *sh = mesh_at(s, 1)->attrs->surface;
    ck_assert_ptr_nonnull(sh);
    ck_assert_str_eq(sh->name, "plastic");
    ck_assert_uint_eq(sh->nparams, 1);
    ck_assert_str_eq(sh->params[0].name, "Ka");
    ck_assert_int_eq(mesh_at(s, 1)->attrs->sides, 2);
    /* reading resumed at the parameter name after the stray values */
    ck_assert_ptr_nonnull(rib_mesh_primvar(mesh_at(s, 1), "Kd"));
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_malformed_arrays)
{
    RibDiag d;
    RibScene *s = world("Translate [1 [2] 3]\nDisk 0 1 360 ]\n"
                        "Sphere [1 -1 1 360\nCylinder 1 0 1 360",
                        &d);
    expect(&d, "test.rib:2:14: error: Translate: nested array",
           "test.rib:2:19: error: Translate: unexpected ']'",
           "test.rib:3:14: error: Disk: unexpected ']'",
           "test.rib:5:1: error: Sphere: request \"Cylinder\" inside the "
           "array opened at 4:8 (missing ']')",
           NULL);
    /* reading goes on at the request that ended the array */
    ck_assert_str_eq(prims(s), "Cylinder");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_stray_values)
{
    RibDiag d;
    RibScene *s = load_text("1 2 \"x\"\nWorldBegin 3\nDisk 0 1 360\n"
                            "WorldEnd\n",
                            &d);
    expect(&d, "test.rib:1:1: error: expected a request name",
           "test.rib:2:12: error: WorldBegin: too many arguments", NULL);
    /* the Begin still opened its block */
    ck_assert_str_eq(prims(s), "Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_request_in_wrong_place)
{
    RibDiag d;
    RibScene *s = load_text("Sphere 1 -1 1 360\nObjectBegin 1\n"
                            "LightSource \"pointlight\" 1\nObjectEnd\n"
                            "WorldBegin\nFormat 10 10 1\nDisk 0 1 360\n"
                            "WorldEnd\n",
                            &d);
    expect(&d, "test.rib:1:1: error: Sphere outside WorldBegin/WorldEnd",
           "test.rib:3:1: error: LightSource inside an object defined outside "
           "WorldBegin/WorldEnd",
           "test.rib:6:1: error: Format is an option and must come before "
           "WorldBegin",
           NULL);
    ck_assert_int_eq(only_frame(s)->options.xres, 640);
    ck_assert_str_eq(prims(s), "Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Imager inside the world (PRMan's examples do it) is the frame's, with
   a warning; the next frame does not keep it. */
START_TEST(test_imager_inside_world)
{
    RibDiag d;
    RibScene *s = load_text("FrameBegin 1\nWorldBegin\nImager \"background\"\nWorldEnd\n"
                            "FrameEnd\nFrameBegin 2\nWorldBegin\nWorldEnd\nFrameEnd\n", &d);
    expect(&d, "test.rib:3:1: warning: Imager is an option and belongs before WorldBegin; "
           "applied to this frame", NULL);
    ck_assert_uint_eq(s->nframes, 2);
    ck_assert_ptr_nonnull(s->frames[0].options.imager);
    ck_assert_str_eq(s->frames[0].options.imager->name, "background");
    ck_assert_ptr_null(s->frames[1].options.imager);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A display driver's own parameter is a warning, the display kept;
   --strict makes it an error. */
START_TEST(test_display_driver_parameter)
{
    const char *text = "Display \"x.exr\" \"exr\" \"rgba\" \"compression\" \"zip\"\n"
                       "WorldBegin\nWorldEnd\n";
    RibDiag d;
    RibScene *s = load_text(text, &d);
    expect(&d, "test.rib:1:30: warning: Display: undeclared parameter \"compression\" ignored "
           "(not one rtrender's displays take)", NULL);
    ck_assert_uint_eq(only_frame(s)->options.ndisplays, 1);
    ck_assert_str_eq(only_frame(s)->options.displays[0].name, "x.exr");
    rib_scene_free(s);
    rib_diag_free(&d);
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.strict = true;
    s = load_text_opt(text, &opt, &d);
    ck_assert_int_eq(d.nerrors, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- parameter lists --------------------------------------------------------- */

START_TEST(test_undeclared_and_malformed_declarations)
{
    RibDiag d;
    RibScene *s = world("Sphere 1 -1 1 360 \"foo\" [1] \"Cs\" [1 0 0 1 0 0 "
                        "1 0 0 1 0 0]\n"
                        "Disk 0 1 360 \"uniform floot x\" 1\n"
                        "Declare \"y\" \"vertex float[0]\"\n"
                        "Declare \"z\" \"float[99999999]\"\n"
                        "Declare \"a b\" \"float\"\n"
                        "Declare \"w\"\n"
                        "Attribute \"visibility\" \"camera\" 1 \"glow\" 1\n"
                        "Cylinder 1 0 1 360 \"y\" 2",
                        &d);
    expect(&d,
           "test.rib:2:19: error: Sphere: undeclared parameter \"foo\" "
           "skipped",
           "test.rib:3:14: error: malformed inline declaration \"uniform "
           "floot x\"",
           "test.rib:4:13: error: Declare: malformed declaration \"vertex "
           "float[0]\"",
           "test.rib:5:13: error: Declare: malformed declaration "
           "\"float[99999999]\"",
           "test.rib:6:9: error: Declare: \"a b\" is not a name",
           "test.rib:7:1: error: Declare: expected a string for the "
           "declaration",
           /* other renderers' attributes are only warned about */
           "test.rib:8:35: warning: Attribute: unknown \"visibility\" "
           "\"glow\" ignored",
           "test.rib:9:20: error: Cylinder: undeclared parameter \"y\" "
           "skipped",
           NULL);
    ck_assert_str_eq(prims(s), "Sphere Disk Cylinder");
    ck_assert_ptr_nonnull(rib_mesh_primvar(mesh_at(s, 0), "Cs"));
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_value_counts)
{
    RibDiag d;
    RibScene *s = world(
        "Polygon \"P\" [0 0 0 1 0 0 1 1]\n"
        "Polygon \"P\" [0 0 0 1 0 0 1 1 0] \"Cs\" [1 0 0 0 1 0]\n"
        "PointsPolygons [3] [0 1 3] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "Polygon \"P\" [0 0 0 1 0 0 1 1 0] \"Os\" [1 1 1 1 1 1 1 1 1 1 1 1]\n"
        "Declare \"name\" \"varying string\"\n"
        "Polygon \"P\" [0 0 0 1 0 0 1 1 0] \"name\" [\"a\" \"b\" \"c\"]\n"
        "Polygon \"P\" [0 0 0 1 0 0]\n"
        "Patch \"bilinear\" \"P\" [0 0 0 1 0 0 0 1 0]\n"
        "Sphere 1 -1 1 360 \"Cs\" [1 0 0]\n"
        "Patch \"bicubic\" \"Pw\" [0 0 0 1 1 0 0]",
        &d);
    expect(&d,
           "test.rib:2:13: error: Polygon: parameter \"P\" has 8 values, not "
           "a positive multiple of 3",
           "test.rib:2:1: error: Polygon: no positions (\"P\" or \"Pw\") "
           "given",
           "test.rib:3:1: error: Polygon: \"Cs\" (varying color) has 2 "
           "values, needs 3",
           "test.rib:4:1: error: PointsPolygons: \"P\" (vertex point) has 3 "
           "values, needs 4",
           "test.rib:5:1: warning: Polygon: \"Os\" (varying) has 4 values, "
           "only 3 used",
           "test.rib:7:1: error: Polygon: string variable \"name\" cannot be "
           "varying",
           "test.rib:8:1: error: Polygon: 2 vertices; a polygon needs 3",
           "test.rib:9:1: error: Patch: \"P\" (vertex point) has 3 values, "
           "needs 4",
           "test.rib:10:1: error: Sphere: \"Cs\" (varying color) has 1 "
           "values, needs 4",
           "test.rib:11:22: error: Patch: parameter \"Pw\" has 7 values, not "
           "a positive multiple of 4",
           "test.rib:11:1: error: Patch: no positions (\"P\", \"Pw\" or "
           "\"Pz\") given",
           NULL);
    /* a short variable is dropped, its primitive kept */
    ck_assert_str_eq(prims(s), "Polygon Polygon Polygon Sphere");
    ck_assert_ptr_null(rib_mesh_primvar(mesh_at(s, 0), "Cs"));
    ck_assert_ptr_nonnull(rib_mesh_primvar(mesh_at(s, 1), "Os"));
    ck_assert_uint_eq(mesh_at(s, 2)->nprimvars, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- huge, negative and non-finite numbers ------------------------------------ */

START_TEST(test_huge_counts)
{
    RibDiag d;
    RibScene *s = world(
        "PointsPolygons [1000000000] [0 1 2] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "GeneralPolygon [2000000000 2000000000 2000000000] "
        "\"P\" [0 0 0 1 0 0 1 1 0]\n"
        "PointsGeneralPolygons [2000000000] [3] [0 1 2] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "PatchMesh \"bilinear\" 1000000000 \"nonperiodic\" 2 \"nonperiodic\" "
        "\"P\" [0 0 0]\n"
        "NuPatch 1000000000 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 \"P\" [0 0 0]\n"
        "PointsPolygons [3] [0 1 2000000000] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "TrimCurve [10000] [3] [0] [0] [1] [3] [0] [0] [0]\n"
        "Sphere 1 -1 1 1e30\nDisk 0 1 360",
        &d);
    expect(&d,
           "test.rib:2:29: error: PointsPolygons: verts has 3 values, but the "
           "counts before it add up to 1000000000",
           "test.rib:3:1: error: GeneralPolygon: \"P\" (vertex point) has 3 "
           "values, needs 6000000000",
           "test.rib:4:36: error: PointsGeneralPolygons: nverts has 1 values, "
           "but the counts before it add up to 2000000000",
           "test.rib:5:1: error: PatchMesh: \"P\" (vertex point) has 1 "
           "values, needs 2000000000",
           "test.rib:6:22: error: NuPatch: 4 knots, expected nu + uorder = "
           "1000000002",
           "test.rib:7:1: error: PointsPolygons: \"P\" (vertex point) has 3 "
           "values, needs 2000000001",
           "test.rib:8:19: error: TrimCurve: order has 1 values, expected "
           "10000",
           "test.rib:9:1: warning: Sphere: thetamax 1e+30 is beyond a full "
           "turn; 360 used",
           NULL);
    ck_assert_str_eq(prims(s), "Sphere Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* The triangle budget stops what honest counts would still make. */
START_TEST(test_triangle_budget)
{
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.max_triangles = 1000;
    RibDiag d;
    RibScene *s = load_text_opt("WorldBegin\nSphere 1 -1 1 360\n"
                                "Polygon \"P\" [0 0 0 1 0 0 1 1 0]\n"
                                "WorldEnd\n",
                                &opt, &d);
    ck_assert_uint_eq(d.nmessages, 1);
    ck_assert_ptr_nonnull(strstr(d.messages[0], "test.rib:2:1: error: "
                                                "Sphere: "));
    ck_assert_ptr_nonnull(strstr(d.messages[0], " triangles would exceed "
                                                "the scene's budget of "
                                                "1000; primitive skipped"));
    ck_assert_str_eq(prims(s), "Polygon");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_negative_counts)
{
    RibDiag d;
    RibScene *s = world(
        "PointsPolygons [-3] [0 1 2] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "GeneralPolygon [3 -3] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "PointsPolygons [3] [0 -1 2] \"P\" [0 0 0 1 0 0 1 1 0]\n"
        "PointsGeneralPolygons [0] [] [] \"P\" [0 0 0]\n"
        "PatchMesh \"bilinear\" -2 \"nonperiodic\" 2 \"nonperiodic\" \"P\" [0 0 0]\n"
        "NuPatch -2 2 [0 0 1 1] 0 1 2 2 [0 0 1 1] 0 1 \"P\" [0 0 0]\n"
        "Polygon \"P\" [0 0 0 1 0 0 1 1 0]",
        &d);
    expect(&d,
           "test.rib:2:16: error: PointsPolygons: expected an integer in [3, "
           "2147483647] for nverts[0], got -3",
           "test.rib:3:16: error: GeneralPolygon: expected an integer in [3, "
           "2147483647] for nverts[1], got -3",
           "test.rib:4:20: error: PointsPolygons: expected an integer in [0, "
           "2147483647] for verts[1], got -1",
           "test.rib:5:23: error: PointsGeneralPolygons: expected an integer "
           "in [1, 2147483647] for nloops[0], got 0",
           "test.rib:6:22: error: PatchMesh: expected an integer in [1, "
           "2147483647] for nu, got -2",
           "test.rib:7:9: error: NuPatch: expected an integer in [1, "
           "2147483647] for nu, got -2",
           NULL);
    ck_assert_str_eq(prims(s), "Polygon");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* RIB has no NaN or infinity: numbers beyond a float are errors that skip
   their request, and transforms that would overflow are refused. */
START_TEST(test_non_finite_numbers)
{
    RibDiag d;
    char body[1024] = "Sphere 1e39 -1 1 360\nSphere nan -1 1 360\n"
                      "Translate 0 -inf 0\n";
    for (int i = 0; i < 11; i++)
        strcat(body, "Scale 1e30 1e30 1e30\n");
    strcat(body, "Disk 0 1 360");
    RibScene *s = world(body, &d);
    expect(&d, "test.rib:2:8: error: number out of range: 1e39",
           "test.rib:3:1: error: Sphere: expected 4 numbers for radius zmin "
           "zmax thetamax",
           "test.rib:3:8: warning: unknown request \"nan\" skipped",
           "test.rib:4:13: error: malformed number",
           "test.rib:15:1: error: Scale: the current transform would "
           "overflow; request skipped",
           NULL);
    const RibMesh *m = mesh_at(s, 0);
    ck_assert_str_eq(m->prim, "Disk");
    for (int i = 0; i < 16; i++)
        ck_assert(isfinite(m->object_to_world.m[i]));
    ck_assert_near(m->object_to_world.m[0], 1e300, 1e285);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- blocks ------------------------------------------------------------------- */

/* text must fail to load with exactly the messages given. */
static void expect_fatal(const char *text, const char *m1, const char *m2)
{
    RibDiag d;
    RibScene *s = load_text(text, &d);
    ck_assert_ptr_null(s);
    expect(&d, m1, m2, NULL);
    rib_diag_free(&d);
}

START_TEST(test_unbalanced_blocks)
{
    expect_fatal("WorldEnd\n",
                 "test.rib:1:1: error: WorldEnd without matching WorldBegin",
                 NULL);
    expect_fatal("WorldBegin\nAttributeEnd\nWorldEnd\n",
                 "test.rib:2:1: error: AttributeEnd does not match "
                 "WorldBegin at test.rib:1:1",
                 NULL);
    expect_fatal("WorldBegin\nAttributeBegin\nSphere 1 -1 1 360\nWorldEnd\n",
                 "test.rib:4:1: error: WorldEnd does not match "
                 "AttributeBegin at test.rib:2:1",
                 NULL);
    expect_fatal("FrameBegin 1\nWorldBegin\nWorldEnd\nFrameEnd\nFrameEnd\n",
                 "test.rib:5:1: error: FrameEnd without matching FrameBegin",
                 NULL);
    expect_fatal("FrameBegin 1\nWorldBegin\nFrameEnd\n",
                 "test.rib:3:1: error: FrameEnd does not match WorldBegin at "
                 "test.rib:2:1",
                 NULL);
    expect_fatal("WorldBegin\nTransformBegin\nAttributeEnd\n",
                 "test.rib:3:1: error: AttributeEnd does not match "
                 "TransformBegin at test.rib:2:1",
                 NULL);
    expect_fatal("WorldBegin\nObjectEnd\n",
                 "test.rib:2:1: error: ObjectEnd does not match WorldBegin "
                 "at test.rib:1:1",
                 NULL);
    expect_fatal("WorldBegin\nWorldBegin\n",
                 "test.rib:2:1: error: WorldBegin inside WorldBegin at "
                 "test.rib:1:1",
                 NULL);
    expect_fatal("FrameBegin 1\nFrameBegin 2\n",
                 "test.rib:2:1: error: FrameBegin inside FrameBegin at "
                 "test.rib:1:1",
                 NULL);
    expect_fatal("ObjectBegin 1\nObjectBegin 2\n",
                 "test.rib:2:1: error: ObjectBegin inside ObjectBegin at "
                 "test.rib:1:1",
                 NULL);
    /* at the end of the file, innermost first */
    expect_fatal("WorldBegin\nAttributeBegin\n",
                 "test.rib:2:1: error: AttributeBegin has no matching "
                 "AttributeEnd",
                 "test.rib:1:1: error: WorldBegin has no matching WorldEnd");
}
END_TEST

/* A Begin or End with wrong, even malformed, arguments still opens or
   closes its block. */
START_TEST(test_bad_begin_still_opens)
{
    RibDiag d;
    RibScene *s = load_text("FrameBegin \"one\"\nWorldBegin\n"
                            "AttributeBegin 1\nDisk 0 1 360\nAttributeEnd\n"
                            "SolidBegin\nSolidEnd\nTransformBegin ]\n"
                            "TransformEnd 1.2.3\nWorldEnd [\"x\" 1]\n"
                            "FrameEnd\n",
                            &d);
    expect(&d, "test.rib:1:12: error: FrameBegin: expected an integer for "
               "the frame number",
           "test.rib:3:16: error: AttributeBegin: too many arguments",
           "test.rib:6:1: error: SolidBegin: expected a string for the "
           "operation",
           "test.rib:6:1: warning: CSG is not supported; the solid's parts "
           "are rendered as they are",
           "test.rib:8:16: error: TransformBegin: unexpected ']'",
           "test.rib:9:14: error: malformed number",
           "test.rib:10:15: error: WorldEnd: array mixes numbers and strings",
           NULL);
    ck_assert_int_eq(only_frame(s)->number, -1);
    ck_assert_str_eq(prims(s), "Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_too_many_errors)
{
    char text[2048] = "";
    for (int i = 0; i < 120; i++)
        strcat(text, "Bogus\n");
    RibDiag d;
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.strict = true;  /* unknown requests are errors */
    RibScene *s = load_text_opt(text, &opt, &d);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(d.nerrors, 101);
    ck_assert_str_eq(d.messages[99], "test.rib:100:1: error: unknown request "
                                     "\"Bogus\" skipped");
    ck_assert_str_eq(d.messages[100], "test.rib:100:1: error: too many "
                                      "errors, giving up");
    rib_diag_free(&d);
}
END_TEST

/* ---- the lexer: strings, arrays and files cut short ------------------------------- */

START_TEST(test_unterminated_string)
{
    /* the string runs to the end of the file; nothing else is blamed on
       the request it was in */
    expect_fatal("WorldBegin\nSurface \"plastic\nWorldEnd\n",
                 "test.rib:2:9: error: unterminated string",
                 "test.rib:1:1: error: WorldBegin has no matching WorldEnd");
}
END_TEST

START_TEST(test_unterminated_array)
{
    expect_fatal("WorldBegin\nSphere [1 -1 1 360",
                 "test.rib:2:8: error: Sphere: unterminated array at end of "
                 "file",
                 "test.rib:1:1: error: WorldBegin has no matching WorldEnd");
}
END_TEST

START_TEST(test_truncated_file)
{
    /* cut inside a request: it is short of arguments */
    expect_fatal("WorldBegin\nDisk 0 1 360\nSphere 1 -1",
                 "test.rib:3:1: error: Sphere: expected 4 numbers for radius "
                 "zmin zmax thetamax",
                 "test.rib:1:1: error: WorldBegin has no matching WorldEnd");
    /* cut inside a number or a request name */
    expect_fatal("WorldBegin\nDisk 0 1 3e",
                 "test.rib:2:10: error: malformed number",
                 "test.rib:1:1: error: WorldBegin has no matching WorldEnd");
    expect_fatal("WorldBegin\nWorldE",
                 "test.rib:2:1: warning: unknown request \"WorldE\" skipped",
                 "test.rib:1:1: error: WorldBegin has no matching WorldEnd");
    /* an empty file is an empty scene */
    RibDiag d;
    RibScene *s = load_text("", &d);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->nframes, 0);
    ck_assert_uint_eq(d.nmessages, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* Writes text gzip'd to dir/name, cut to keep bytes (0: whole), with byte
   flip (if below the size) inverted; returns the path (static). */
static const char *write_gz(const char *dir, const char *name,
                            const char *text, long keep, long flip)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    gzFile gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    gzputs(gz, text);
    gzclose(gz);
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    if (flip >= 0 && flip < size) {
        fseek(f, flip, SEEK_SET);
        int ch = fgetc(f);
        fseek(f, flip, SEEK_SET);
        fputc(ch ^ 0xff, f);
    }
    if (keep > 0)
        ck_assert_int_eq(ftruncate(fileno(f), keep), 0);
    fclose(f);
    return path;
}

/* Loads path, which must fail with the one message file + suffix. */
static void expect_damaged(const char *path, const char *suffix)
{
    RibDiag d;
    RibScene *s = load_path(path, NULL, &d);
    ck_assert_ptr_null(s);
    char want[1024];
    snprintf(want, sizeof want, "%s%s", path, suffix);
    expect(&d, want, NULL);
    rib_diag_free(&d);
}

START_TEST(test_damaged_gzip)
{
    const char *dir = temp_dir();
    const char *text = "WorldBegin\nDisk 0 1 360\nWorldEnd\n";
    /* cut in the middle of the compressed stream: the name is cut too,
       and nothing of it is dispatched */
    expect_damaged(write_gz(dir, "cut.rib.gz", text, 20, -1),
                   ":1:10: error: read error: unexpected end of file");
    /* the gzip header alone */
    expect_damaged(write_gz(dir, "header.rib.gz", text, 10, -1),
                   ":1:1: error: read error: unexpected end of file");
    /* a damaged checksum: the data read may not be what was written */
    long size;
    struct stat sb;
    write_gz(dir, "probe.rib.gz", text, 0, -1);
    ck_assert_int_eq(stat(write_gz(dir, "probe.rib.gz", text, 0, -1), &sb),
                     0);
    size = (long)sb.st_size;
    expect_damaged(write_gz(dir, "crc.rib.gz", text, 0, size - 6),
                   ":1:1: error: read error: incorrect data check");
    /* the same in an archive stops the whole load */
    write_gz(dir, "part.rib.gz", text + 11, 20, -1);
    const char *main_path = write_file(dir, "main.rib",
                                       "WorldBegin\nReadArchive "
                                       "\"part.rib.gz\"\nWorldEnd\n");
    RibDiag d;
    ck_assert_ptr_null(load_path(main_path, NULL, &d));
    ck_assert_uint_eq(d.nerrors, 1);
    ck_assert_ptr_nonnull(strstr(d.messages[0], "/part.rib.gz:"));
    ck_assert_ptr_nonnull(strstr(d.messages[0], ": error: read error: "
                                                "unexpected end of file"));
    rib_diag_free(&d);
}
END_TEST

/* ---- archives ------------------------------------------------------------------- */

/* Each message of d, with dir + "/" taken out, must equal the next of
   the NULL-terminated list. */
static void expect_in(const RibDiag *d, const char *dir, ...)
{
    va_list ap;
    va_start(ap, dir);
    size_t n = 0, dl = strlen(dir);
    for (const char *want; (want = va_arg(ap, const char *)); n++) {
        ck_assert_msg(n < d->nmessages, "missing diagnostic \"%s\"", want);
        char got[1024];
        const char *m = d->messages[n];
        size_t k = 0;
        while (*m && k + 1 < sizeof got) {
            if (strncmp(m, dir, dl) == 0 && m[dl] == '/')
                m += dl + 1;
            else
                got[k++] = *m++;
        }
        got[k] = '\0';
        ck_assert_str_eq(got, want);
    }
    va_end(ap);
    ck_assert_msg(n == d->nmessages, "unexpected diagnostic \"%s\"",
                  n < d->nmessages ? d->messages[n] : "");
}

START_TEST(test_missing_archive)
{
    const char *dir = temp_dir();
    const char *path = write_file(
        dir, "main.rib",
        "WorldBegin\nReadArchive \"nowhere.rib\"\n"
        "Procedural \"DelayedReadArchive\" [\"gone.rib\"] [-1 1 -1 1 -1 1]\n"
        "ReadArchive 12\nProcedural \"RunProgram\" [\"x\" \"\"] [0 1 0 1 0 1]\n"
        "ReadArchive \".\"\nDisk 0 1 360\nWorldEnd\n");
    RibDiag d;
    RibScene *s = load_path(path, NULL, &d);
    expect_in(&d, dir,
              "main.rib:2:13: error: ReadArchive: cannot find archive "
              "\"nowhere.rib\"",
              "main.rib:3:33: error: Procedural: cannot find archive "
              "\"gone.rib\"",
              "main.rib:4:13: error: ReadArchive: expected a string for the "
              "file name",
              "main.rib:5:1: warning: Procedural \"RunProgram\" is not "
              "supported; ignored",
              "main.rib:6:13: error: ReadArchive: \".\" is not a regular "
              "file", NULL);
    ck_assert_str_eq(prims(s), "Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ReadArchive of a device would stream forever: refused at the request. */
START_TEST(test_archive_device)
{
    RibDiag d;
    RibScene *s = world("ReadArchive \"/dev/zero\"\nDisk 0 1 360", &d);
    expect(&d, "test.rib:2:13: error: ReadArchive: \"/dev/zero\" is not a regular file", NULL);
    ck_assert_str_eq(prims(s), "Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* An archive that reads itself, directly or through another, is an error
   at the request that would close the loop, never endless recursion. */
START_TEST(test_recursive_archive)
{
    const char *dir = temp_dir();
    write_file(dir, "self.rib", "Disk 0 1 360\nReadArchive \"self.rib\"\n"
                                "ReadArchive \"self.rib\"\n");
    write_file(dir, "a.rib", "ReadArchive \"b.rib\"\n");
    write_file(dir, "b.rib", "Cylinder 1 0 1 360\nReadArchive \"a.rib\"\n");
    const char *path = write_file(
        dir, "main.rib",
        "WorldBegin\nReadArchive \"self.rib\"\nReadArchive \"a.rib\"\n"
        "ReadArchive \"main.rib\"\nSphere 1 -1 1 360\nWorldEnd\n");
    RibDiag d;
    RibScene *s = load_path(path, NULL, &d);
    expect_in(&d, dir,
              "self.rib:2:13: error: ReadArchive: \"self.rib\" is already "
              "being read; an archive cannot include itself",
              "self.rib:3:13: error: ReadArchive: \"self.rib\" is already "
              "being read; an archive cannot include itself",
              "b.rib:2:13: error: ReadArchive: \"a.rib\" is already being "
              "read; an archive cannot include itself",
              "main.rib:4:13: error: ReadArchive: \"main.rib\" is already "
              "being read; an archive cannot include itself",
              NULL);
    ck_assert_str_eq(prims(s), "Disk Cylinder Sphere");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* A chain of distinct archives deeper than the limit stops at it. */
START_TEST(test_archive_depth_limit)
{
    const char *dir = temp_dir();
    char name[32], text[64];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "a%d.rib", i);
        snprintf(text, sizeof text, "Disk 0 1 360\nReadArchive \"a%d.rib\"\n",
                 i + 1);
        write_file(dir, name, text);
    }
    const char *path = write_file(dir, "main.rib", "WorldBegin\nReadArchive "
                                                   "\"a0.rib\"\nWorldEnd\n");
    RibLoadOptions opt;
    rib_load_options_init(&opt);
    opt.max_archive_depth = 3;
    RibDiag d;
    RibScene *s = load_path(path, &opt, &d);
    expect_in(&d, dir,
              "a2.rib:2:1: error: ReadArchive: archives nested deeper than 3; "
              "\"a3.rib\" not read",
              NULL);
    ck_assert_str_eq(prims(s), "Disk Disk Disk");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- handles ------------------------------------------------------------------- */

START_TEST(test_unknown_object)
{
    RibDiag d;
    RibScene *s = load_text(
        "ObjectBegin 3\nObjectInstance 3\nSphere 1 -1 1 360\nObjectEnd\n"
        "WorldBegin\nObjectInstance \"3\"\nObjectInstance 7\n"
        "ObjectInstance 3 5\nObjectInstance 2.5\nObjectInstance 3\n"
        "WorldEnd\n",
        &d);
    expect(&d,
           "test.rib:2:1: error: ObjectInstance: object \"3\" instanced "
           "inside its own definition",
           /* the string "3" is not the number 3 */
           "test.rib:6:16: error: ObjectInstance: no object \"3\"",
           "test.rib:7:16: error: ObjectInstance: no object \"7\"",
           "test.rib:8:18: error: ObjectInstance: too many arguments",
           "test.rib:9:16: error: ObjectInstance: expected an integer in "
           "[-2147483647, 2147483647] for the object handle, got 2.5",
           NULL);
    const RibFrame *f = only_frame(s);
    ck_assert_uint_eq(f->ninstances, 1);
    ck_assert_str_eq(f->instances[0].object->handle, "3");
    ck_assert_uint_eq(f->instances[0].object->nmeshes, 1);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_unknown_light)
{
    RibDiag d;
    RibScene *s = load_text(
        "FrameBegin 1\nWorldBegin\nLightSource \"pointlight\" 1\nWorldEnd\n"
        "FrameEnd\nFrameBegin 2\nWorldBegin\n"
        "Illuminate 1 1\nIlluminate \"key\" 0\nLightSource \"spotlight\" "
        "\"key\"\nIlluminate \"key\" 2\nIlluminate \"key\"\n"
        "LightSource 5\nIlluminate \"key\" 0\nDisk 0 1 360\nWorldEnd\n"
        "FrameEnd\n",
        &d);
    expect(&d,
           /* handles belong to their frame */
           "test.rib:8:12: error: Illuminate: no light \"1\"",
           "test.rib:9:12: error: Illuminate: no light \"key\"",
           "test.rib:11:18: error: Illuminate: expected an integer in [0, "
           "1] for on/off, got 2",
           "test.rib:12:1: error: Illuminate: expected an integer for "
           "on/off",
           "test.rib:13:13: error: LightSource: expected a string for the "
           "shader name",
           NULL);
    ck_assert_uint_eq(s->nframes, 2);
    const RibFrame *f = &s->frames[1];
    ck_assert_uint_eq(f->nlights, 1);
    ck_assert_str_eq(f->lights[0]->handle, "key");
    ck_assert_uint_eq(f->meshes[0].attrs->nlights, 0);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ribinfo prints the diagnostics and exits 1 after errors, 2 when the
   file did not load, 0 when it loaded cleanly. */
START_TEST(test_ribinfo_exit_status)
{
    Run r = run_program(RIB_TEST_DATA, RIBINFO_PATH, "bad.rib");
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err,
                     "bad.rib:4:3: error: Sphere: expected 4 numbers for "
                     "radius zmin zmax thetamax\n"
                     "bad.rib:5:15: error: Polygon: parameter \"P\" has 8 "
                     "values, not a positive multiple of 3\n"
                     "bad.rib:5:3: error: Polygon: no positions (\"P\" or "
                     "\"Pw\") given\n"
                     "bad.rib:8:1: error: WorldEnd does not match "
                     "AttributeBegin at bad.rib:7:3\n");
    ck_assert_str_eq(r.out, "errors 4, warnings 0 (loading failed)\n");
    run_free(&r);

    const char *dir = temp_dir();
    write_file(dir, "skip.rib", "WorldBegin\nBogus 1\nColor 1\nDisk 0 1 360\n"
                                "WorldEnd\n");
    r = run_program(dir, RIBINFO_PATH, "skip.rib");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.err, "skip.rib:2:1: warning: unknown request \"Bogus\" "
                            "skipped\n"
                            "skip.rib:3:1: error: Color: expected 3 numbers for "
                            "the color\n");
    ck_assert_ptr_nonnull(strstr(r.out, "meshes 1,"));
    run_free(&r);
    /* warnings alone: a clean load */
    write_file(dir, "warn.rib", "WorldBegin\nBogus 1\nDisk 0 1 360\nWorldEnd\n");
    r = run_program(dir, RIBINFO_PATH, "warn.rib");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "warn.rib:2:1: warning: unknown request \"Bogus\" "
                            "skipped\n");
    run_free(&r);

    r = run_program(dir, RIBINFO_PATH, "missing.rib");
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "missing.rib: error: cannot open: No such file "
                            "or directory\n");
    run_free(&r);

    r = run_program(RIB_TEST_DATA, RIBINFO_PATH, "frames.rib");
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.err, "");
    run_free(&r);
}
END_TEST

START_TEST(test_bad_options)
{
    RibDiag d;
    RibScene *s = load_text(
        "Format 640 480 -1\nFormat 0.5 2 1\nFrameAspectRatio 0\n"
        "ScreenWindow 1 2 3\nCropWindow 0.5 0.2 0 1\nProjection \"fisheye\"\n"
        "Projection \"perspective\" \"fov\" -10\n"
        "Projection \"perspective\" \"fov\" 200\nClipping 10 1\n"
        "Clipping -1 10\nPixelSamples 0 1\nPixelFilter \"box\" 0 1\n"
        "Exposure 1\nQuantize \"rgba\" 255 0\nQuantize \"alpha\" 1 0 1 0\n"
        "Display \"x.tif\"\nDisplay \"x.tif\" \"jpeg\" \"rgb\"\n"
        "Display \"x.tif\" \"tiff\" \"cmyk\"\nHider 3\nOption 3\n"
        "Option \"limits\" \"bucketsize\" [16]\nImager 4\n"
        "ColorSamples [1 2]\nWorldBegin\nWorldEnd\n",
        &d);
    expect(&d,
           "test.rib:2:1: error: Format: resolution 0.5x2 is not a pair of "
           "integers in [1, 1048576]",
           "test.rib:3:1: error: FrameAspectRatio: the frame aspect ratio "
           "must be positive, got 0",
           "test.rib:4:1: error: ScreenWindow: expected 4 numbers for left "
           "right bottom top",
           "test.rib:5:1: error: CropWindow: [0.5 0.2 0 1] is not a window "
           "inside [0 1 0 1]",
           "test.rib:6:12: warning: Projection \"fisheye\" is not supported; "
           "using orthographic",
           "test.rib:7:1: error: Projection: fov -10 is not in (0, 180)",
           "test.rib:8:1: error: Projection: fov 200 is not in (0, 180)",
           "test.rib:9:1: error: Clipping: need 0 < near < far, got 10 1",
           "test.rib:10:1: error: Clipping: need 0 < near < far, got -1 10",
           "test.rib:11:1: error: PixelSamples: the sample counts must be "
           "positive, got 0",
           "test.rib:12:1: error: PixelFilter: the filter widths must be "
           "positive, got 0",
           "test.rib:13:1: error: Exposure: expected 2 numbers for gain "
           "gamma",
           "test.rib:14:1: error: Quantize: expected 4 numbers for one min "
           "max dither",
           "test.rib:15:10: error: Quantize: unknown type \"alpha\" (rgba, z)",
           "test.rib:16:1: error: Display: expected a string for the type",
           "test.rib:17:17: warning: Display type \"jpeg\" is not supported; "
           "writing a file",
           "test.rib:18:24: warning: Display mode \"cmyk\" is not supported",
           "test.rib:19:7: error: Hider: expected a string for the hider",
           "test.rib:20:8: error: Option: expected a string for the category",
           "test.rib:21:30: error: Option: parameter \"limits:bucketsize\" "
           "has 1 values, not a positive multiple of 2",
           "test.rib:22:8: error: Imager: expected a string for the shader "
           "name",
           "test.rib:23:1: warning: ColorSamples: only 3 color samples (RGB) "
           "are supported; ignored",
           NULL);
    /* the bad options left the defaults (a non-positive pixel aspect
       ratio keeps the default, as RISpec says); a bad fov is dropped like
       any bad parameter, and the projection kept */
    const RibOptions *o = &only_frame(s)->options;
    ck_assert_int_eq(o->xres, 640);
    ck_assert_near(o->pixel_aspect, 1, 0);
    ck_assert_near(o->crop[1], 1, 0);
    ck_assert_int_eq(o->projection, RIB_PROJ_PERSPECTIVE);
    ck_assert_near(o->fov, 90, 0);
    ck_assert_near(o->pixel_samples[0], 2, 0);
    ck_assert_uint_eq(o->ndisplays, 1);
    ck_assert_int_eq(o->displays[0].type, RIB_DISPLAY_TIFF);
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

START_TEST(test_bad_patches)
{
    RibDiag d;
    RibScene *s = world(
        "Patch \"bicubics\" \"P\" [0 0 0]\n"
        "PatchMesh \"bicubic\" 5 \"nonperiodic\" 4 \"nonperiodic\" \"P\" [0 0 0]\n"
        "PatchMesh \"bicubic\" 4 \"sometimes\" 4 \"nonperiodic\" \"P\" [0 0 0]\n"
        "PatchMesh \"bilinear\" 1 \"nonperiodic\" 2 \"nonperiodic\" "
        "\"P\" [0 0 0 1 0 0]\n"
        "Basis \"bezier\" 0 \"bezier\" 3\nBasis [1 2 3] 3 \"bezier\" 3\n"
        "PatchMesh \"bicubic\" 4 \"periodic\" 1 \"nonperiodic\" \"Pz\" [0 0 0 0]\n"
        "CoordSysTransform \"nowhere\"\nCoordinateSystem 3\n"
        "Patch \"bilinear\" \"Pz\" [0 0 0 1]",
        &d);
    expect(&d,
           "test.rib:2:7: error: Patch: unknown type \"bicubics\" (bilinear, "
           "bicubic)",
           "test.rib:3:1: error: PatchMesh: nu = 5 does not fit a "
           "nonperiodic bicubic mesh with ustep 3",
           "test.rib:4:23: error: PatchMesh: unknown wrap mode \"sometimes\" "
           "(periodic, nonperiodic)",
           "test.rib:5:1: error: PatchMesh: a bilinear mesh needs nu >= 2",
           "test.rib:6:16: error: Basis: expected an integer in [1, 4] for "
           "the step, got 0",
           "test.rib:7:7: error: Basis: expected 16 numbers for the basis "
           "matrix, got an array of 3",
           "test.rib:8:1: error: PatchMesh: nu = 4 does not fit a periodic "
           "bicubic mesh with ustep 3",
           "test.rib:9:19: error: CoordSysTransform: unknown coordinate "
           "system \"nowhere\"",
           "test.rib:10:18: error: CoordinateSystem: expected a string for "
           "the name",
           NULL);
    ck_assert_str_eq(prims(s), "Patch");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

/* ---- inputs the fuzzer found --------------------------------------------------- */

/* A plain Display name with no displays yet copied nothing from a NULL
   list: undefined behaviour UBSan reported (fuzz-rib, options.c). */
START_TEST(test_fuzz_first_display)
{
    RibDiag d;
    RibScene *s = load_text("Display \"a.tif\" \"tiff\" \"rgb\"\n"
                            "Display \"+b.exr\" \"exr\" \"z\"\n"
                            "Display \"c.png\" \"png\" \"rgba\"\n"
                            "WorldBegin\nWorldEnd\n",
                            &d);
    ck_assert_uint_eq(d.nmessages, 0);
    const RibOptions *o = &only_frame(s)->options;
    ck_assert_uint_eq(o->ndisplays, 1);
    ck_assert_str_eq(o->displays[0].name, "c.png");
    rib_scene_free(s);
    rib_diag_free(&d);
}
END_TEST

Suite *errors_suite(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, NULL, remove_temp_dirs);
    tcase_add_test(tc, test_unknown_request);
    tcase_add_test(tc, test_wrong_arity);
    tcase_add_test(tc, test_wrong_types);
    tcase_add_test(tc, test_malformed_arrays);
    tcase_add_test(tc, test_stray_values);
    tcase_add_test(tc, test_request_in_wrong_place);
    tcase_add_test(tc, test_imager_inside_world);
    tcase_add_test(tc, test_display_driver_parameter);
    tcase_add_test(tc, test_undeclared_and_malformed_declarations);
    tcase_add_test(tc, test_value_counts);
    tcase_add_test(tc, test_huge_counts);
    tcase_add_test(tc, test_triangle_budget);
    tcase_add_test(tc, test_negative_counts);
    tcase_add_test(tc, test_non_finite_numbers);
    tcase_add_test(tc, test_unbalanced_blocks);
    tcase_add_test(tc, test_bad_begin_still_opens);
    tcase_add_test(tc, test_too_many_errors);
    tcase_add_test(tc, test_unterminated_string);
    tcase_add_test(tc, test_unterminated_array);
    tcase_add_test(tc, test_truncated_file);
    tcase_add_test(tc, test_damaged_gzip);
    tcase_add_test(tc, test_missing_archive);
    tcase_add_test(tc, test_recursive_archive);
    tcase_add_test(tc, test_archive_depth_limit);
    tcase_add_test(tc, test_unknown_object);
    tcase_add_test(tc, test_unknown_light);
    tcase_add_test(tc, test_ribinfo_exit_status);
    tcase_add_test(tc, test_bad_options);
    tcase_add_test(tc, test_archive_device);
    tcase_add_test(tc, test_bad_patches);
    tcase_add_test(tc, test_fuzz_first_display);
    suite_add_tcase(s, tc);
    return s;
}
