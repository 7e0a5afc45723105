/*
** host.h: what the VM asks of the renderer (or of a test harness) for the
** builtins that need a scene: the lights at a shading point (illuminance,
** ambient, diffuse, specular, phong), named coordinate systems, texture,
** environment and shadow lookups, rays, and queries of attributes,
** options and other shaders' values. Any callback may be NULL: the
** builtins that need it then stop the run with an error naming it.
**
** Light i seen from point P: L is the vector from P towards the light
** (for a distant light, its direction reversed, any length), Cl and Ol
** its color and opacity there. An ambient light has no direction: it
** adds to ambient() only and takes no part in illuminance.
**
** "current" space is camera space, as in PRMan; space(name) gives the
** matrix taking points from `name` to current, for row vectors.
*/
#ifndef RSL_HOST_H
#define RSL_HOST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct VmLightSample {
    float L[3], Cl[3], Ol[3];
    bool ambient;
} VmLightSample;

typedef enum VmTexKind { VM_TEXTURE, VM_ENVIRONMENT, VM_SHADOW } VmTexKind;

/* A texture, environment or shadow lookup (RISpec 3.2 section 15.7). The
   filter region is the quadrilateral of four corners: (s, t) in
   corner[i][0..1] for textures, directions for environments, points for
   shadows. When the shader gives one coordinate, the runtime makes the
   corners from its derivatives over the surface element. */
/* The depth margin of a shadow() lookup that gives no "bias". */
#define VM_SHADOW_BIAS 0.01f

typedef struct VmTexLookup {
    VmTexKind kind;
    const char *name;
    int channel;                      /* first channel ("name[2]"), else 0 */
    int nchannels;                    /* 1 (float lookup) or 3 (color) */
    float corner[4][3];
    /* Options (Table 15.1 and 15.2), at their defaults unless given. */
    float blur, swidth, twidth, fill, bias;
    float samples;
    const char *filter;
    int lane;                         /* the shading point's lane (as VmRay's) */
} VmTexLookup;

typedef enum VmRayKind {
    VM_RAY_TRACE,         /* trace(P, R): the color seen along R */
    VM_RAY_TRANSMISSION,  /* transmission(P, Q): the light passing P to Q */
    VM_RAY_VISIBILITY,    /* visibility(P, Q): 1 if nothing lies between */
    VM_RAY_OCCLUSION,     /* occlusion(P, N, samples): hidden fraction of the
                             hemisphere, in out[0] */
    VM_RAY_INDIRECT       /* indirectdiffuse(P, N, samples) */
} VmRayKind;

typedef struct VmRay {
    VmRayKind kind;
    float P[3], Q[3];                 /* origin; direction, target or normal */
    float samples, maxdist, coneangle, bias;
    uint32_t seed;                    /* the shading point's random stream */
    int lane;                         /* the shading point's lane */
} VmRay;

/* The lobe a lighting call reflects light into, for a renderer that
   samples directions from the surface's own lighting (the path tracer):
   the cosine lobe (diffuse(), and illuminance, whose body may do
   anything), specular()'s half-vector lobe, max(0, N . H)^exponent, and
   phong()'s lobe about the mirror direction, max(0, R . L)^exponent. */
typedef enum VmLobeKind { VM_LOBE_COSINE, VM_LOBE_SPECULAR, VM_LOBE_PHONG } VmLobeKind;

/* One ray of a gather loop (PRMan's gather, category "illuminance"):
   from P along the unit direction D, which the runtime picks in the
   loop's cone. The host fills the n values the loop asks of a hit:
   name[k] as PRMan spells it ("surface:Ci", "surface:Oi", "ray:length",
   "primitive:P", "primitive:N", ...; "ray:origin" and "ray:direction"
   the runtime fills itself), of type letter type[k] and width[k] floats,
   at out + at[k]. */
typedef struct VmGatherRay {
    float P[3], D[3];
    float maxdist, bias;
    uint32_t seed;                    /* the shading point's random stream */
    int lane;
    int n;
    const char *const *name;
    const char *type;
    const int *width, *at;
} VmGatherRay;

