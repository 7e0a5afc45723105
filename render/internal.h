/*
** internal.h: the renderer's shared structures: the traced scene
** (meshes and the looks they are shaded with) and the classic
** integrator's per-thread shading contexts. Shader instances come from
** shadesys.h; the frame every integrator renders is frame.h's.
**
** Space: the renderer traces and shades in camera space, which is RSL's
** "current" space. Matrices are RenderMan's (row vectors, p' = p M),
** stored as 16 doubles.
*/
#ifndef RT_RENDER_INTERNAL_H
#define RT_RENDER_INTERNAL_H

#include <stdbool.h>

#include "rtcore/include/rtcore.h"
#include "render/render.h"
#include "render/shadesys.h"

/* ---- the scene (world.c) -------------------------------------------------- */

/* The surface of an area light (AreaLightSource), for sampling: its
   triangles in camera space, with their normals and cumulative areas. */
typedef struct RArea {
    float (*tri)[3][3];
    float (*normal)[3];
    double *cdf;           /* cdf[i]: area of triangles 0..i */
    size_t ntris;
    double area;
    int samples;           /* points per shading point ("samples", 16) */
} RArea;

/* The most light samples a surface sees (a look's lights, each area
   light's "samples" of them): a batch keeps one VmLightSample per
   sample and lane at each trace depth it reaches, 43 MB at this limit. */
enum { RT_MAX_LIGHT_SAMPLES = 4096 };

/* The most rays one occlusion() or indirectdiffuse() call may cast
   ("samples"), as many as the light samples: each point casts them one
   after another (indirectdiffuse shading every hit), so more would make
   a render run for hours rather than look better. Past it the call is
   an error at its source line. */
enum { RT_MAX_HEMISPHERE_SAMPLES = 4096 };

/* A light as a look sees it: its shader, and for an area light the
   surface its samples come from. */
typedef struct RLight {
    const RShader *shader;
    const RArea *area;     /* NULL for a light without geometry */
    /* BMRT's Attribute "light" "shadows" "on": its Cl at a point is
       multiplied by the transmission from there to the light (shade.c,
       path_shade.c), whatever its shader does. */
    bool shadowed;
} RLight;

/* What a surface lets through to shadow rays (transmission() and BMRT's
   shadowed lights), by BMRT's Attribute "render" "casts_shadows": 1 - Os
   ("Os", the default), nothing ("opaque") or everything ("none"). */
typedef enum RCasts { RCASTS_OS, RCASTS_OPAQUE, RCASTS_NONE } RCasts;

/* How a primitive is shaded, and where its space lies. */
typedef struct RLook {
    const RibAttributes *attrs;
    const RShader *surface, *displacement, *atmosphere;
    RLight *lights;
    int nlights;
    int nsamples;          /* light samples illuminance sees: one per
                              light, area lights' samples each */
    RibMatrix to_camera;   /* the mesh's points to camera space */
    const float *points;   /* those points already in camera space (the
                              copy rtcore traces), NULL for instances */
    double normal[9];      /* its inverse transpose, for normals */
    bool flip;             /* negate normals (Orientation, mirroring) */
    /* to_camera mirrors (a negative determinant): a surface's own normal
       dPdu x dPdv, taken in camera space as RenderMan takes it, is then
       the opposite of the inverse transpose of its object-space one. */
    bool mirrored;
    RCasts casts;
} RLook;

typedef struct RWorld {
    RTDevice device;
    RTScene top;
    RTScene *objects;      /* one per RibObject */
    size_t nobjects;
    /* Meshes in the top scene, by geomID; they are in camera space for
       rtcore, their own space for shading. */
    const RibMesh **top_meshes;
    RLook *top_looks;
    float **top_points;    /* the camera-space copies rtcore traces */
    size_t ntop;
    /* Instances, by instID. */
    const RibInstance **instances;
    RLook *instance_looks;  /* one per instance and mesh of its object */
    size_t ninstance_looks;
    size_t *instance_first; /* instance i's looks start here */
    size_t ninstances;
    float **object_points;  /* per object, per mesh: object space */
    size_t nobject_points;
    /* Every light of the frame, with its shader and (area lights) its
       surface. */
    const RShader **lights;
    RArea *areas;
    bool *shadowed;        /* RLight.shadowed of each */
    size_t nlights;
    /* Some surface lets light through to shadow rays (an opacity
       attribute or an Os primitive variable below 1, or casts_shadows
       "none"): transmission goes through the layers
       (trace_transmission); without one a shadow ray's hit is opaque. */
    bool translucent;
    bool warned_casts;     /* casts_shadows' warning was given */
    int max_samples;       /* the most light samples any look has */
    RibMatrix world_to_camera;
    const RibFrame *frame;
    struct TexSystem *textures;  /* texture, environment and shadow maps */
    /* --missing-maps black (and not --strict): a map that cannot be had
       is a warning and lookups of 0, not an error. */
    bool maps_black;
    int xres, yres;              /* the image's pixels, for "raster" space */
    char rt_error[256];          /* rtcore's first error while building */
    char light_error[512];       /* the first light over the sample limit */
} RWorld;

