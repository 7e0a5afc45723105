/*
** check_util.c: the helpers of check_rtcore.h: meshes, rays, the kernel
** runner and the brute-force oracle.
*/
#include "config.h"
#include "tests/rtcore/check_rtcore.h"
#include "rtcore/scene.h"
#include "rtcore/trav1.h"
#include "rtcore/tri.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const kern_names[K_COUNT] = {
    "single", "packet4", "packet8", "packet16", "stream", "trav1"
};

uint32_t rnd_u32(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

float rnd_float(uint32_t *s)
{
    return (rnd_u32(s) >> 8) * (1.0f / 16777216.0f);
}

int test_isas(const char *cfg[TEST_ISAS])
{
    int n = 0;
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (__builtin_cpu_supports("sse4.2"))
        cfg[n++] = "isa=sse4.2";
    if (avx2)
        cfg[n++] = "isa=avx2";
    if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq"))
        cfg[n++] = "isa=avx512";
    return n;
}

int test_isas_missing(void)
{
    const char *cfg[TEST_ISAS];
    return TEST_ISAS - test_isas(cfg);
}

static TMesh tm_alloc(size_t nv, size_t nt)
{
    TMesh m = { calloc(3 * nv, sizeof(float)), nv, calloc(3 * nt, sizeof(uint32_t)), nt };
    ck_assert(m.v && m.idx);
    return m;
}

TMesh tm_grid(int n, float scale, uint32_t seed)
{
    TMesh m = tm_alloc((size_t)(n + 1) * (n + 1), 2 * (size_t)n * n);
    for (int y = 0; y <= n; y++)
        for (int x = 0; x <= n; x++) {
            float *p = &m.v[3 * (y * (n + 1) + x)];
            p[0] = scale * x / n;
            p[1] = scale * y / n;
            p[2] = scale * 0.05f * (rnd_float(&seed) - 0.5f);
        }
    uint32_t *t = m.idx;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            uint32_t a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
            uint32_t tri[6] = { a, b, d, a, d, c };
            memcpy(t, tri, sizeof tri);
            t += 6;
        }
    return m;
}

TMesh tm_soup(int n, float scale, uint32_t seed)
{
    TMesh m = tm_alloc(3 * (size_t)n, (size_t)n);
    for (int i = 0; i < n; i++) {
        float c[3], *p = &m.v[9 * i];
        for (int a = 0; a < 3; a++)
            c[a] = scale * rnd_float(&seed);
        for (int k = 0; k < 9; k++)
            p[k] = c[k % 3] + scale * 0.1f * (rnd_float(&seed) - 0.5f);
        switch (i % 16) {
        case 3:     /* two equal vertices */
            memcpy(p + 3, p, 3 * sizeof(float));
            break;
        case 7: {   /* three collinear vertices, exactly: on a power-of-2 grid */
            float q = ldexpf(1.0f, ilogbf(scale) - 6);
            for (int a = 0; a < 3; a++) {
                p[a] = roundf(p[a] / q) * q;
                p[3 + a] = p[a] + q * (a + 1);
                p[6 + a] = p[a] + 2 * q * (a + 1);
            }
            break;
        }
        case 11:    /* a single point */
            memcpy(p + 3, p, 3 * sizeof(float));
            memcpy(p + 6, p, 3 * sizeof(float));
            break;
        }
        for (int k = 0; k < 3; k++)
            m.idx[3 * i + k] = (uint32_t)(3 * i + k);
    }
    return m;
}

TMesh tm_sphere(int rings, int segs, float r)
{
    TMesh m = tm_alloc(2 + (size_t)(rings - 1) * segs, 2 * (size_t)segs * (rings - 1));
    m.v[2] = r;
    m.v[5] = -r;
    for (int i = 1; i < rings; i++)
        for (int j = 0; j < segs; j++) {
            double th = M_PI * i / rings, ph = 2 * M_PI * j / segs;
            float *p = &m.v[3 * (2 + (i - 1) * segs + j)];
            p[0] = (float)(r * sin(th) * cos(ph));
            p[1] = (float)(r * sin(th) * sin(ph));
            p[2] = (float)(r * cos(th));
        }
    uint32_t *t = m.idx;
#define V(i, j) (uint32_t)(2 + ((i) - 1) * segs + ((j) % segs))
    for (int j = 0; j < segs; j++) {
        uint32_t top[3] = { 0, V(1, j), V(1, j + 1) };
        uint32_t bot[3] = { 1, V(rings - 1, j + 1), V(rings - 1, j) };
        memcpy(t, top, sizeof top);
        memcpy(t + 3, bot, sizeof bot);
        t += 6;
    }
    for (int i = 1; i < rings - 1; i++)
        for (int j = 0; j < segs; j++) {
            uint32_t q[6] = { V(i, j), V(i + 1, j), V(i + 1, j + 1),
                              V(i, j), V(i + 1, j + 1), V(i, j + 1) };
            memcpy(t, q, sizeof q);
            t += 6;
        }
#undef V
    return m;
}

