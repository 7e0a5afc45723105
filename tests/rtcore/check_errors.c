/*
** check_errors.c: bad arguments give the documented RTError, stick until
** read, reach the callback, and never crash: NULL handles and buffers,
** out-of-range indices, bad configs, queries on uncommitted scenes, bad
** instances.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"

#include <math.h>
#include <string.h>

typedef struct Heard {
    int count;
    RTError last;
} Heard;

static void listen(void *user, RTError code, const char *msg)
{
    Heard *h = user;
    h->count++;
    h->last = code;
    ck_assert_ptr_nonnull(msg);
    ck_assert(msg[0] != 0);
}

START_TEST(bad_configs)
{
    const char *bad[] = { "bogus", "threads=", "threads=-1", "threads=x", "isa=foo",
                          "threads=2,", "isa", "threads=99999" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(rtNewDevice(bad[i]) == NULL, "%s accepted", bad[i]);
        ck_assert_int_eq(rtGetDeviceError(NULL), RT_ERROR_INVALID_ARGUMENT);
        ck_assert_int_eq(rtGetDeviceError(NULL), RT_ERROR_NONE);
    }
    RTDevice d = rtNewDevice("threads=0,isa=auto");
    ck_assert_ptr_nonnull(d);
    const char *isa = rtGetDeviceISA(d);
    const char *cfg[TEST_ISAS];
    /* auto picks the last (widest) ISA the CPU has */
    ck_assert_str_eq(isa, cfg[test_isas(cfg) - 1] + strlen("isa="));
    rtReleaseDevice(d);
    d = rtNewDevice("");
    ck_assert_ptr_nonnull(d);
    rtReleaseDevice(d);
}
END_TEST

START_TEST(null_handles)
{
    RTRayHit rh;
    memset(&rh, 0, sizeof rh);
    int valid[16] = { 1 };
    RTRayHit16 p16;
    rtIntersect1(NULL, &rh);
    rtOccluded1(NULL, &rh.ray);
    rtIntersect16(valid, NULL, &p16);
    rtOccludedNp(NULL, NULL, 4);
    rtCommitScene(NULL);
    rtReleaseScene(NULL);
    rtReleaseDevice(NULL);
    rtSetDeviceErrorFunction(NULL, listen, NULL);
    RTSceneStats st;
    rtGetSceneStats(NULL, &st);
    float lo[3], hi[3];
    rtGetSceneBounds(NULL, lo, hi);
    ck_assert_ptr_null(rtNewScene(NULL));
    ck_assert_uint_eq(rtAttachTriangleMesh(NULL, NULL, 0, 0, NULL, 0), RT_INVALID_ID);
    ck_assert_uint_eq(rtAttachInstance(NULL, NULL, NULL), RT_INVALID_ID);
    ck_assert_int_eq(rtGetDeviceError(NULL), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(rtGetDeviceError(NULL), RT_ERROR_NONE);
}
END_TEST

START_TEST(bad_meshes_and_queries)
{
    Heard heard = { 0, RT_ERROR_NONE };
    RTDevice d = rtNewDevice(NULL);
    rtSetDeviceErrorFunction(d, listen, &heard);
    RTScene s = rtNewScene(d);
    float v[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    uint32_t good[3] = { 0, 1, 2 }, bad[3] = { 0, 1, 3 };
    ck_assert_uint_eq(rtAttachTriangleMesh(s, v, 3, 0, bad, 1), RT_INVALID_ID);
    ck_assert_int_eq(heard.last, RT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(rtAttachTriangleMesh(s, NULL, 3, 0, good, 1), RT_INVALID_ID);
    ck_assert_uint_eq(rtAttachTriangleMesh(s, v, 3, 0, NULL, 1), RT_INVALID_ID);
    ck_assert_uint_eq(rtAttachTriangleMesh(s, v, 3, 5, good, 1), RT_INVALID_ID);
    ck_assert_int_eq(heard.count, 4);
    /* sticky: the first error stays until read */
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);

    ck_assert_uint_eq(rtAttachTriangleMesh(s, v, 3, 0, good, 1), 0);
    const float o[3] = { 0.2f, 0.2f, 1 }, dir[3] = { 0, 0, -1 };
    RTRayHit rh = make_ray(o, dir, 0, INFINITY), before = rh;
    rtIntersect1(s, &rh);       /* not committed */
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_OPERATION);
    ck_assert(memcmp(&rh, &before, sizeof rh) == 0);
    rtCommitScene(s);
    rtIntersect1(s, &rh);
    ck_assert_uint_eq(rh.hit.geomID, 0);
    ck_assert_float_eq_tol(rh.ray.tfar, 1.0f, 1e-6f);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);

    int valid[16] = { 1, 1, 1, 1 };
    rtIntersect1(s, NULL);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    rtIntersect4(NULL, s, (RTRayHit4 *)&rh);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    rtOccluded8(valid, s, NULL);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    RTRayNp np;
    memset(&np, 0, sizeof np);
    rtOccludedNp(s, &np, 3);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    rtOccludedNp(s, &np, 0);     /* nothing to do, nothing wrong */
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
    rtGetSceneStats(s, NULL);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);

    /* attaching again makes the scene uncommitted */
    ck_assert_uint_eq(rtAttachTriangleMesh(s, v, 3, 0, good, 1), 1);
    rtOccluded1(s, &rh.ray);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_OPERATION);
    rtReleaseScene(s);
    rtReleaseDevice(d);
}
END_TEST

START_TEST(bad_instances)
{
    RTDevice d = rtNewDevice(NULL), other = rtNewDevice(NULL);
    RTScene a = rtNewScene(d), b = rtNewScene(d), c = rtNewScene(d), x = rtNewScene(other);
    const float id[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };
    float nan[12];
    memcpy(nan, id, sizeof nan);
    nan[5] = NAN;
    ck_assert_uint_eq(rtAttachInstance(a, b, id), RT_INVALID_ID);   /* b not committed */
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_OPERATION);
    rtCommitScene(b);
    rtCommitScene(x);
    ck_assert_uint_eq(rtAttachInstance(a, b, nan), RT_INVALID_ID);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(rtAttachInstance(a, b, NULL), RT_INVALID_ID);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(rtAttachInstance(a, a, id), RT_INVALID_ID);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(rtAttachInstance(a, x, id), RT_INVALID_ID);   /* other device */
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(rtAttachInstance(c, b, id), 0);
    rtCommitScene(c);
    ck_assert_uint_eq(rtAttachInstance(a, c, id), RT_INVALID_ID);   /* two levels */
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_INVALID_ARGUMENT);
    ck_assert_uint_eq(rtAttachInstance(a, b, id), 0);
    rtCommitScene(a);
    ck_assert_int_eq(rtGetDeviceError(d), RT_ERROR_NONE);
    /* releasing in any order is fine: instances hold their sources */
    rtReleaseScene(b);
    rtReleaseScene(c);
    rtReleaseScene(a);
    rtReleaseScene(x);
    rtReleaseDevice(d);
    rtReleaseDevice(other);
}
END_TEST

Suite *errors_suite(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("bad arguments");
    tcase_add_test(tc, bad_configs);
    tcase_add_test(tc, null_handles);
    tcase_add_test(tc, bad_meshes_and_queries);
    tcase_add_test(tc, bad_instances);
    suite_add_tcase(s, tc);
    return s;
}
