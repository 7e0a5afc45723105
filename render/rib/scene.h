/*
** scene.h: the scene description rtrender renders, read from a RIB file.
**
** rib_load() parses ASCII RIB (optionally gzip-compressed) and returns
** plain C structs: per frame the options (camera, format, filter,
** displays), the lights, the triangle meshes made from every geometric
** primitive, and instances of retained objects. Nothing here shades or
** draws; the renderer consumes these structs and maps meshes and objects
** to rtcore scenes.
**
** Conventions (RenderMan Interface 3.2):
** - Camera space is left-handed, the camera at the origin looking down +z,
**   +x right and +y up on the screen.
** - Matrices are 4x4, stored row-major, and act on row vectors:
**   p' = p * M, with the translation in the last row (m[12..14]). A RIB
**   "Transform [a b c d ...]" is stored exactly as written. Composing
**   "first A, then B" is A * B (rib_matrix_mul(A, B)).
** - Each request that changes the current transform applies *before* the
**   existing one: "Translate 1 0 0  Rotate 90 0 0 1" rotates the object
**   first and then translates it.
** - Geometry stays in object space; RibMesh.object_to_world places it.
**   Triangles are wound so that (v1-v0) x (v2-v0), computed with the
**   ordinary component formula, points along the primitive's RenderMan
**   normal (dPdu x dPdv for parametric surfaces, the vertex order for
**   polygons). Whether a renderer must flip it for the "Orientation"
**   attribute and a mirroring transform is rib_normals_flipped().
** - All floating-point data handed out are floats; matrices are doubles.
*/
#ifndef RTCORE_RIB_SCENE_H
#define RTCORE_RIB_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- diagnostics ---------------------------------------------------------- */

/* Collects "file:line:col: error: text" / "warning: text" messages. */
typedef struct RibDiag {
    FILE *out;          /* each message is also printed here (NULL: not) */
    int max_errors;     /* loading stops after this many errors (default 100) */
    int nerrors, nwarnings;
    char **messages;    /* every message in order, without trailing newline */
    size_t nmessages, cap;
} RibDiag;

void rib_diag_init(RibDiag *diag, FILE *out);
void rib_diag_free(RibDiag *diag);
/* The first message containing text, or NULL. */
const char *rib_diag_find(const RibDiag *diag, const char *text);

/* ---- basic types ------------------------------------------------------------ */

typedef struct RibMatrix {
    double m[16];       /* row-major, row vectors; see the conventions above */
} RibMatrix;

/* A place in a RIB file; file points into the scene's string table. */
typedef struct RibLoc {
    const char *file;
    int line, col;
} RibLoc;

typedef enum RibType {
    RIB_TYPE_FLOAT, RIB_TYPE_INTEGER, RIB_TYPE_STRING, RIB_TYPE_COLOR,
    RIB_TYPE_POINT, RIB_TYPE_VECTOR, RIB_TYPE_NORMAL, RIB_TYPE_HPOINT,
    RIB_TYPE_MATRIX
} RibType;

typedef enum RibClass {
    RIB_CLASS_CONSTANT, RIB_CLASS_UNIFORM, RIB_CLASS_VARYING,
    RIB_CLASS_VERTEX, RIB_CLASS_FACEVARYING
} RibClass;

/* A typed parameter: a shader argument, an Option/Attribute value, a
   display parameter. Numbers (integers too) are floats in f; strings are
   in s. There are count elements of ncomp values each, where ncomp is the
   type's component count (color 3, hpoint 4, matrix 16, ...) times the
   array length of "float[3] x"-style declarations. */
typedef struct RibParam {
    const char *name;   /* for Option/Attribute values: "category:name" */
    RibType type;
    RibClass cls;       /* as declared (uniform when not said) */
    int arraylen;       /* 0 when not declared as an array */
    int ncomp;
    size_t count;
    float *f;           /* count * ncomp numbers, NULL for strings */
    char **s;           /* count * ncomp strings for RIB_TYPE_STRING */
    /* A shader parameter given without a declaration: its values are
       floats (one each) or strings, and the shader's own parameter
       gives the type. */
    bool untyped;
} RibParam;