TMesh tm_copy_xfm(const TMesh *src, const float x[12])
{
    TMesh m = tm_alloc(src->nv, src->nt);
    memcpy(m.idx, src->idx, 3 * src->nt * sizeof(uint32_t));
    for (size_t i = 0; i < src->nv; i++)
        rt_xfm_point(x, &src->v[3 * i], &m.v[3 * i]);
    return m;
}

void tm_free(TMesh *m)
{
    free(m->v);
    free(m->idx);
    m->v = NULL;
    m->idx = NULL;
}

RTScene scene_of(const char *cfg, const TMesh *meshes, int nmeshes, RTDevice *dev)
{
    *dev = rtNewDevice(cfg);
    ck_assert_ptr_nonnull(*dev);
    RTScene s = rtNewScene(*dev);
    for (int i = 0; i < nmeshes; i++)
        ck_assert_uint_eq(rtAttachTriangleMesh(s, meshes[i].v, meshes[i].nv, 0,
                                               meshes[i].idx, meshes[i].nt), (unsigned)i);
    rtCommitScene(s);
    ck_assert_int_eq(rtGetDeviceError(*dev), RT_ERROR_NONE);
    return s;
}

RTRayHit make_ray(const float o[3], const float d[3], float tnear, float tfar)
{
    RTRayHit rh;
    memset(&rh, 0, sizeof rh);
    rh.ray = (RTRay){ o[0], o[1], o[2], tnear, d[0], d[1], d[2], tfar };
    rh.hit.geomID = rh.hit.primID = rh.hit.instID = RT_INVALID_ID;
    return rh;
}

RTRayHit *adversarial_rays(const TMesh *m, size_t n, uint32_t seed, size_t *count)
{
    float lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (size_t i = 0; i < 3 * m->nv; i++) {
        lo[i % 3] = fminf(lo[i % 3], m->v[i]);
        hi[i % 3] = fmaxf(hi[i % 3], m->v[i]);
    }
    RTRayHit *r = malloc(n * sizeof *r);
    ck_assert_ptr_nonnull(r);
    for (size_t i = 0; i < n; i++) {
        float o[3], d[3], target[3], tnear = 0, tfar = INFINITY;
        for (int a = 0; a < 3; a++) {
            float ext = hi[a] - lo[a];
            o[a] = lo[a] - 0.5f * ext + 2 * ext * rnd_float(&seed);
        }
        const uint32_t *t = &m->idx[3 * (rnd_u32(&seed) % m->nt)];
        const float *v0 = &m->v[3 * t[0]], *v1 = &m->v[3 * t[1]], *v2 = &m->v[3 * t[2]];
        float s = rnd_float(&seed), b1 = rnd_float(&seed), b2 = rnd_float(&seed);
        if (b1 + b2 > 1)
            b1 = 1 - b1, b2 = 1 - b2;
        switch (i % 6) {
        case 0:     /* anywhere */
            for (int a = 0; a < 3; a++)
                target[a] = o[a] + rnd_float(&seed) - 0.5f;
            break;
        case 1:     /* through a vertex */
            memcpy(target, v1, sizeof target);
            break;
        case 2:     /* through a point of an edge */
            for (int a = 0; a < 3; a++)
                target[a] = v0[a] + s * (v2[a] - v0[a]);
            break;
        case 3:     /* axis-parallel, in the planes of a vertex */
            memcpy(o, v0, sizeof o);
            memcpy(target, v0, sizeof target);
            o[i % 3] = lo[i % 3] - 1;
            target[i % 3] = hi[i % 3] + 1;
            if (s < 0.5f) {
                float x = o[i % 3];
                o[i % 3] = target[i % 3];
                target[i % 3] = x;
            }
            break;
        case 4:     /* starting on the surface */
            for (int a = 0; a < 3; a++) {
                o[a] = v0[a] + b1 * (v1[a] - v0[a]) + b2 * (v2[a] - v0[a]);
                target[a] = o[a] + rnd_float(&seed) - 0.5f;
            }
            break;
        default:    /* a segment that ends near the surface (shadow-like) */
            for (int a = 0; a < 3; a++)
                target[a] = v0[a] + b1 * (v1[a] - v0[a]) + b2 * (v2[a] - v0[a]);
            tnear = 0.001f;
            tfar = s < 0.5f ? 1.0f : 0.999f;
            break;
        }
        for (int a = 0; a < 3; a++)
            d[a] = target[a] - o[a];
        if (d[0] == 0 && d[1] == 0 && d[2] == 0)
            d[2] = 1;
        r[i] = make_ray(o, d, tnear, tfar);
    }
    *count = n;
    return r;
}

