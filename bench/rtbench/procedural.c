/*
** procedural.c: the built-in scene, a field of UV spheres on a ground quad.
** Sizes vary with a fixed hash of the grid cell so the BVH sees some
** irregularity while every run builds the same mesh.
*/
#include "bench/rtbench/procedural.h"

#include <math.h>

enum { SLICES = 64, STACKS = 32 };

/* One sphere: a vertex at each pole, STACKS-1 rings of SLICES vertices,
   fans at the poles and quads (two triangles) between rings. */
static bool sphere(Mesh *m, float cx, float cy, float cz, float r)
{
    const float pi = 3.14159265358979f;
    uint32_t base = (uint32_t)m->nverts;
    uint32_t south = base + 1 + (STACKS - 1) * SLICES;
    bool ok = mesh_add_vertex(m, cx, cy + r, cz);
    for (int i = 1; i < STACKS; i++) {
        float theta = pi * i / STACKS;
        for (int j = 0; j < SLICES; j++) {
            float phi = 2 * pi * j / SLICES;
            ok = ok && mesh_add_vertex(m, cx + r * sinf(theta) * cosf(phi),
                                       cy + r * cosf(theta),
                                       cz + r * sinf(theta) * sinf(phi));
        }
    }
    ok = ok && mesh_add_vertex(m, cx, cy - r, cz);
    for (int j = 0; j < SLICES; j++) {
        uint32_t j1 = (j + 1) % SLICES;
        uint32_t first = base + 1, last = base + 1 + (STACKS - 2) * SLICES;
        ok = ok && mesh_add_tri(m, base, first + j1, first + j)
                && mesh_add_tri(m, south, last + j, last + j1);
        for (int i = 0; i + 1 < STACKS - 1; i++) {
            uint32_t a = base + 1 + i * SLICES, b = a + SLICES;
            ok = ok && mesh_add_tri(m, a + j, a + j1, b + j)
                    && mesh_add_tri(m, a + j1, b + j1, b + j);
        }
    }
    return ok;
}

bool procedural_spheres(Mesh *m, int n)
{
    const float spacing = 2.5f;
    float extent = n * spacing;
    bool ok = mesh_add_vertex(m, -1, 0, -1) &&
              mesh_add_vertex(m, extent + 1, 0, -1) &&
              mesh_add_vertex(m, extent + 1, 0, extent + 1) &&
              mesh_add_vertex(m, -1, 0, extent + 1) &&
              mesh_add_tri(m, 0, 2, 1) && mesh_add_tri(m, 0, 3, 2);
    for (int z = 0; ok && z < n; z++)
        for (int x = 0; ok && x < n; x++) {
            uint32_t h = (uint32_t)(x * 73856093u) ^ (uint32_t)(z * 19349663u);
            h = (h ^ (h >> 13)) * 0x5bd1e995u;
            float r = 0.5f + 0.6f * (float)((h >> 8) & 0xffff) / 65535.0f;
            ok = sphere(m, (x + 0.5f) * spacing, r, (z + 0.5f) * spacing, r);
        }
    return ok;
}