/* Looks a parameter up by name; NULL when absent. */
const RibParam *rib_param_find(const RibParam *params, size_t n,
                               const char *name);

/* ---- shaders, lights, attributes --------------------------------------------- */

/* A shader request: the renderer binds name + params to compiled code. */
typedef struct RibShader {
    const char *name;
    RibParam *params;
    size_t nparams;
    RibMatrix to_world;  /* the shader's space (the current transform when
                            it was declared) to world space */
    RibLoc loc;
} RibShader;

typedef struct RibLight {
    RibShader shader;
    const char *handle;  /* the RIB handle as written: "1" or "key" */
    int area;            /* AreaLightSource: meshes whose attrs->area_light
                            is this light emit it */
    const struct RibAttributes *attrs; /* the attribute state at the light's
                            declaration (BMRT's "light" attributes) */
} RibLight;

typedef enum RibOrientation { RIB_ORIENT_LH, RIB_ORIENT_RH } RibOrientation;

/* The attribute state a primitive was made with. Shared by many meshes. */
typedef struct RibAttributes {
    float color[3], opacity[3];
    int sides;                   /* 1 or 2 */
    bool matte;                  /* Matte 1: a holdout, hiding what lies
                                    behind it with no color and no alpha */
    float st[8];                 /* TextureCoordinates: s, t at (u, v) =
                                    (0,0), (1,0), (0,1), (1,1) */
    RibOrientation orientation;  /* the current orientation as it reads
                                    in camera space: RISpec's flips with
                                    the handedness of the coordinate
                                    system, so LH is "outside" anywhere */
    const RibShader *surface, *displacement, *atmosphere, *interior,
                    *exterior;   /* NULL when not set */
    const RibLight *area_light;  /* NULL unless inside an AreaLightSource */
    const RibLight **lights;     /* the lights switched on */
    size_t nlights;
    RibParam *attributes;        /* every Attribute value, "category:name" */
    size_t nattributes;
} RibAttributes;

/* ---- geometry ------------------------------------------------------------------ */

/* Where a primitive variable's values live on the triangle mesh. */
typedef enum RibInterp {
    RIB_INTERP_CONSTANT,   /* one value */
    RIB_INTERP_TRIANGLE,   /* one value per triangle (uniform variables) */
    RIB_INTERP_VERTEX      /* one value per mesh vertex: interpolate with
                              the hit's barycentrics */
} RibInterp;

typedef struct RibPrimvar {
    RibParam p;            /* p.cls is the class given in the RIB; p.count
                              is 1, ntris or nverts according to interp */
    RibInterp interp;
} RibPrimvar;

/* One primitive, tessellated. */
typedef struct RibMesh {
    const char *prim;      /* request name: "Sphere", "PointsPolygons", ... */
    RibLoc loc;
    size_t nverts;
    float *P;              /* 3 * nverts, object space */
    float *Ng;             /* NULL, or 3 * nverts unit normals dPdu x dPdv
                              of parametric surfaces (quadrics, patches,
                              NURBS) for smooth shading */
    float *uv;             /* NULL, or 2 * nverts surface parameters (u, v)
                              of parametric surfaces */
    size_t ntris;
    uint32_t *tris;        /* 3 * ntris vertex indices */
    RibPrimvar *primvars;  /* everything but P/Pw/Pz: N, Cs, Os, st, ... */
    size_t nprimvars;
    RibMatrix object_to_world; /* for meshes of a RibObject: to the
                                  object's own space */
    const RibAttributes *attrs;
} RibMesh;

const RibPrimvar *rib_mesh_primvar(const RibMesh *mesh, const char *name);

/* A retained object (ObjectBegin/ObjectEnd). */
typedef struct RibObject {
    const char *handle;
    RibLoc loc;
    RibMesh *meshes;
    size_t nmeshes;
} RibObject;

/* An ObjectInstance. Per RISpec the object inherits the attributes in
   force at the instance (attrs); attributes set inside the object block
   are in its meshes' attrs. */