/* Builds the traced scene of frame f, its looks made of the instances
   shading loaded for f (see frame.c). */
int world_build(RWorld *w, const RibScene *scene, const RibFrame *f, const ShadeSys *shading,
                char *err, int errlen);
void world_free(RWorld *w);
/* Triangle prim of mesh, shaded with look, in camera space. */
void look_triangle(const RLook *look, const RibMesh *mesh, unsigned prim, float V[3][3]);
/* The mesh and look a hit landed on. */
void world_hit(const RWorld *w, unsigned geom, unsigned inst, const RibMesh **mesh,
               const RLook **look);

/* ---- random numbers ------------------------------------------------------- */

/* A hash of three integers: every random choice of the renderer (pixel
   samples, light samples, occlusion rays) comes from one of these, keyed
   by where it is made, so images do not depend on threads or batches. */
static inline uint32_t rt_hash(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9e3779b9u ^ b * 0x85ebca6bu ^ c * 0xc2b2ae35u;
    h ^= h >> 16, h *= 0x7feb352du, h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
    return h;
}

/* A hash as a float in [0, 1). */
static inline float rt_unit(uint32_t h)
{
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* fmaxf and fminf as the C library's x86-64 ones answer (a NaN gives
   the other argument; of two equal values, b), inline: the compiler
   calls the library's through the PLT for their NaN rules, a call per
   lane and channel in the shading stages. */
static inline float rt_maxf(float a, float b)
{
    return a > b || b != b ? a : b;
}

static inline float rt_minf(float a, float b)
{
    return a < b || b != b ? a : b;
}

/* ---- transforming floats (xform.c) ----------------------------------------- */

void rmat_point(const RibMatrix *m, const float p[3], float out[3]);
void rmat_vector(const RibMatrix *m, const float v[3], float out[3]);
void rmat_normal(const double n[9], const float v[3], float out[3]);
/* The inverse transpose of m's upper 3x3 (for normals); false if m is
   singular. */
bool rmat_normal_matrix(const RibMatrix *m, double out[9]);
/* m as the VM's float matrix. */
void rmat_to_float(const RibMatrix *m, float out[16]);

/* ---- shading (shade.c, host.c) ---------------------------------------------- */

enum { RT_MAX_DEPTH = 16 };

/* One hit to shade: the ray, where it hit, and the lanes of its
   neighbours in the batch (adjacent pixels' hits on the same mesh; -1
   for none) for derivatives. */
typedef struct ShadeIn {
    float org[3], dir[3], t;
    float b1, b2;                /* barycentrics of vertices 1 and 2 */
    unsigned prim;
    uint32_t seed;               /* the shading point's random stream */
    int na, nb;
} ShadeIn;

/* Primitive variable pv's floats at hit h on triangle tri (world.c). */
void primvar_at(const RibPrimvar *pv, const ShadeIn *h, const uint32_t *tri, float *out);

/* What shading a batch at one depth needs while its shaders run: the
   host's callbacks look here. */
typedef struct ShadeFrame {
    const RibMesh *mesh;
    const RLook *look;
    const RShader *running;      /* for "shader" space */
    VmLightSample *light;        /* [light * VM_MAX_BATCH + lane], allocated
                                    when a batch first shades at the depth */
    uint8_t *lit;                /* whether light i reaches the lane */
    /* The batch's globals and derivatives (shade.c), allocated with the
       light samples and kept for the thread's next batches. */
    struct Geo *geo;
    VmDeriv *deriv;
    /* Message passing: which of the look's shaders have run for the
       batch, the light sample illuminance is at, and (when the surface
       calls lightsource()) each light sample's parameters, saved after
       its run: sample e's at saved + saved_at[e], of shader
       saved_sh[e]. */
    bool ran_displacement, ran_surface, ran_atmosphere;
    int light_at;
    float *saved;
    size_t nsaved, saved_cap;
    size_t *saved_at;
    const RShader **saved_sh;
    int nsaved_lights;
} ShadeFrame;

/* The lobes a lane's surface shader reflects light into, one for each
   distinct lighting call it made (host.h's VmHost.lobe): kind, N and V
   (unit, camera space; N zero for illuminance's cosine lobe, which has
   none) and exponent. */