/* ---- the kernel runner -------------------------------------------------- */

/* groups: occlusion through rt_occluded_groups rather than rtOccludedNp. */
static void np_run(RTScene s, RTRayHit *rh, size_t n, bool occl, bool groups)
{
    float *f = malloc(13 * n * sizeof(float));
    unsigned *u = malloc(3 * n * sizeof(unsigned));
    ck_assert(f && u);
    RTRayHitNp np = {
        { f, f + n, f + 2 * n, f + 3 * n, f + 4 * n, f + 5 * n, f + 6 * n, f + 7 * n },
        { f + 8 * n, f + 9 * n, f + 10 * n, f + 11 * n, f + 12 * n, u, u + n, u + 2 * n }
    };
    for (size_t i = 0; i < n; i++) {
        const RTRay *r = &rh[i].ray;
        np.ray.org_x[i] = r->org_x, np.ray.org_y[i] = r->org_y, np.ray.org_z[i] = r->org_z;
        np.ray.dir_x[i] = r->dir_x, np.ray.dir_y[i] = r->dir_y, np.ray.dir_z[i] = r->dir_z;
        np.ray.tnear[i] = r->tnear, np.ray.tfar[i] = r->tfar;
        np.hit.geomID[i] = np.hit.primID[i] = np.hit.instID[i] = RT_INVALID_ID;
    }
    if (groups)
        rt_occluded_groups(s, &np.ray, n);
    else if (occl)
        rtOccludedNp(s, &np.ray, n);
    else
        rtIntersectNp(s, &np, n);
    for (size_t i = 0; i < n; i++) {
        rh[i].ray.tfar = np.ray.tfar[i];
        if (occl || np.hit.geomID[i] == RT_INVALID_ID)
            continue;
        rh[i].hit = (RTHit){ np.hit.Ng_x[i], np.hit.Ng_y[i], np.hit.Ng_z[i], np.hit.u[i],
                             np.hit.v[i], np.hit.primID[i], np.hit.geomID[i],
                             np.hit.instID[i] };
    }
    free(f);
    free(u);
}

/* Fills lane j of packet p (any RTRayHitN) from rh, or a sentinel. */
#define LOAD_LANE(p, j, r, on)                                                \
    do {                                                                      \
        (p).ray.org_x[j] = (r)->org_x, (p).ray.org_y[j] = (r)->org_y;         \
        (p).ray.org_z[j] = (r)->org_z, (p).ray.tnear[j] = (r)->tnear;         \
        (p).ray.dir_x[j] = (r)->dir_x, (p).ray.dir_y[j] = (r)->dir_y;         \
        (p).ray.dir_z[j] = (r)->dir_z;                                        \
        (p).ray.tfar[j] = (on) ? (r)->tfar : 12345.0f;                        \
        (p).hit.geomID[j] = (on) ? RT_INVALID_ID : 777u;                      \
        (p).hit.primID[j] = (p).hit.instID[j] = RT_INVALID_ID;                \
    } while (0)
#define STORE_LANE(p, j, out)                                                 \
    do {                                                                      \
        (out)->ray.tfar = (p).ray.tfar[j];                                    \
        if ((p).hit.geomID[j] != RT_INVALID_ID)                               \
            (out)->hit = (RTHit){ (p).hit.Ng_x[j], (p).hit.Ng_y[j],           \
                                  (p).hit.Ng_z[j], (p).hit.u[j], (p).hit.v[j], \
                                  (p).hit.primID[j], (p).hit.geomID[j],       \
                                  (p).hit.instID[j] };                        \
    } while (0)
/* One packet call per N rays; lanes whose bit of `mask` is clear are off
   and must come back as they went. */