typedef struct RibInstance {
    const RibObject *object;
    RibMatrix object_to_world;
    const RibAttributes *attrs;
    RibLoc loc;
} RibInstance;

/* ---- options and frames ------------------------------------------------------ */

typedef enum RibProjection {
    RIB_PROJ_ORTHOGRAPHIC, RIB_PROJ_PERSPECTIVE
} RibProjection;

typedef enum RibFilter {
    RIB_FILTER_BOX, RIB_FILTER_TRIANGLE, RIB_FILTER_GAUSSIAN,
    RIB_FILTER_CATMULLROM, RIB_FILTER_SINC
} RibFilter;

typedef enum RibDisplayType {
    RIB_DISPLAY_FILE, RIB_DISPLAY_TIFF, RIB_DISPLAY_PNG, RIB_DISPLAY_EXR,
    RIB_DISPLAY_FRAMEBUFFER,
    RIB_DISPLAY_ZFILE,     /* depth with the camera's matrices */
    RIB_DISPLAY_SHADOW     /* the same, marked a shadow map */
} RibDisplayType;

typedef struct RibDisplay {
    const char *name;      /* without the leading '+' */
    RibDisplayType type;   /* "file" means the default image format */
    const char *mode;      /* "rgb", "rgba", "z", ... */
    RibParam *params;
    size_t nparams;
} RibDisplay;

typedef struct RibQuantize {
    float one, min, max, dither;
} RibQuantize;

typedef struct RibOptions {
    int xres, yres;
    float pixel_aspect;
    float frame_aspect;      /* 0: not set; see rib_frame_aspect() */
    float screen[4];         /* left right bottom top, if screen_set */
    int screen_set;
    float crop[4];           /* xmin xmax ymin ymax */
    RibProjection projection;
    float fov;               /* degrees, perspective only */
    float near_clip, far_clip;
    /* DepthOfField: a thin lens of focal_length at f-number fstop,
       focused at focal_distance (camera-space units); fstop infinite
       (the default) is a pinhole. */
    float fstop, focal_length, focal_distance;
    float pixel_samples[2];
    RibLoc format_loc, samples_loc;  /* of Format and PixelSamples; file NULL if unset */
    RibFilter filter;
    float filter_width[2];
    float exposure_gain, exposure_gamma;
    RibQuantize quantize_rgba, quantize_z;
    RibDisplay *displays;    /* the first is the primary display */
    size_t ndisplays;
    const RibShader *imager; /* NULL when none */
    const char *hider;
    int trace_maxdepth;
    const char *shader_path, *texture_path, *archive_path; /* ':'-lists */
    RibParam *options;       /* every Option value, "category:name" */
    size_t noptions;
} RibOptions;

/* The frame aspect ratio: as set, or from Format. */
float rib_frame_aspect(const RibOptions *opt);
/* The screen window: as set, or RISpec's default for the frame aspect. */
void rib_screen_window(const RibOptions *opt, float window[4]);

/* A named coordinate system (CoordinateSystem, and "camera"). */
typedef struct RibCoordSys {
    const char *name;
    RibMatrix to_world;
} RibCoordSys;

/* One WorldBegin/WorldEnd block with the options in force at WorldBegin. */
typedef struct RibFrame {
    int number;              /* FrameBegin's number, -1 without one */
    RibLoc loc;              /* of WorldBegin */
    RibOptions options;
    RibMatrix world_to_camera;
    RibLight **lights;
    size_t nlights;
    RibMesh *meshes;
    size_t nmeshes;
    RibInstance *instances;
    size_t ninstances;
    RibCoordSys *coordsys;
    size_t ncoordsys;
} RibFrame;

/* A texture-making request (RISpec 3.2 section 8): done by the renderer
   between frames, after the frames before it have written their
   displays (a shadow pass's depth map), before the frames after it. */
