/*
** rays.c: generating the ray sets. Every random number comes from a hash of
** the set's seed and the ray's index, so sets are the same on every run and
** independent of thread counts.
*/
#include "bench/rtbench/rays.h"

#include <math.h>
#include <stdlib.h>

const char *const set_names[SET_COUNT] = { "primary", "diffuse", "random", "shadow" };

static const float PI = 3.14159265358979f;

/* splitmix64 of (seed, index, draw): a stateless, well-mixed stream. */
static float rnd(uint64_t seed, uint64_t index, unsigned draw)
{
    uint64_t z = seed + (index * 4 + draw + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)(z >> 40) * (1.0f / 16777216.0f);
}

static void normalize(float v[3])
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        v[k] /= len;
}

static float dot(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const float a[3], const float b[3], float c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static float diagonal(const float lo[3], const float hi[3])
{
    float d[3] = { hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2] };
    return sqrtf(dot(d, d));
}

void rayset_init(RaySet *s, SetKind kind)
{
    s->name = set_names[kind];
    s->occlusion = kind == SET_SHADOW;
    s->coherent = kind == SET_PRIMARY;
}

static bool set_alloc(RaySet *s, SetKind kind, size_t n)
{
    rayset_init(s, kind);
    s->n = n;
    s->rays = malloc((n ? n : 1) * sizeof *s->rays);
    return s->rays != NULL;
}

void rayset_free(RaySet *s)
{
    free(s->rays);
    s->rays = NULL;
    s->n = 0;
}

/* Even bits of a Morton code. */
static unsigned compact(unsigned x)
{
    x &= 0x55555555u;
    x = (x | (x >> 1)) & 0x33333333u;
    x = (x | (x >> 2)) & 0x0f0f0f0fu;
    x = (x | (x >> 4)) & 0x00ff00ffu;
    x = (x | (x >> 8)) & 0x0000ffffu;
    return x;
}

void tile_order(unsigned res, uint32_t *pixels)
{
    unsigned tiles = (res + 7) / 8, side = 1;
    while (side < tiles)
        side *= 2;
    /* Morton codes over the power-of-two square that covers the tiles;
       codes outside the image (when res is not a power of two) are skipped. */
    size_t n = 0;
    for (unsigned code = 0; code < side * side; code++) {
        unsigned tx = compact(code), ty = compact(code >> 1);
        if (tx >= tiles || ty >= tiles)
            continue;
        for (unsigned i = 0; i < 64; i++) {
            unsigned x = tx * 8 + compact(i), y = ty * 8 + compact(i >> 1);
            if (x < res && y < res)
                pixels[n++] = y * res + x;
        }
    }
}

bool rays_primary(const float lo[3], const float hi[3], unsigned res, RaySet *s)
{
    size_t n = (size_t)res * res;
    uint32_t *pixels = malloc((n ? n : 1) * sizeof *pixels);
    if (!pixels || !set_alloc(s, SET_PRIMARY, n)) {
        free(pixels);
        return false;
    }
    tile_order(res, pixels);
    /* The camera looks at the box centre from the front, a little above and
       to the side, just far enough back that all eight corners of the box
       are in view (a corner at offsets a, b across the view and z along it
       needs |a|, |b| <= tan(fov/2) * (dist + z)). */
    const float scale = tanf(22.5f * PI / 180);
    float centre[3], eye[3], view[3] = { 0.3f, 0.4f, 1.0f }, up[3] = { 0, 1, 0 };
    normalize(view);
    float w[3] = { -view[0], -view[1], -view[2] }, u[3], v[3];
    cross(w, up, u);
    normalize(u);
    cross(u, w, v);
    for (int k = 0; k < 3; k++)
        centre[k] = 0.5f * (lo[k] + hi[k]);
    float dist = 0;
    for (int c = 0; c < 8; c++) {
        float q[3];
        for (int k = 0; k < 3; k++)
            q[k] = (c >> k & 1 ? hi[k] : lo[k]) - centre[k];
        float across = fmaxf(fabsf(dot(q, u)), fabsf(dot(q, v)));
        dist = fmaxf(dist, across / scale - dot(q, w));
    }
    for (int k = 0; k < 3; k++)
        eye[k] = centre[k] - 1.05f * dist * w[k];
    for (size_t i = 0; i < n; i++) {
        float sx = (2 * ((pixels[i] % res) + 0.5f) / res - 1) * scale;
        float sy = (1 - 2 * ((pixels[i] / res) + 0.5f) / res) * scale;
        Ray *r = &s->rays[i];
        for (int k = 0; k < 3; k++) {
            r->org[k] = eye[k];
            r->dir[k] = w[k] + sx * u[k] + sy * v[k];
        }
        normalize(r->dir);
        r->tnear = 0;
        r->tfar = INFINITY;
    }
    free(pixels);
    return true;
}