#define RUN_PACKET(N, s, rh, n, occl, mask)                                   \
    do {                                                                      \
        for (size_t b = 0; b < (n); b += N) {                                 \
            RTRayHit##N p;                                                    \
            int valid[N];                                                     \
            for (size_t j = 0; j < N; j++) {                                  \
                valid[j] = b + j < (n) && ((mask) >> ((b + j) % 29) & 1);      \
                LOAD_LANE(p, j, &(rh)[b + j < (n) ? b + j : 0].ray, valid[j]); \
            }                                                                 \
            if (occl)                                                         \
                rtOccluded##N(valid, s, &p.ray);                              \
            else                                                              \
                rtIntersect##N(valid, s, &p);                                 \
            for (size_t j = 0; j < N; j++) {                                  \
                if (!valid[j]) {                                              \
                    ck_assert_float_eq(p.ray.tfar[j], 12345.0f);              \
                    ck_assert_uint_eq(p.hit.geomID[j], 777u);                 \
                    continue;                                                 \
                }                                                             \
                STORE_LANE(p, j, &(rh)[b + j]);                               \
            }                                                                 \
        }                                                                     \
    } while (0)

static void packet_run(int N, RTScene s, RTRayHit *rh, size_t n, bool occl, uint32_t mask)
{
    switch (N) {
    case 4: RUN_PACKET(4, s, rh, n, occl, mask); break;
    case 8: RUN_PACKET(8, s, rh, n, occl, mask); break;
    default: RUN_PACKET(16, s, rh, n, occl, mask); break;
    }
}

/* Runs rays as RTRayHit for every kernel (occlusion uses only .ray). */
static void run(Kern k, RTScene s, RTRayHit *rh, size_t n, bool occl)
{
    switch (k) {
    case K_SINGLE:
    case K_TRAV1:
        for (size_t i = 0; i < n; i++) {
            if (k == K_TRAV1)
                occl ? rt_trav1_occluded(s, &rh[i].ray) : rt_trav1_intersect(s, &rh[i]);
            else
                occl ? rtOccluded1(s, &rh[i].ray) : rtIntersect1(s, &rh[i]);
        }
        break;
    case K_STREAM:
        np_run(s, rh, n, occl, false);
        break;
    default: {
        int N = k == K_PACKET4 ? 4 : k == K_PACKET8 ? 8 : 16;
        /* lanes off by a pattern, then the complement pass traces the rest */
        const uint32_t mask = 0x1b5a3e97u;
        RTRayHit *copy = malloc(n * sizeof *copy);
        ck_assert_ptr_nonnull(copy);
        memcpy(copy, rh, n * sizeof *copy);
        packet_run(N, s, rh, n, occl, mask);
        packet_run(N, s, copy, n, occl, ~mask);
        for (size_t i = 0; i < n; i++)
            if (!(mask >> (i % 29) & 1))
                rh[i] = copy[i];
        free(copy);
        break;
    }
    }
}

void run_intersect(Kern k, RTScene s, RTRayHit *rh, size_t n)
{
    run(k, s, rh, n, false);
}

/* groups: the stream through rt_occluded_groups. */
static void occluded(Kern k, RTScene s, RTRay *r, size_t n, bool groups)
{
    RTRayHit *rh = malloc(n * sizeof *rh);
    ck_assert_ptr_nonnull(rh);
    for (size_t i = 0; i < n; i++)
        rh[i].ray = r[i];
    if (groups)
        np_run(s, rh, n, true, true);
    else
        run(k, s, rh, n, true);
    for (size_t i = 0; i < n; i++)
        r[i] = rh[i].ray;
    free(rh);
}

void run_occluded(Kern k, RTScene s, RTRay *r, size_t n)
{
    occluded(k, s, r, n, false);
}

void run_occluded_groups(RTScene s, RTRay *r, size_t n)
{
    occluded(K_STREAM, s, r, n, true);
}

/* ---- the oracle ------------------------------------------------------------ */

/* Triangles rtcore drops at build time: no ray may hit them. */
static bool droppable(const float *v0, const float *v1, const float *v2)
{
    double e1[3], e2[3];
    for (int a = 0; a < 3; a++) {
        if (!isfinite(v0[a]) || !isfinite(v1[a]) || !isfinite(v2[a]))
            return true;
        e1[a] = (double)v1[a] - v0[a];
        e2[a] = (double)v2[a] - v0[a];
    }
    return e1[1] * e2[2] - e1[2] * e2[1] == 0 && e1[2] * e2[0] - e1[0] * e2[2] == 0 &&
           e1[0] * e2[1] - e1[1] * e2[0] == 0;
}

/* Equal, or both NaN: what "left unchanged" means for a float. */
static bool same_float(float a, float b)
{
    return a == b || (isnan(a) && isnan(b));
}

typedef struct Truth {
    float t;           /* closest, INFINITY for none */
    bool any;
} Truth;

/* Brute force over every triangle. With want != NULL, also whether
   (geom, prim) is hit at a t within rel of the closest, and its u, v. */
