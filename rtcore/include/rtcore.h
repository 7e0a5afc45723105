/*
** rtcore.h: the public C API of rtcore, the ray-tracing core under rtrender.
**
** The shape follows Embree's: a device owns settings and a sticky error; a
** scene holds triangle meshes and instances of other scenes; committing a
** scene builds its BVH; queries come as single rays, packets of 4/8/16
** (SoA, with a lane mask) and streams of N rays in SoA form.
**
** Names use the prefix rt/RT_ so rtcore links beside Embree (rtc/RTC_) in
** the benchmarks. The header is plain C99.
*/
#ifndef RTCORE_H
#define RTCORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- handles and errors ------------------------------------------------- */

typedef struct RTDeviceTy *RTDevice;
typedef struct RTSceneTy *RTScene;

typedef enum RTError {
    RT_ERROR_NONE = 0,
    RT_ERROR_INVALID_ARGUMENT,   /* null handle, bad count, bad index, ... */
    RT_ERROR_INVALID_OPERATION,  /* e.g. query on an uncommitted scene */
    RT_ERROR_OUT_OF_MEMORY,
    RT_ERROR_UNSUPPORTED_CPU     /* requested ISA not available */
} RTError;

/* Called on every error with the code and a message naming the cause. */
typedef void (*RTErrorFunction)(void *user, RTError code, const char *msg);

/* Sentinel for "no geometry / no instance" in hits. */
#define RT_INVALID_ID 0xffffffffu

/* Creates a device. config is NULL or a comma-separated list of settings:
   "threads=N" (build threads, 0 = all cores),
   "isa=sse4.2|avx2|avx512|auto". */
RTDevice rtNewDevice(const char *config);
/* Releases a device; its scenes must be released first. */
void rtReleaseDevice(RTDevice device);
/* Returns the first error since the last call and clears it. */
RTError rtGetDeviceError(RTDevice device);
/* Installs a callback called on every error (NULL removes it). */
void rtSetDeviceErrorFunction(RTDevice device, RTErrorFunction fn, void *user);
/* Returns the ISA the device's kernels use: "sse4.2", "avx2" or "avx512". */
const char *rtGetDeviceISA(RTDevice device);

/* ---- scenes ---------------------------------------------------------------- */

/* Creates an empty scene on a device. */
RTScene rtNewScene(RTDevice device);
/* Releases a scene. Instances that refer to it keep it alive until their
   own scene is released. */
void rtReleaseScene(RTScene scene);

/* Attaches a triangle mesh and returns its geometry id (ids count up from
   0 per scene). vertices: nverts points of 3 floats, vstride bytes apart
   (0 = tightly packed). indices: ntris triples of vertex indices. The
   buffers are shared, not copied: they must stay valid and unchanged until
   the scene is released or committed again. Indices out of range are an
   RT_ERROR_INVALID_ARGUMENT. */
unsigned rtAttachTriangleMesh(RTScene scene,
                              const float *vertices, size_t nverts,
                              size_t vstride,
                              const uint32_t *indices, size_t ntris);

/* Attaches an instance of a committed scene, placed by the 3x4 row-major
   object-to-world matrix xfm (rows: x' = xfm[0..3].(x,y,z,1), ...). Returns
   its instance id, which hits report in instID; the hit's geomID and primID
   are those inside the instanced scene. One level of instancing. */
unsigned rtAttachInstance(RTScene scene, RTScene source, const float xfm[12]);

/* Builds the scene's acceleration structure. Must be called after the last
   attach and before any query. */
void rtCommitScene(RTScene scene);

/* World-space bounds of a committed scene: lower xyz, upper xyz. */
void rtGetSceneBounds(RTScene scene, float lower[3], float upper[3]);

