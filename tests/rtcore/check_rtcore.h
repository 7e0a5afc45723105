/*
** check_rtcore.h: what the rtcore Check suites share: test meshes, ray
** sets, a runner that traces rays with any kernel of a device, and the
** brute-force oracle with the assertions that hold a kernel to it.
*/
#ifndef CHECK_RTCORE_H
#define CHECK_RTCORE_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtcore/include/rtcore.h"

/* A triangle mesh the tests own. */
typedef struct TMesh {
    float *v;
    size_t nv;
    uint32_t *idx;
    size_t nt;
} TMesh;

TMesh tm_grid(int n, float scale, uint32_t seed);     /* bumpy n x n grid in [0,scale]^2 */
TMesh tm_soup(int n, float scale, uint32_t seed);     /* random triangles, some degenerate */
TMesh tm_sphere(int rings, int segs, float r);        /* closed UV sphere around 0 */
TMesh tm_copy_xfm(const TMesh *m, const float xfm[12]);
void tm_free(TMesh *m);

/* Every way rtcore traces a ray: the kernels, and the scalar tree walk. */
typedef enum {
    K_SINGLE, K_PACKET4, K_PACKET8, K_PACKET16, K_STREAM, K_TRAV1, K_COUNT
} Kern;
extern const char *const kern_names[K_COUNT];

/* The ISAs rtcore has kernels for; test_isas lists, as device config
   strings, those this CPU can run, and test_isas_missing how many it
   cannot (their tests are skipped, and the run says so). */
enum { TEST_ISAS = 3 };
int test_isas(const char *cfg[TEST_ISAS]);
int test_isas_missing(void);

/* Traces n rays in place with kernel k (hits preset to invalid by the
   caller). Packet kernels mask some lanes off and check that those come
   back untouched, then trace them in a second round. */
void run_intersect(Kern k, RTScene s, RTRayHit *rh, size_t n);
void run_occluded(Kern k, RTScene s, RTRay *r, size_t n);
/* Occlusion by rtOccludedNp's group kernel, which it keeps for large
   scenes (rt_occluded_groups). */
void run_occluded_groups(RTScene s, RTRay *r, size_t n);

/* Deterministic random numbers. */
uint32_t rnd_u32(uint32_t *state);
float rnd_float(uint32_t *state);     /* [0, 1) */

/* Ray helpers. */
RTRayHit make_ray(const float org[3], const float dir[3], float tnear, float tfar);
/* Adversarial rays at mesh m: random, through vertices, along edges,
   axis-parallel at vertex coordinates, starting on the surface; box is
   the region origins come from. */
RTRayHit *adversarial_rays(const TMesh *m, size_t n, uint32_t seed, size_t *count);

/* Asserts that out[i] (traced from in[i]) is the closest hit over all
   triangles of the meshes (geomID = position in the array), ties at the
   same t allowed. rel is the tolerance on t (0: exact, same arithmetic). */
void expect_closest(const TMesh *meshes, int nmeshes, const RTRayHit *in,
                    const RTRayHit *out, size_t n, float rel, const char *what);
/* Asserts the occlusion of out[i] matches brute force over the meshes. */
void expect_occluded(const TMesh *meshes, int nmeshes, const RTRayHit *in,
                     const RTRay *out, size_t n, const char *what);

/* A committed scene of the meshes on a new device (cfg). */
RTScene scene_of(const char *cfg, const TMesh *meshes, int nmeshes, RTDevice *dev);

Suite *kernels_suite(void);
Suite *watertight_suite(void);
Suite *instance_suite(void);
Suite *errors_suite(void);
Suite *build_suite(void);
Suite *oracle_suite(void);

#endif
