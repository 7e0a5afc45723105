/*
** internal.h: what the RIB reader's files share and the public header does
** not show: memory helpers, the string map, the store that owns shared
** scene data, matrices, diagnostics, and the loader's context.
*/
#ifndef RTCORE_RIB_INTERNAL_H
#define RTCORE_RIB_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>

#include "render/rib/scene.h"

/* ---- memory (util.c) -------------------------------------------------------- */

/* Allocation failures abort with a message: every size that input controls
   is checked against the input's own length before it gets here. */
void *rib_xmalloc(size_t n);
void *rib_xcalloc(size_t n, size_t size);
void *rib_xrealloc(void *p, size_t n);
char *rib_xstrdup(const char *s);
/* Makes room for need elements of size bytes in p (capacity *cap). */
void *rib_grow(void *p, size_t *cap, size_t need, size_t size);
#define RIB_PUSH(arr, n, cap) \
    ((arr) = rib_grow((arr), &(cap), (n) + 1, sizeof *(arr)), &(arr)[(n)++])
/* a * b, or false when it overflows size_t. */
bool rib_mul_size(size_t a, size_t b, size_t *out);
/* A double as a float, saturating to +-infinity instead of overflowing. */
float rib_to_float(double x);

/* ---- string map (util.c) ---------------------------------------------------- */

typedef struct RibMap {
    char **keys;
    void **vals;
    size_t n, cap;
} RibMap;

void *rib_map_get(const RibMap *m, const char *key);
/* Sets key (copied) to val; returns the previous value or NULL. */
void *rib_map_put(RibMap *m, const char *key, void *val);
/* The map's own copy of key (after a put), for interning. */
const char *rib_map_key(const RibMap *m, const char *key);
void rib_map_free(RibMap *m);
/* Frees the values with free() too. */
void rib_map_free_all(RibMap *m);

/* ---- the store: shared, immutable scene data (store.c) --------------------- */

typedef struct RibStore {
    RibMap strings;          /* interned strings */
    void **blocks;           /* freed with free() */
    size_t nblocks, capblocks;
    RibParam **paramsets;    /* parameter arrays with their counts */
    size_t *paramcounts;
    size_t nparamsets, capparamsets, capparamcounts;
} RibStore;

const char *rib_intern(RibStore *st, const char *s);
/* Takes ownership of a plain block and returns it. */
void *rib_store_keep(RibStore *st, void *block);
/* Takes ownership of a parameter array (and what its params own). */
RibParam *rib_store_params(RibStore *st, RibParam *p, size_t n);
void rib_store_free(RibStore *st);
void rib_params_free(RibParam *p, size_t n);
/* Frees what one parameter owns. */
void rib_param_clear(RibParam *p);
RibParam rib_param_copy(const RibParam *p);

/* ---- matrices (matrix.c) ---------------------------------------------------- */

RibMatrix rib_matrix_identity(void);
RibMatrix rib_matrix_translate(double x, double y, double z);
RibMatrix rib_matrix_scale(double x, double y, double z);
/* Rotation by angle degrees about axis (left-handed rotation sense of
   RenderMan: positive angles turn +x towards +y about +z). */
RibMatrix rib_matrix_rotate(double angle, double ax, double ay, double az);
RibMatrix rib_matrix_skew(double angle, const double d1[3],
                          const double d2[3]);
double rib_matrix_det(const RibMatrix *m);
/* Returns false (and identity) when m is singular. */

/* ---- diagnostics (diag.c) --------------------------------------------------- */

void rib_report(RibDiag *d, RibLoc loc, bool error, const char *fmt,
                va_list ap);

/* ---- declarations (decl.c) -------------------------------------------------- */

typedef struct RibDecl {
    RibType type;
    RibClass cls;
    int arraylen;
    int ncomp;
} RibDecl;

/* Parses "[class] type[[n]] [name]". Returns false for malformed text.
   *name points into text (at the name, or NULL when there is none). */
bool rib_decl_parse(const char *text, RibDecl *decl, const char **name,
                    size_t *namelen);
/* Components of one element of a type (color 3, matrix 16, ...). */
int rib_type_comps(RibType t);
const char *rib_type_name(RibType t);
const char *rib_class_name(RibClass c);
/* Installs the names RISpec predeclares and the known Option/Attribute
   values ("category:name") into decls. */
void rib_decl_standard(RibMap *decls);

/* ---- the loader's context --------------------------------------------------- */

typedef struct RibBasis {
    double m[16];            /* RISpec basis matrix, row-major */
    int step;
} RibBasis;

/* Everything AttributeBegin saves. Pointer members refer to immutable,
   store-owned data, so the state copies by value. */