enum { SHADE_MAX_LOBES = 4 };
typedef struct ShadeLobe {
    VmLobeKind kind;
    float N[3], V[3], exponent;
} ShadeLobe;
typedef struct ShadeLobes {
    int n;
    bool more;                   /* calls past SHADE_MAX_LOBES were made */
    ShadeLobe lobe[SHADE_MAX_LOBES];
} ShadeLobes;

/* The trace() and environment() calls a lane's surface shader made
   under the path tracer, in order: each call's origin (an environment()
   call has none: the path tracer's shaded P) and unit direction, and for
   environment() what the lookup gave, which a path that leaves the scene
   along it sees. The path tracer follows them as lobes of the surface
   rather than shading what they hit (path_shade.c). */
enum { SHADE_MAX_TRACES = 8 };
typedef struct ShadeTrace {
    float P[3], D[3];
    bool env;
    float seen[3];
} ShadeTrace;
typedef struct ShadeTraces {
    int n;
    ShadeTrace call[SHADE_MAX_TRACES];
} ShadeTraces;

/* What the path tracer gives a batch at depth 0 in place of the look's
   lights: nlights (0 or 1) lights per lane, light[lane] (NULL: a light
   that reaches no lane, so that illuminance asks for it), where the
   shaded P and N (as the surface shader leaves them) go, if not NULL,
   and where each lane's lobes go, if not NULL. With lobes, lanes from
   probe on (probe > 0) are twins of the first ones (the same hits, in
   order; shade_batch computes their geometry once), lit along each
   lighting call's own normal (Cl = 1, no light for illuminance, which
   names none): a lane
   whose one lobe is diffuse()'s then reflects its lobe's full weight,
   so that the lobe can be evaluated along any direction without running
   the shader again (path_shade.c). With traces (NULL: trace() traces as
   in the classic integrator), trace() is not traced: each lane's calls
   go into traces[lane], and call k of lane l answers 1 if white[l] is k
   (white NULL: none), else 0, so that a run's Ci is linear in what the
   calls would see. environment() lookups are such calls too. The given
   lights are in the categories `category` (illuminance("category", ...); NULL as ""). */
typedef struct ShadeGiven {
    int nlights;
    const VmLightSample *light;
    float (*P)[3], (*N)[3];
    ShadeLobes *lobes;
    int probe;
    ShadeTraces *traces;
    const int *white;
    const char *category;
} ShadeGiven;

/* A light shader's shadow ray that the path tracer traces in its shadow
   stream: the segment of a lane's first transmission() or visibility()
   call, answered 1 meanwhile (the light's Cl is its visibility times the
   rest, as RISpec's shadowed lights are). */
typedef struct ShadeShadowRay {
    bool asked;
    float P[3], Q[3];
} ShadeShadowRay;

/* A thread's shading state: its host (callbacks with this as user),
   its ShadeSys thread, and counters. */
typedef struct ShadeCtx {
    const RWorld *world;
    ShadeSys *shading;
    ShadeThread *thread;
    VmHost host;
    int maxdepth;
    ShadeFrame frame[RT_MAX_DEPTH + 1];
    int depth;
    uint64_t camera_rays, shading_points, batches, secondary_rays;
    double trace_seconds, shade_seconds;
    double shader_trace_seconds;    /* rays shaders trace (in shade_seconds) */
    /* --debug-pixel: the lane of the next batch whose surface shader runs
       under rsldb (on stdin and stdout), -1 for none. */
    int debug_lane;
    const ShadeGiven *given;     /* the path tracer's lights, or NULL */
    /* The path tracer's camera, whose pixel footprint sizes the stand-in
       neighbours of its hits (path_deriv.c); NULL elsewhere. */
    const struct Camera *cam;
    /* Why each depth is shaded: 0 the camera, 't' a trace() ray, 'i' an
       indirectdiffuse() ray (rayinfo, isindirectray). */
    char why[RT_MAX_DEPTH + 1];
    /* A ray option "bias" (> 0) in place of trace_bias for the rays of
       the query being answered. */
    float ray_bias;
    /* The path tracer's, while a light shader runs at depth 0, or NULL:
       the shadow rays it leaves to the path tracer, by lane. */
    ShadeShadowRay *shadow_rays;
} ShadeCtx;

/* stop (may be NULL) is the render's flag that stops shaders early. */
void shade_ctx_init(ShadeCtx *c, const RWorld *w, ShadeSys *shading, int maxdepth,
                    const atomic_bool *stop);
void shade_ctx_free(ShadeCtx *c);

