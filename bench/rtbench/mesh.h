/*
** mesh.h: the triangle mesh rtbench traces, as both rtcore and Embree take
** it: packed float xyz vertices and uint32 index triples.
*/
#ifndef RTBENCH_MESH_H
#define RTBENCH_MESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Mesh {
    float *verts;       /* nverts * 3 floats, plus one float of padding */
    size_t nverts, vcap;
    uint32_t *tris;     /* ntris * 3 indices */
    size_t ntris, tcap;
} Mesh;

/* Appenders grow the arrays geometrically; false when out of memory. */
bool mesh_add_vertex(Mesh *m, float x, float y, float z);
bool mesh_add_tri(Mesh *m, uint32_t a, uint32_t b, uint32_t c);
void mesh_free(Mesh *m);

/* Axis-aligned bounds of the vertices (all zero for an empty mesh). */
void mesh_bounds(const Mesh *m, float lo[3], float hi[3]);
/* Unit geometric normal (v1-v0) x (v2-v0) of triangle prim. */
void mesh_normal(const Mesh *m, size_t prim, float n[3]);

#endif