static Truth brute(const TMesh *ms, int nm, const RTRay *q, float rel,
                   const unsigned want[2], bool *ok, float uv[2])
{
    Truth tr = { INFINITY, false };
    const float org[3] = { q->org_x, q->org_y, q->org_z };
    const float dir[3] = { q->dir_x, q->dir_y, q->dir_z };
    if (!rt_ray_valid(org, dir, q->tnear, q->tfar))
        return tr;
    RtRay r;
    rt_ray_prepare(&r, org, dir, q->tnear, q->tfar);
    float tw = NAN;
    for (int g = 0; g < nm; g++)
        for (size_t p = 0; p < ms[g].nt; p++) {
            const uint32_t *ix = &ms[g].idx[3 * p];
            const float *v0 = &ms[g].v[3 * ix[0]], *v1 = &ms[g].v[3 * ix[1]],
                        *v2 = &ms[g].v[3 * ix[2]];
            float t, u, v;
            if (droppable(v0, v1, v2) || !rt_tri_intersect(&r, v0, v1, v2, &t, &u, &v))
                continue;
            tr.any = true;
            if (t < tr.t)
                tr.t = t;
            if (want && want[0] == (unsigned)g && want[1] == p) {
                tw = t;
                uv[0] = u, uv[1] = v;
            }
        }
    if (ok)
        *ok = tw <= tr.t + rel * fabsf(tr.t);
    return tr;
}

void expect_closest(const TMesh *ms, int nm, const RTRayHit *in, const RTRayHit *out,
                    size_t n, float rel, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        const RTHit *h = &out[i].hit;
        bool ok = false;
        float uv[2] = { 0, 0 };
        unsigned want[2] = { h->geomID, h->primID };
        Truth tr = brute(ms, nm, &in[i].ray, rel, want, &ok, uv);
        if (tr.t == INFINITY) {
            ck_assert_msg(h->geomID == RT_INVALID_ID && same_float(out[i].ray.tfar, in[i].ray.tfar),
                          "%s: ray %zu: hit geom %u prim %u at %g, brute force: none",
                          what, i, h->geomID, h->primID, out[i].ray.tfar);
            continue;
        }
        ck_assert_msg(h->geomID != RT_INVALID_ID, "%s: ray %zu: missed, brute force: t=%.9g",
                      what, i, tr.t);
        ck_assert_msg(h->geomID < (unsigned)nm && h->primID < ms[h->geomID].nt && ok,
                      "%s: ray %zu: hit geom %u prim %u at %a, not a closest triangle (%a)", what, i,
                      h->geomID, h->primID, out[i].ray.tfar, tr.t);
        float t = out[i].ray.tfar;
        ck_assert_msg(fabsf(t - tr.t) <= rel * fabsf(tr.t),
                      "%s: ray %zu: t=%.9g, brute force %.9g", what, i, t, tr.t);
        if (rel == 0) {
            ck_assert_msg(h->u == uv[0] && h->v == uv[1], "%s: ray %zu: u,v %g,%g want %g,%g",
                          what, i, h->u, h->v, uv[0], uv[1]);
        } else {
            ck_assert_msg(fabsf(h->u - uv[0]) < 1e-3f && fabsf(h->v - uv[1]) < 1e-3f,
                          "%s: ray %zu: u,v %g,%g want %g,%g", what, i, h->u, h->v, uv[0], uv[1]);
        }
        const TMesh *m = &ms[h->geomID];
        const uint32_t *ix = &m->idx[3 * h->primID];
        float ng[3];
        rt_tri_normal(&m->v[3 * ix[0]], &m->v[3 * ix[1]], &m->v[3 * ix[2]], ng);
        float len = sqrtf(ng[0] * ng[0] + ng[1] * ng[1] + ng[2] * ng[2]);
        float d = fabsf(ng[0] - h->Ng_x) + fabsf(ng[1] - h->Ng_y) + fabsf(ng[2] - h->Ng_z);
        ck_assert_msg(d <= (rel == 0 ? 0 : 1e-3f * len), "%s: ray %zu: Ng differs", what, i);
    }
}

void expect_occluded(const TMesh *ms, int nm, const RTRayHit *in, const RTRay *out,
                     size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        Truth tr = brute(ms, nm, &in[i].ray, 0, NULL, NULL, NULL);
        if (tr.any)
            ck_assert_msg(out[i].tfar == -INFINITY, "%s: ray %zu: not occluded, brute force hit",
                          what, i);
        else
            ck_assert_msg(same_float(out[i].tfar, in[i].ray.tfar),
                          "%s: ray %zu: occluded, brute force: nothing", what, i);
    }
}
