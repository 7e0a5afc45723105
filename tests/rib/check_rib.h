/*
** check_rib.h: helpers shared by the RIB reader's test files: loading RIB
** text from memory or temporary files, and measuring meshes.
*/
#ifndef TESTS_RIB_CHECK_RIB_H
#define TESTS_RIB_CHECK_RIB_H

#include <check.h>
#include <math.h>

#include "render/rib/scene.h"

/* Loads text as "test.rib"; diag must be rib_diag_free'd. */
RibScene *load_text(const char *text, RibDiag *diag);
/* The same with load options. */
RibScene *load_text_opt(const char *text, const RibLoadOptions *opt,
                        RibDiag *diag);
/* A fresh temporary directory (removed by the suite's teardown). */
const char *temp_dir(void);
void remove_temp_dirs(void);
/* Writes text to dir/name and returns the path (static buffer). */
const char *write_file(const char *dir, const char *name, const char *text);

/* The only frame of s, checked. */
const RibFrame *only_frame(const RibScene *s);
/* Mesh i of the only frame. */
const RibMesh *mesh_at(const RibScene *s, size_t i);
/* Sum of triangle areas, in object space. */
double mesh_area(const RibMesh *m);
/* Vertex k as doubles. */
void vertex(const RibMesh *m, size_t k, double p[3]);
/* Unnormalised normal of triangle t. */
void tri_normal(const RibMesh *m, size_t t, double n[3]);

/* Asserts that diag holds a message containing text. */
#define ck_assert_diag(diag, text)                                            \
    ck_assert_msg(rib_diag_find((diag), (text)) != NULL,                      \
                  "no diagnostic containing \"%s\"", (text))

#define ck_assert_near(a, b, tol)                                             \
    ck_assert_msg(fabs((double)(a) - (double)(b)) <= (tol),                   \
                  "%s = %.9g, expected %.9g (+-%g)", #a, (double)(a),          \
                  (double)(b), (double)(tol))

Suite *lex_suite(void);
Suite *state_suite(void);
Suite *quadric_suite(void);
Suite *polygon_suite(void);
Suite *patch_suite(void);
Suite *subdiv_suite(void);
Suite *curves_suite(void);
Suite *errors_suite(void);

#endif /* TESTS_RIB_CHECK_RIB_H */
