/*
** util.c: memory helpers and the string-keyed hash map the reader uses for
** declarations, handles, coordinate systems and interned strings.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/internal.h"

static void out_of_memory(size_t n)
{
    fprintf(stderr, "rib: out of memory (%zu bytes)\n", n);
    abort();
}

void *rib_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *rib_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *rib_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *rib_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(rib_xmalloc(n), s, n);
}

void *rib_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            out_of_memory(SIZE_MAX);
        ncap *= 2;
    }
    size_t bytes;
    if (!rib_mul_size(ncap, size, &bytes))
        out_of_memory(SIZE_MAX);
    *cap = ncap;
    return rib_xrealloc(p, bytes);
}

bool rib_mul_size(size_t a, size_t b, size_t *out)
{
    if (a && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

float rib_to_float(double x)
{
    if (x > FLT_MAX)
        return (float)INFINITY;
    if (x < -FLT_MAX)
        return -(float)INFINITY;
    return (float)x;
}

/* ---- string map: open addressing, linear probing, power-of-two size ---- */

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603u;  /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static size_t find_slot(const RibMap *m, const char *key)
{
    size_t mask = m->cap - 1, i = hash_str(key) & mask;
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & mask;
    return i;
}

void *rib_map_get(const RibMap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    size_t i = find_slot(m, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

const char *rib_map_key(const RibMap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    return m->keys[find_slot(m, key)];
}

static void rehash(RibMap *m, size_t ncap)
{
    RibMap old = *m;
    m->keys = rib_xcalloc(ncap, sizeof *m->keys);
    m->vals = rib_xcalloc(ncap, sizeof *m->vals);
    m->cap = ncap;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.keys[i]) {
            size_t j = find_slot(m, old.keys[i]);
            m->keys[j] = old.keys[i];
            m->vals[j] = old.vals[i];
        }
    }
    free(old.keys);
    free(old.vals);
}

void *rib_map_put(RibMap *m, const char *key, void *val)
{
    if (2 * (m->n + 1) > m->cap)
        rehash(m, m->cap ? 2 * m->cap : 16);
    size_t i = find_slot(m, key);
    if (m->keys[i]) {
        void *old = m->vals[i];
        m->vals[i] = val;
        return old;
    }
    m->keys[i] = rib_xstrdup(key);
    m->vals[i] = val;
    m->n++;
    return NULL;
}

void rib_map_free(RibMap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

void rib_map_free_all(RibMap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i])
            free(m->vals[i]);
    rib_map_free(m);
}