bool rays_random(const float lo[3], const float hi[3], size_t n, RaySet *s)
{
    const uint64_t seed = 0x72616e646f6dull;
    if (!set_alloc(s, SET_RANDOM, n))
        return false;
    for (size_t i = 0; i < n; i++) {
        Ray *r = &s->rays[i];
        for (int k = 0; k < 3; k++)
            r->org[k] = lo[k] + rnd(seed, i, k) * (hi[k] - lo[k]);
        float z = 1 - 2 * rnd(seed, i, 3), phi = 2 * PI * rnd(seed, i + n, 0);
        float rho = sqrtf(fmaxf(0, 1 - z * z));
        r->dir[0] = rho * cosf(phi);
        r->dir[1] = rho * sinf(phi);
        r->dir[2] = z;
        r->tnear = 0;
        r->tfar = INFINITY;
    }
    return true;
}

/* A cosine-weighted direction around the unit normal n, using the
   branchless orthonormal basis of Duff et al. (2017). */
static void cosine_dir(const float n[3], float r1, float r2, float d[3])
{
    float sign = copysignf(1.0f, n[2]);
    float a = -1.0f / (sign + n[2]), b = n[0] * n[1] * a;
    float t[3] = { 1 + sign * n[0] * n[0] * a, sign * b, -sign * n[0] };
    float bt[3] = { b, sign + n[1] * n[1] * a, -n[1] };
    float phi = 2 * PI * r1, s = sqrtf(r2), c = sqrtf(fmaxf(0, 1 - r2));
    for (int k = 0; k < 3; k++)
        d[k] = s * cosf(phi) * t[k] + s * sinf(phi) * bt[k] + c * n[k];
    normalize(d);
}

bool rays_secondary(SetKind kind, const Mesh *m, const RaySet *primary,
                    const uint32_t *hit, const float *t, const float lo[3],
                    const float hi[3], RaySet *s)
{
    const uint64_t seed = 0x646966667573ull;
    size_t n = 0;
    for (size_t i = 0; i < primary->n; i++)
        n += hit[i] != NO_HIT;
    if (!set_alloc(s, kind, n))
        return false;
    /* The offset lifts origins off their own triangle; scaled to the scene
       so that it means the same for any mesh size. */
    float diag = diagonal(lo, hi), eps = 1e-4f * diag;
    float light[3] = { 0.5f * (lo[0] + hi[0]), hi[1] + 0.5f * diag,
                       0.5f * (lo[2] + hi[2]) };
    Ray *out = s->rays;
    for (size_t i = 0; i < primary->n; i++) {
        if (hit[i] == NO_HIT)
            continue;
        const Ray *in = &primary->rays[i];
        float nrm[3];
        mesh_normal(m, hit[i], nrm);
        /* A degenerate triangle has no normal: step back along the ray.
           Otherwise face the normal towards where the ray came from. */
        if (dot(nrm, nrm) == 0)
            for (int k = 0; k < 3; k++)
                nrm[k] = -in->dir[k];
        float facing = dot(nrm, in->dir) > 0 ? -1.0f : 1.0f;
        for (int k = 0; k < 3; k++) {
            nrm[k] *= facing;
            out->org[k] = in->org[k] + t[i] * in->dir[k] + eps * nrm[k];
        }
        out->tnear = 0;
        if (kind == SET_SHADOW) {
            for (int k = 0; k < 3; k++)
                out->dir[k] = light[k] - out->org[k];
            out->tfar = sqrtf(dot(out->dir, out->dir));
            normalize(out->dir);
        } else {
            cosine_dir(nrm, rnd(seed, i, 0), rnd(seed, i, 1), out->dir);
            out->tfar = INFINITY;
        }
        out++;
    }
    return true;
}