typedef enum RibMakeKind {
    RIB_MAKE_TEXTURE,     /* MakeTexture: an image as a texture */
    RIB_MAKE_LATLONG,     /* MakeLatLongEnvironment */
    RIB_MAKE_CUBEFACE,    /* MakeCubeFaceEnvironment: six faces */
    RIB_MAKE_SHADOW       /* MakeShadow: a depth map as a shadow map */
} RibMakeKind;

typedef struct RibMake {
    RibMakeKind kind;
    const char *inputs[6];   /* one picture, or the faces px nx py ny pz nz */
    int ninputs;
    const char *output;
    const char *wrap;        /* "swrap,twrap" of MakeTexture, else NULL */
    size_t before_frame;     /* done before frames[before_frame] */
    RibLoc loc;
} RibMake;

typedef struct RibScene {
    const char *path;        /* the file loaded (the name given for text
                                loaded from memory) */
    RibFrame *frames;
    size_t nframes;
    RibObject **objects;
    size_t nobjects;
    RibMake *makes;          /* in the file's order */
    size_t nmakes;
    struct RibStore *store;  /* private: shared attributes, strings */
} RibScene;

/* ---- loading --------------------------------------------------------------------- */

typedef struct RibLoadOptions {
    double max_angle_deg;    /* tessellation: largest angle a facet may
                                turn through (default 2.5) */
    size_t max_triangles;    /* budget for the whole scene (default 50M) */
    int max_archive_depth;   /* ReadArchive nesting (default 32); an
                                archive including itself stops at once */
    /* What '@' stands for in each searchpath (default "."). */
    const char *default_shader_path, *default_texture_path,
               *default_archive_path;
    /* What is unknown or not supported (an unknown request, Blobby,
       Procedural "RunProgram", motion blur, CSG, trim curves) is an error
       rather than a warning (rtrender --strict). */
    bool strict;
} RibLoadOptions;

void rib_load_options_init(RibLoadOptions *opt);

/* Loads a RIB file (plain or gzip'd). Returns NULL after a fatal error
   (an unreadable or damaged file, unbalanced blocks, too many errors);
   otherwise the scene, with any non-fatal errors and warnings in diag.
   A request that is wrong (malformed arguments, wrong counts) is an
   error and skipped, as RenderMan does, and loading goes on; a bad
   parameter or primitive variable is dropped from its request. An
   archive that would include itself is an error and not read. An
   unknown request (a renderer's own, GeometricRepresentation, ...) and
   what is merely not supported (motion blur, CSG, trim curves, Blobby,
   ...) are warnings naming it, skipped, and errors with opt->strict;
   unknown Option/Attribute names are warnings. */
RibScene *rib_load(const char *path, RibDiag *diag);
RibScene *rib_load_ex(const char *path, const RibLoadOptions *opt,
                      RibDiag *diag);
/* The same for RIB text in memory; name is used in messages and
   relative archives resolve against the current directory. */
RibScene *rib_load_memory(const char *name, const void *data, size_t size,
                          const RibLoadOptions *opt, RibDiag *diag);
void rib_scene_free(RibScene *scene);

/* ---- helpers for the renderer ---------------------------------------------------- */

/* a then b: rib_matrix_mul(a, b) = a * b. */
RibMatrix rib_matrix_mul(const RibMatrix *a, const RibMatrix *b);
/* m's inverse; false (inv untouched) if m is singular. */
bool rib_matrix_invert(const RibMatrix *m, RibMatrix *inv);
/* Transforms a point (w = 1, divided by the resulting w). */
void rib_transform_point(const RibMatrix *m, const double p[3], double out[3]);
/* rtcore's 3x4 column-vector form (rtAttachInstance). */
void rib_matrix_to_rt(const RibMatrix *m, float xfm[12]);
/* Whether a primitive's normal taken in camera space (the cross product
   of its triangles' camera-space edges) must be negated to point
   outside, given the full object-to-camera transform: under a mirroring
   transform that product is the opposite of the object-space normal
   (see above) carried to camera space, and a primitive of right-handed
   orientation (as it reads in camera space) is inside out. */
int rib_normals_flipped(RibOrientation orientation,
                        const RibMatrix *object_to_camera);

#endif /* RTCORE_RIB_SCENE_H */