typedef struct VmHost {
    int nlights;
    /* Fills *out for light i at P, the point of the batch's lane `lane`
       (a renderer runs the light shaders over the batch first and looks
       the lane up); false if the light does not reach P (then it is
       skipped). */
    bool (*light)(void *user, int i, int lane, const float P[3], VmLightSample *out);
    /* Optional (NULL: light, lane by lane): light i at a group of W
       lanes at once, the batch's lanes base .. base + W - 1, for those
       whose bit is set in mask. P is three rows of W floats (the x of
       every lane, then y, then z); out is nine rows (L, Cl, Ol), zero on
       entry, to fill for the lanes reached. Returns their bits; *ambient
       gets the bits of those where the light is ambient. Native code
       asks this once per call and group (runtime/lighting.h). */
    uint32_t (*light_rows)(void *user, int i, int base, int W, uint32_t mask, const float *P,
                           float *out, uint32_t *ambient);
    /* The categories light i is in: its light shader's string parameter
       __category (PRMan), a comma-separated list of names, "" if it has
       none; NULL if the host cannot tell. illuminance("category", ...)
       runs over the lights the category picks (vm/lights.h,
       vm_light_in_category); when the host cannot tell (NULL, or no
       callback) over every light, with a warning. */
    const char *(*light_category)(void *user, int i);
    /* Told, when not NULL, of each lighting call a lane makes (before its
       lights are asked): its lobe, with the call's N and V (any length;
       NULL for illuminance, which has neither) and exponent. The lights
       may then differ from call to call: native code keeps no samples
       from one call to the next for such a host. */
    void (*lobe)(void *user, int lane, VmLobeKind kind, const float *N, const float *V,
                 float exponent);
    /* The matrix from coordinate system `name` to current; false if the
       host knows no such system. */
    bool (*space)(void *user, const char *name, float m[16]);
    float clip_near, clip_far;        /* depth(): current space z range */
    /* A lookup into out (q->nchannels floats): 0; 1 with a warning in
       err when the map cannot be had and out holds zeros, the run going
       on (as PRMan and Aqsis render with a missing texture); or -1 with a
       message in err ("cannot open texture 'x.tex'") that stops the run. */
    int (*texture)(void *user, const VmTexLookup *q, float *out, char *err, int errlen);
    /* textureinfo(name, field): 1 with the value in out (or a string in
       *str), 0 if the texture has no such field of that type (type a
       signature letter, n floats), -1 with a message for a bad texture. */
    int (*textureinfo)(void *user, const char *name, const char *field, char type, int n,
                       float *out, const char **str, char *err, int errlen);
    /* Traces a gather ray: 1 on a hit with the values asked, 0 on a
       miss (the loop's else branch runs), -1 with a message (a name it
       does not know) that stops the run. */
    int (*gather)(void *user, const VmGatherRay *r, float *out, char *err, int errlen);
    /* A ray query into out (3 floats): 0, or -1 with a message. */
    int (*ray)(void *user, const VmRay *r, float out[3], char *err, int errlen);
    /* Optional (NULL: ray, query by query): the n queries of one call
       at a group of lanes (r[k].lane), of one kind, into out[k]; 0, or
       -1 with a message. Native code asks this once per call and group,
       so that a renderer may trace them together. */
    int (*rays)(void *user, const VmRay *r, int n, float (*out)[3], char *err, int errlen);
    /* attribute, option, rendererinfo, rayinfo ("depth", "shadowray",
       "indirectray": raylevel(), isshadowray() and isindirectray()) and
       shadername (`name` the shader type: "surface", ...; `kind` is the
       function's name): 1 with the value of `name` in out or *str, 0 if
       there is none of that type. */
    int (*query)(void *user, const char *kind, const char *name, char type, int n, float *out,
                 const char **str);
    /* Message passing (RISpec 3.2 section 15.8): surface, displacement,
       lightsource, atmosphere, incident and opposite (`kind`, the
       function's name) read parameter `name` of that other shader at
       the batch's lane `lane` (lightsource: of the light the illuminance
       loop is at): 1 with its value in out (n floats of type letter
       `type`) or *str, 0 if that shader has no such parameter of that
       type or there is no such shader, -1 if the renderer has no such
       context at all (incident and opposite without volumes): the
       function then warns once per call site and returns 0. NULL: every
       message function returns 0 and warns. The call runs per point
       when its output variable is declared varying (even while it holds
       a uniform value: BF_OUTDETAIL in builtins.def); into a uniform one
       it runs once, with the lane of the batch's first point. */
    int (*message)(void *user, const char *kind, const char *name, int lane, char type, int n,
                   float *out, const char **str);
    void *user;
} VmHost;

/* The test host of rslvm and the compile-run-verify suite (testhost.c):
   - lights: light 0 is ambient, color (0.1, 0.1, 0.1); light 1 is
     distant, color (1, 1, 1), shining along (0, 0, 1) (from the camera,
     so L = (0, 0, -1)); light 2 is a point light of intensity
     (0.5, 0.25, 0) at (0, 2, 0) falling off with the squared distance;
     light categories: light 1 is in "key" and "spec" ("key,spec"),
     light 2 in "fill", light 0 in none;
   - spaces: "camera" is current; world points are at p + (0, 0, 5) in
     current space; "object" and "shader" points at 2 p + (0, 0, 5);
     "screen" maps current (x, y, z) to (x/z, y/z, 1/z); no others;
   - clipping planes at z = 0.1 and z = 100;
   - textures, each at the centre of the filter region (the mean of its
     corners): "test:st" is s in channel 0, t in channel 1 and 0.5 in
     channel 2; "test:dir" (environment) is the normalized direction *
     0.5 + 0.5; "test:shadow" is 1 where the point's x is positive. Any other name
     is an error ("no texture ...");
   - gather: a wall at z = 10 facing the camera, of surface:Ci
     (0.25, 0.5, 0.75) and surface:Oi (1, 1, 1): a ray with D.z > 0 hits
     it at t = (10 - P.z) / D.z (ray:length; primitive:P = P + t D,
     primitive:N = (0, 0, -1)) unless t > maxdist; any other ray misses;
     other names are an error;
   - rays: trace returns the normalized direction * 0.5 + 0.5, the other
     ray queries report nothing in the way (transmission and visibility
     1, occlusion 0, indirectdiffuse 0);
   - queries: attribute "identifier:name" is "testobject", option
     "Format" is (4, 4, 1), rendererinfo "renderer" is "rslvm", rayinfo
     "depth", "shadowray" and "indirectray" are 0 (a camera ray);
     shadername("surface") is "testsurface", ("displacement")
     "testdisplacement", ("light") "testlight", ("atmosphere")
     "testatmosphere", any other type ""; nothing else exists;
   - message passing: surface(), displacement(), lightsource() and
     atmosphere() see a shader with float "Kd" = 1, 2, 3 and 4
     respectively, float "lane" = the point's lane + 10 (kd - 1) (one
     value per point, for the per-point calls), color "tint" =
     (kd, 0.5, 0.25) with that kd, and
     string "name" = the function's name ("surface", ...); no other
     parameters. incident() and opposite() have no volume: -1. */
const VmHost *vm_test_host(void);

#endif /* RSL_HOST_H */