/* What the last commit built. */
typedef struct RTSceneStats {
    double build_ms;        /* wall time of rtCommitScene */
    double sah_cost;        /* SAH cost of the wide BVH (root area normalised) */
    size_t triangles;       /* triangles in the scene itself */
    size_t inner_nodes;     /* wide inner nodes */
    size_t leaves;          /* leaf blocks */
    size_t bytes;           /* memory of nodes + leaf triangle data */
    int width;              /* BVH width: 4 or 8 */
} RTSceneStats;
void rtGetSceneStats(RTScene scene, RTSceneStats *stats);

/* ---- rays and hits ---------------------------------------------------------- */

/* A ray: points org + t*dir for t in [tnear, tfar]. Queries shorten tfar to
   the closest hit; occlusion queries set tfar = -INFINITY when blocked. */
typedef struct RTRay {
    float org_x, org_y, org_z, tnear;
    float dir_x, dir_y, dir_z, tfar;
} RTRay;

/* A closest hit. Ng is the unnormalised geometric normal (e1 x e2 of the
   triangle v0,v1,v2 with e1 = v1-v0, e2 = v2-v0, in world space); u, v are
   barycentrics of v1 and v2. geomID is RT_INVALID_ID when nothing was hit. */
typedef struct RTHit {
    float Ng_x, Ng_y, Ng_z;
    float u, v;
    unsigned primID, geomID, instID;
} RTHit;

typedef struct RTRayHit {
    RTRay ray;
    RTHit hit;
} RTRayHit;

/* Closest hit of one ray. The caller sets hit.geomID = RT_INVALID_ID. */
void rtIntersect1(RTScene scene, RTRayHit *rayhit);
/* Any hit of one ray: sets ray->tfar = -INFINITY if something blocks it. */
void rtOccluded1(RTScene scene, RTRay *ray);

/* Packets of 4, 8 and 16 rays in SoA form. valid[i] != 0 marks active lanes;
   inactive lanes are neither read nor written. */
#define RT_DECLARE_PACKET(N)                                                  \
    typedef struct RTRay##N {                                                 \
        float org_x[N], org_y[N], org_z[N], tnear[N];                         \
        float dir_x[N], dir_y[N], dir_z[N], tfar[N];                          \
    } RTRay##N;                                                               \
    typedef struct RTHit##N {                                                 \
        float Ng_x[N], Ng_y[N], Ng_z[N];                                      \
        float u[N], v[N];                                                     \
        unsigned primID[N], geomID[N], instID[N];                             \
    } RTHit##N;                                                               \
    typedef struct RTRayHit##N {                                              \
        RTRay##N ray;                                                         \
        RTHit##N hit;                                                         \
    } RTRayHit##N;                                                            \
    void rtIntersect##N(const int *valid, RTScene scene, RTRayHit##N *rh);    \
    void rtOccluded##N(const int *valid, RTScene scene, RTRay##N *ray);
RT_DECLARE_PACKET(4)
RT_DECLARE_PACKET(8)
RT_DECLARE_PACKET(16)
#undef RT_DECLARE_PACKET

/* A stream of n rays whose fields live in separate arrays (SoA). Rays in a
   stream need not be coherent: the kernel traces coherent groups as packets
   and falls back to single rays when a packet's active count drops. */
typedef struct RTRayNp {
    float *org_x, *org_y, *org_z, *tnear;
    float *dir_x, *dir_y, *dir_z, *tfar;
} RTRayNp;
typedef struct RTHitNp {
    float *Ng_x, *Ng_y, *Ng_z;
    float *u, *v;
    unsigned *primID, *geomID, *instID;
} RTHitNp;
typedef struct RTRayHitNp {
    RTRayNp ray;
    RTHitNp hit;
} RTRayHitNp;

/* Closest hits of a stream of n rays. */
void rtIntersectNp(RTScene scene, const RTRayHitNp *rayhits, size_t n);
/* Any hits of a stream of n rays (tfar = -INFINITY where blocked). */
void rtOccludedNp(RTScene scene, const RTRayNp *rays, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* RTCORE_H */
