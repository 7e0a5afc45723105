/*
** rays.h: the ray sets rtbench traces, and how they are made.
*/
#ifndef RTBENCH_RAYS_H
#define RTBENCH_RAYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/rtbench/mesh.h"

/* One ray, fields in the order of the rays file (see bench/README.md). */
typedef struct Ray {
    float org[3], dir[3];
    float tnear, tfar;
} Ray;

typedef enum { SET_PRIMARY, SET_DIFFUSE, SET_RANDOM, SET_SHADOW, SET_COUNT } SetKind;
extern const char *const set_names[SET_COUNT];

typedef struct RaySet {
    const char *name;
    bool occlusion;     /* traced with any-hit queries */
    bool coherent;      /* neighbouring rays are close: a hint for Embree */
    Ray *rays;
    size_t n;
} RaySet;

/* What a trace leaves per ray: the hit primID, or NO_HIT; for occlusion
   queries 0 when blocked, NO_HIT when not. */
#define NO_HIT 0xffffffffu

/* The pixel (y * res + x) of each primary ray, in generation order: 8x8
   tiles in Morton order, pixels in Morton order inside each tile. */
void tile_order(unsigned res, uint32_t *pixels);

/* res * res pinhole rays with a 45 degree field of view, the camera framing
   the box lo..hi. False when out of memory (as for all generators). */
bool rays_primary(const float lo[3], const float hi[3], unsigned res, RaySet *s);
/* n rays from uniform points in the box in uniform directions. */
bool rays_random(const float lo[3], const float hi[3], size_t n, RaySet *s);
/* Rays from each primary hit (hit[i] != NO_HIT, at distance t[i]), offset
   along the geometric normal: kind SET_DIFFUSE bounces one cosine-weighted
   direction; SET_SHADOW aims at a point light above the box. */
bool rays_secondary(SetKind kind, const Mesh *m, const RaySet *primary,
                    const uint32_t *hit, const float *t, const float lo[3],
                    const float hi[3], RaySet *s);

/* Names s after kind and sets its flags to match. */
void rayset_init(RaySet *s, SetKind kind);
void rayset_free(RaySet *s);

#endif