typedef struct RibAttrState {
    RibMatrix ctm;           /* object to world (camera before WorldBegin) */
    float color[3], opacity[3];
    int sides;
    bool matte;
    float st[8];
    RibOrientation orientation;
    const RibShader *surface, *displacement, *atmosphere, *interior,
                    *exterior;
    const RibLight *area_light;
    const RibLight **lights;
    size_t nlights;
    RibParam *attributes;
    size_t nattributes;
    RibBasis ubasis, vbasis;
    bool trimmed;            /* a TrimCurve is in force */
    const RibAttributes *snapshot; /* output form, NULL after a change */
} RibAttrState;

typedef enum RibBlockKind {
    RIB_BLOCK_FRAME, RIB_BLOCK_WORLD, RIB_BLOCK_ATTRIBUTE,
    RIB_BLOCK_TRANSFORM, RIB_BLOCK_OBJECT, RIB_BLOCK_SOLID,
    RIB_BLOCK_MOTION
} RibBlockKind;

typedef struct RibBlock {
    RibBlockKind kind;
    RibLoc loc;
    RibAttrState saved;
    RibOptions saved_options; /* FrameBegin only */
} RibBlock;

/* A file being read, by identity (device, inode). */
typedef struct RibFileId {
    unsigned long long dev, ino;
} RibFileId;

typedef struct RibCtx {
    RibDiag *diag;
    RibLoadOptions opt;
    RibScene *scene;
    RibStore *store;
    bool fatal;

    RibMap decls;            /* Declare'd and standard names -> RibDecl* */
    RibAttrState attr;
    RibOptions options;
    RibBlock *blocks;
    size_t nblocks, capblocks;

    RibFrame *frame;         /* the world block being read, or NULL */
    int frame_number;        /* of the enclosing FrameBegin, or -1 */
    RibObject *object;       /* the object being defined, or NULL */
    RibMap objects;          /* handle -> RibObject* */
    RibMap lights;           /* handle -> RibLight*, per frame */
    RibMap camera_lights;    /* handle -> RibLight*, declared before
                                WorldBegin (old RIB): their shaders'
                                transforms go to camera space */
    RibMap coordsys;         /* name -> RibMatrix* to camera space, from
                                before WorldBegin */
    RibMap world_coordsys;   /* name -> RibMatrix* to world space, from
                                inside the current world block */
    RibMatrix camera_to_world; /* of the current world block */
    size_t cap_frame_meshes, cap_object_meshes, cap_instances, cap_objects;
    size_t motion_requests;  /* requests seen inside MotionBegin */
    size_t triangles;        /* made so far, against opt.max_triangles */
    int archive_depth;
    const char *file;        /* the file being read (interned) */
    RibFileId *reading;      /* the files being read, outermost first: an
                                archive among them would read itself */
    size_t nreading, capreading;
} RibCtx;

/* The attribute state, about to change: its snapshot is stale. */
static inline RibAttrState *rib_attr_edit(RibCtx *c)
{
    c->attr.snapshot = NULL;
    return &c->attr;
}

/* The current attributes in output form (state.c). */
const RibAttributes *rib_attrs(RibCtx *c);
/* Reports and returns false when ntris more triangles would exceed the
   scene's budget. */
bool rib_budget(RibCtx *c, RibLoc loc, const char *prim, size_t ntris);
/* The camera as seen from object space (the current transform), for
   primitives that turn to face it (Points, Curves): its eye point
   (perspective) or the direction it looks along (orthographic). Inside
   an object definition the object's space is taken as world space. */
typedef struct RibEye {
    bool perspective;
    double at[3], dir[3];
} RibEye;
void rib_eye(RibCtx *c, RibEye *eye);
/* The unit direction from object-space point p towards the camera. */
void rib_eye_towards(const RibEye *eye, const double p[3], double out[3]);
/* Places a finished mesh (taking its arrays) with the current transform
   and attributes in the object or frame being defined. */
void rib_emit_mesh(RibCtx *c, RibMesh *m);
void rib_mesh_free(RibMesh *m);
const char *rib_block_begin_name(RibBlockKind k);
const char *rib_block_end_name(RibBlockKind k);
/* RISpec's named bases ("bezier", "b-spline", ...); false if unknown. */
bool rib_basis_named(const char *name, RibBasis *b);

void rib_error(RibCtx *c, RibLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rib_warning(RibCtx *c, RibLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* What is unknown or not supported (a request, a Procedural kind, CSG,
   motion blur, trim curves): a warning, the request skipped or done in
   part, and loading goes on, as RenderMan renderers do; an error under
   RibLoadOptions.strict. */
void rib_unsupported(RibCtx *c, RibLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Reports an error that stops loading. */
void rib_fatal(RibCtx *c, RibLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* RTCORE_RIB_INTERNAL_H */
