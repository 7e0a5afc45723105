/*
** rayfile.c: reading and writing rays files. Bytes are assembled explicitly
** so the files are little-endian whatever the host.
*/
#include "bench/rtbench/rayfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RAY_BYTES = 32, BATCH = 4096 };

static void encode(const Ray *r, unsigned char *b)
{
    const float f[8] = { r->org[0], r->org[1], r->org[2], r->dir[0],
                         r->dir[1], r->dir[2], r->tnear, r->tfar };
    for (int i = 0; i < 8; i++) {
        uint32_t u;
        memcpy(&u, &f[i], 4);
        for (int k = 0; k < 4; k++)
            b[i * 4 + k] = (unsigned char)(u >> (8 * k));
    }
}

static void decode(const unsigned char *b, Ray *r)
{
    float f[8];
    for (int i = 0; i < 8; i++) {
        uint32_t u = 0;
        for (int k = 0; k < 4; k++)
            u |= (uint32_t)b[i * 4 + k] << (8 * k);
        memcpy(&f[i], &u, 4);
    }
    *r = (Ray){ { f[0], f[1], f[2] }, { f[3], f[4], f[5] }, f[6], f[7] };
}

static bool fail(const char *path, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: error: %s", path, what);
    return false;
}

bool rays_write(const char *path, const RaySet *s, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return fail(path, strerror(errno), err, errlen);
    unsigned char buf[BATCH * RAY_BYTES];
    bool ok = true;
    for (size_t i = 0; ok && i < s->n; i += BATCH) {
        size_t m = s->n - i < BATCH ? s->n - i : BATCH;
        for (size_t j = 0; j < m; j++)
            encode(&s->rays[i + j], buf + j * RAY_BYTES);
        ok = fwrite(buf, RAY_BYTES, m, f) == m;
    }
    ok = fclose(f) == 0 && ok;
    return ok || fail(path, "write failed", err, errlen);
}

bool rays_read(const char *path, RaySet *s, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(path, strerror(errno), err, errlen);
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    rewind(f);
    const char *problem = NULL;
    if (size < 0)
        problem = "cannot find the file size";
    else if (size % RAY_BYTES)
        problem = "size is not a multiple of 32 bytes (one ray)";
    s->n = size < 0 ? 0 : (size_t)size / RAY_BYTES;
    s->rays = problem ? NULL : malloc((s->n ? s->n : 1) * sizeof *s->rays);
    if (!problem && !s->rays)
        problem = "out of memory";
    unsigned char buf[BATCH * RAY_BYTES];
    for (size_t i = 0; !problem && i < s->n; i += BATCH) {
        size_t m = s->n - i < BATCH ? s->n - i : BATCH;
        if (fread(buf, RAY_BYTES, m, f) != m)
            problem = "read failed";
        for (size_t j = 0; !problem && j < m; j++)
            decode(buf + j * RAY_BYTES, &s->rays[i + j]);
    }
    fclose(f);
    if (problem) {
        rayset_free(s);
        return fail(path, problem, err, errlen);
    }
    return true;
}