/* Shades n <= VM_MAX_BATCH hits on one mesh at the context's current
   depth: Ci and Oi (3 floats each) per lane. -1 with a message when a
   shader fails (a missing texture, say). */
int shade_batch(ShadeCtx *c, const RibMesh *mesh, const RLook *look, const ShadeIn *in, int n,
                float (*Ci)[3], float (*Oi)[3], char *err, int errlen);
/* Point k of K on area light a, for the shading point with seed: a
   triangle by area (stratified over k) and a uniform point on it, with
   its normal. */
void area_point(const RArea *a, uint32_t seed, int k, int K, float P[3], float N[3]);
/* A stand-in neighbour for derivatives (shade.c): where the ray from org
   along dir meets the plane of triangle prim (barycentrics past the
   triangle if need be); false if it runs along the plane. */
bool stand_in_hit(const RibMesh *mesh, const RLook *look, unsigned prim, const float org[3],
                  const float dir[3], ShadeIn *h);
/* Runs sh over batch b at the context's depth, through its ShadeSys, as
   the shader the host sees running (for "shader" space). */
int shade_run(ShadeCtx *c, const RShader *sh, const ShadeBatch *b, char *err, int errlen);

/* Traces one ray from the shading context (trace()): the color seen,
   shaded one level deeper, with seed starting its points' random
   streams. 0 or -1 with a message. */
int shade_trace(ShadeCtx *c, const float org[3], const float dir[3], uint32_t seed, float out[3],
                char *err, int errlen);
/* A ray a shader traces (trace(), gather(), transmission()...): its
   closest hit or whether it is blocked, counted and timed as the
   shader's (secondary_rays, shader_trace_seconds). */
void trace_shader_ray(ShadeCtx *c, RTRayHit *rh);
bool trace_shader_blocked(ShadeCtx *c, RTRay *r);
/* n such rays at once, as a stream: blocked ones get tfar -INFINITY. */
void trace_shader_blocked_n(ShadeCtx *c, RTRayNp *r, int n);
/* Layers a ray may composite through before it counts as opaque. */
enum { RT_MAX_LAYERS = 64 };
/* The light passing along the ray from o in unit direction d between
   tnear and tfar (INFINITY: out of the scene), per channel: the product
   of 1 - Os over the surfaces it crosses, Os the opacity they are made
   with (attribute or Os primitive variable; their shaders do not run,
   BMRT's "Os" shadows). What transmission() and BMRT's shadowed lights
   see. */
void trace_transmission(ShadeCtx *c, const float o[3], const float d[3], float tnear, float tfar,
                        float out[3]);
/* The same for rays k < n <= VM_MAX_BATCH from point p[k] along d[k]
   for dist[k], past the bias at p[k] (the query's "bias" option, else
   trace_bias): out[k], 1 where dist[k] is too short to be blocked.
   Where no surface lets light through, the rays go to rtcore as one
   stream. */
void trace_transmission_along(ShadeCtx *c, int n, const float (*p)[3], const float (*d)[3],
                              const float *dist, float (*out)[3]);
/* How far a ray leaving point p starts from it, so as not to hit the
   surface it leaves. */
float trace_bias(const float p[3]);
/* Where a ray goes on past a hit at distance t (through a transparent or
   one-sided surface). */
float trace_past(float t);
/* Whether a hit is the back of a one-sided surface, which rays pass. */
bool trace_backface(const RLook *look, const RTHit *h, const float dir[3]);
/* Front-to-back compositing of a layer into color C and alpha A. */
void trace_composite(float C[3], float A[3], const float Ci[3], const float Oi[3]);
bool trace_opaque(const float A[3]);

/* The host callbacks (host.c) installed in c->host. */
void host_install(ShadeCtx *c);
/* The categories light shader instance sh is in at c's depth: its
   __category as the instance sets it (the RIB's value, else the
   shader's default), "" for none. */
const char *shade_light_category(ShadeCtx *c, const RShader *sh);

/* ---- output (output.c) ------------------------------------------------------- */

/* Writes the frame's displays from the resolved image (R G B A Z): each
   display's channels by its mode, Exposure and Quantize applied, the
   primary display to rs->output when that is set. */
/* make.c: does one texture-making request, pictures found as named or
   along searchpath (may be NULL). 0, or -1 with a located error. */
int render_make(const RibMake *m, const char *searchpath, char *err, int errlen);
const char *render_make_name(RibMakeKind k);

int output_displays(const struct Image *img, const RibFrame *f, const RenderSettings *rs,
                    char *err, int errlen);

#endif /* RT_RENDER_INTERNAL_H */
