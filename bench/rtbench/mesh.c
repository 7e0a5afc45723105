/*
** mesh.c: growing, measuring and freeing the benchmark's triangle mesh.
*/
#include "bench/rtbench/mesh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Grows *buf (elements of size each) so that it holds need elements. The
   counts are bounded by the input read so far, so doubling cannot run away
   on a header that merely announces a huge count. */
static bool grow(void **buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 1024;
    while (ncap < need)
        ncap *= 2;
    if (ncap > SIZE_MAX / size)
        return false;
    void *p = realloc(*buf, ncap * size);
    if (!p)
        return false;
    *buf = p;
    *cap = ncap;
    return true;
}

bool mesh_add_vertex(Mesh *m, float x, float y, float z)
{
    /* One float beyond the last vertex: Embree reads each vertex with a
       16-byte load, and shared vertex buffers must allow it. */
    if (!grow((void **)&m->verts, &m->vcap, (m->nverts + 1) * 3 + 1,
              sizeof(float)))
        return false;
    float *v = m->verts + m->nverts++ * 3;
    v[0] = x;
    v[1] = y;
    v[2] = z;
    v[3] = 0;
    return true;
}

bool mesh_add_tri(Mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    if (!grow((void **)&m->tris, &m->tcap, (m->ntris + 1) * 3,
              sizeof(uint32_t)))
        return false;
    uint32_t *t = m->tris + m->ntris++ * 3;
    t[0] = a;
    t[1] = b;
    t[2] = c;
    return true;
}

void mesh_free(Mesh *m)
{
    free(m->verts);
    free(m->tris);
    memset(m, 0, sizeof *m);
}

void mesh_bounds(const Mesh *m, float lo[3], float hi[3])
{
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = m->nverts ? m->verts[k] : 0;
    for (size_t i = 0; i < m->nverts; i++)
        for (int k = 0; k < 3; k++) {
            float x = m->verts[i * 3 + k];
            lo[k] = fminf(lo[k], x);
            hi[k] = fmaxf(hi[k], x);
        }
}

void mesh_normal(const Mesh *m, size_t prim, float n[3])
{
    const uint32_t *t = m->tris + prim * 3;
    const float *a = m->verts + t[0] * 3, *b = m->verts + t[1] * 3,
                *c = m->verts + t[2] * 3;
    float e1[3], e2[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; k++)
        n[k] = len > 0 ? n[k] / len : 0;
}
