/*
** backend.h: what rtbench asks of a ray tracer (rtcore, Embree), so the two
** are driven, timed and checked by the same code. A backend builds a scene
** and traces batches of rays that the shared loop in trace.c has loaded
** into "lanes": views of the backend's own ray/hit structures.
*/
#ifndef RTBENCH_BACKEND_H
#define RTBENCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/rtbench/mesh.h"

typedef enum {
    K_SINGLE, K_PACKET4, K_PACKET8, K_PACKET16, K_STREAM, KERNEL_COUNT
} Kernel;
extern const char *const kernel_names[KERNEL_COUNT];

/* Rays per stream call: long enough for the stream kernels to regroup
   rays, short enough to stay in L1/L2. */
enum { STREAM_RAYS = 256 };

/* Rays a kernel traces per call. */
size_t kernel_width(Kernel k);

/* Lane j of a batch is org[0][j], ..., tfar[j], primID[j], geomID[j]. */
typedef struct Lanes {
    float *org[3], *dir[3], *tnear, *tfar;
    unsigned *primID, *geomID;
    int *valid;         /* packets: lane activity; NULL for single rays and streams */
} Lanes;

/* Points lanes l at the ray/hit struct rh, a single ray or a packet:
   rtcore's and Embree's structs share these member names. The casts turn
   a scalar's address and an array's into the same float/unsigned pointer. */
#define LANES_AT(l, rh, valid_)                                                 \
    (*(l) = (Lanes){ { (float *)&(rh).ray.org_x, (float *)&(rh).ray.org_y,      \
                       (float *)&(rh).ray.org_z },                              \
                     { (float *)&(rh).ray.dir_x, (float *)&(rh).ray.dir_y,      \
                       (float *)&(rh).ray.dir_z },                              \
                     (float *)&(rh).ray.tnear, (float *)&(rh).ray.tfar,         \
                     (unsigned *)&(rh).hit.primID, (unsigned *)&(rh).hit.geomID, \
                     (valid_) })

/* Points the SoA stream np (rtcore's RTRayHitNp or Embree's RTCRayHitNp)
   at lanes l and at x[0..4], arrays for the hit's Ng_x, Ng_y, Ng_z, u, v. */
#define NP_AT(np, l, x)                                                         \
    ((np).ray.org_x = (l).org[0], (np).ray.org_y = (l).org[1],                  \
     (np).ray.org_z = (l).org[2], (np).ray.dir_x = (l).dir[0],                  \
     (np).ray.dir_y = (l).dir[1], (np).ray.dir_z = (l).dir[2],                  \
     (np).ray.tnear = (l).tnear, (np).ray.tfar = (l).tfar,                      \
     (np).hit.primID = (l).primID, (np).hit.geomID = (l).geomID,                \
     (np).hit.Ng_x = (x)[0], (np).hit.Ng_y = (x)[1], (np).hit.Ng_z = (x)[2],    \
     (np).hit.u = (x)[3], (np).hit.v = (x)[4])

/* For streams: lanes over fresh arrays of n rays, plus `extra` more arrays
   of n 4-byte elements stored in x[], all in one 64-byte aligned block
   that free() releases. NULL when out of memory. */
void *lanes_alloc(Lanes *l, size_t n, int extra, void **x);

typedef struct BuildInfo {
    double ms;          /* wall time of the commit */
    size_t bytes;       /* acceleration structure memory */
    double sah;         /* SAH cost, or a negative number when unknown */
    char what[48];      /* version / ISA, for the report */
} BuildInfo;

typedef struct Backend {
    const char *name;
    /* Builds m with `threads` build threads (isa: NULL or a device setting).
       NULL with "rtbench: error: ..." in err on failure. */
    void *(*build)(const Mesh *m, int threads, const char *isa, BuildInfo *info,
                   char *err, size_t errlen);
    void (*release)(void *scene);
    /* A thread's buffers for kernel k, with *lanes pointing into them;
       NULL when out of memory. coherent hints that neighbouring rays agree. */
    void *(*begin)(void *scene, Kernel k, bool coherent, Lanes *lanes);
    /* Traces the m rays loaded into the lanes. */
    void (*fire)(void *state, Kernel k, bool occlusion, size_t m);
    void (*end)(void *state);
} Backend;

/* The device setting both tracers take: "threads=N[,isa=ISA]". */
void device_config(char *buf, size_t len, int threads, const char *isa);

extern const Backend rtcore_backend;
#ifdef HAVE_EMBREE
extern const Backend embree_backend;
#endif

/* Monotonic wall clock in seconds. */
double now_seconds(void);

#endif
