/*
** request.h: a RIB request as the parser hands it to its handler (name,
** location, arguments), the helpers handlers use to take arguments and
** parameter lists apart, and every handler the dispatch table names.
*/
#ifndef RTCORE_RIB_REQUEST_H
#define RTCORE_RIB_REQUEST_H

#include "render/rib/internal.h"

typedef enum RibArgKind {
    RIB_ARG_NUMBER, RIB_ARG_STRING, RIB_ARG_NUMBERS, RIB_ARG_STRINGS
} RibArgKind;

/* One argument; scalars have n == 1 too. */
typedef struct RibArg {
    RibArgKind kind;
    RibLoc loc;
    size_t n;
    double *nums;   /* NUMBER, NUMBERS */
    char **strs;    /* STRING, STRINGS */
} RibArg;

typedef struct RibRequest {
    const char *name;   /* interned */
    RibLoc loc;
    RibArg *args;
    size_t nargs, cap;
} RibRequest;

typedef void (*RibHandler)(RibCtx *c, const RibRequest *r);

/* ---- taking arguments apart (request.c) ------------------------------------
   Each helper starts at args[*pos], advances *pos past what it took, and
   reports a located error and returns false (or NULL) when the arguments
   do not fit. what names the argument(s) in messages. */

/* n numbers, given one by one or as a single array of n. */
bool rib_arg_numbers(RibCtx *c, const RibRequest *r, size_t *pos, size_t n,
                     double *out, const char *what);
/* An integer in [min, max], as a number or a one-element array. */
bool rib_arg_int(RibCtx *c, const RibRequest *r, size_t *pos, long min,
                 long max, long *out, const char *what);
/* A string, or a one-element string array. */
const char *rib_arg_string(RibCtx *c, const RibRequest *r, size_t *pos,
                           const char *what);
/* An array of numbers (a single number counts as an array of one). */
const RibArg *rib_arg_number_array(RibCtx *c, const RibRequest *r,
                                   size_t *pos, const char *what);
/* A handle: an integer or a string, as an interned map key in which
   strings keep a leading '"' so "1" and 1 differ. */
const char *rib_arg_handle(RibCtx *c, const RibRequest *r, size_t *pos,
                           const char *what);
/* A handle key as the user wrote it. */
const char *rib_handle_text(const char *key);
/* Reports arguments left over after the last one expected. */
bool rib_args_end(RibCtx *c, const RibRequest *r, size_t pos);
/* Number i of argument a as an integer in [min, max]; false (after an
   error naming what, and [i] for arrays) when it is not. */
bool rib_int_at(RibCtx *c, const RibRequest *r, const RibArg *a, size_t i,
                long min, long max, long *out, const char *what);

/* ---- parameter lists (params.c) ---------------------------------------------
   Reads "token" value pairs from args[pos] on into typed parameters.
   Undeclared tokens, and values of the wrong type or count, are errors and
   skipped (unknown Option/Attribute names only warned about). category is the Option/Attribute
   category whose own names apply (NULL elsewhere); the result's names are
   then "category:name". The caller owns *out (rib_params_free). */
void rib_params(RibCtx *c, const RibRequest *r, size_t pos,
                const char *category, RibParam **out, size_t *n);
/* The same for a shader's parameters: an undeclared token is kept
   untyped (float or string values, RibParam.untyped) for the renderer
   to type from the shader. */
void rib_shader_params(RibCtx *c, const RibRequest *r, size_t pos,
                       RibParam **out, size_t *n);
/* Replaces the store-owned list *list (*n) by a new one holding add's
   parameters (taken) in place of any of the same name. */
void rib_params_merge(RibCtx *c, RibParam **list, size_t *n, RibParam *add,
                      size_t nadd);

/* ---- handlers ---------------------------------------------------------------- */

/* blocks.c */
void rib_req_FrameBegin(RibCtx *c, const RibRequest *r);
void rib_req_FrameEnd(RibCtx *c, const RibRequest *r);
void rib_req_WorldBegin(RibCtx *c, const RibRequest *r);
void rib_req_WorldEnd(RibCtx *c, const RibRequest *r);
void rib_req_AttributeBegin(RibCtx *c, const RibRequest *r);
void rib_req_AttributeEnd(RibCtx *c, const RibRequest *r);
void rib_req_TransformBegin(RibCtx *c, const RibRequest *r);
void rib_req_TransformEnd(RibCtx *c, const RibRequest *r);
void rib_req_SolidBegin(RibCtx *c, const RibRequest *r);
void rib_req_SolidEnd(RibCtx *c, const RibRequest *r);
void rib_req_MotionBegin(RibCtx *c, const RibRequest *r);
void rib_req_MotionEnd(RibCtx *c, const RibRequest *r);
void rib_req_ObjectBegin(RibCtx *c, const RibRequest *r);
void rib_req_ObjectEnd(RibCtx *c, const RibRequest *r);
void rib_req_ObjectInstance(RibCtx *c, const RibRequest *r);

/* options.c */
void rib_req_Format(RibCtx *c, const RibRequest *r);
void rib_req_FrameAspectRatio(RibCtx *c, const RibRequest *r);
void rib_req_ScreenWindow(RibCtx *c, const RibRequest *r);
void rib_req_CropWindow(RibCtx *c, const RibRequest *r);
void rib_req_Projection(RibCtx *c, const RibRequest *r);
void rib_req_Clipping(RibCtx *c, const RibRequest *r);
void rib_req_DepthOfField(RibCtx *c, const RibRequest *r);
void rib_req_PixelSamples(RibCtx *c, const RibRequest *r);
void rib_req_PixelFilter(RibCtx *c, const RibRequest *r);
void rib_req_Exposure(RibCtx *c, const RibRequest *r);
void rib_req_Quantize(RibCtx *c, const RibRequest *r);
void rib_req_Display(RibCtx *c, const RibRequest *r);
void rib_req_MakeTexture(RibCtx *c, const RibRequest *r);
void rib_req_MakeLatLongEnvironment(RibCtx *c, const RibRequest *r);
void rib_req_MakeCubeFaceEnvironment(RibCtx *c, const RibRequest *r);
void rib_req_MakeShadow(RibCtx *c, const RibRequest *r);
void rib_req_Hider(RibCtx *c, const RibRequest *r);
void rib_req_Option(RibCtx *c, const RibRequest *r);
void rib_req_Imager(RibCtx *c, const RibRequest *r);
void rib_req_Declare(RibCtx *c, const RibRequest *r);

/* transform.c */
void rib_req_Identity(RibCtx *c, const RibRequest *r);
void rib_req_Transform(RibCtx *c, const RibRequest *r);
void rib_req_ConcatTransform(RibCtx *c, const RibRequest *r);
void rib_req_Translate(RibCtx *c, const RibRequest *r);
void rib_req_Rotate(RibCtx *c, const RibRequest *r);
void rib_req_Scale(RibCtx *c, const RibRequest *r);
void rib_req_Skew(RibCtx *c, const RibRequest *r);
void rib_req_CoordinateSystem(RibCtx *c, const RibRequest *r);
void rib_req_CoordSysTransform(RibCtx *c, const RibRequest *r);

/* attributes.c */
void rib_req_Color(RibCtx *c, const RibRequest *r);
void rib_req_Opacity(RibCtx *c, const RibRequest *r);
void rib_req_Orientation(RibCtx *c, const RibRequest *r);
void rib_req_ReverseOrientation(RibCtx *c, const RibRequest *r);
void rib_req_Sides(RibCtx *c, const RibRequest *r);
void rib_req_Matte(RibCtx *c, const RibRequest *r);
void rib_req_TextureCoordinates(RibCtx *c, const RibRequest *r);
void rib_req_Attribute(RibCtx *c, const RibRequest *r);
void rib_req_Basis(RibCtx *c, const RibRequest *r);
void rib_req_TrimCurve(RibCtx *c, const RibRequest *r);
void rib_req_ColorSamples(RibCtx *c, const RibRequest *r);

/* shaders.c */
void rib_req_Surface(RibCtx *c, const RibRequest *r);
void rib_req_Displacement(RibCtx *c, const RibRequest *r);
void rib_req_Atmosphere(RibCtx *c, const RibRequest *r);
void rib_req_Interior(RibCtx *c, const RibRequest *r);
void rib_req_Exterior(RibCtx *c, const RibRequest *r);
void rib_req_LightSource(RibCtx *c, const RibRequest *r);
void rib_req_AreaLightSource(RibCtx *c, const RibRequest *r);
void rib_req_Illuminate(RibCtx *c, const RibRequest *r);

/* archive.c */
void rib_req_ReadArchive(RibCtx *c, const RibRequest *r);
void rib_req_Procedural(RibCtx *c, const RibRequest *r);

/* quadric.c */
void rib_req_Sphere(RibCtx *c, const RibRequest *r);
void rib_req_Cone(RibCtx *c, const RibRequest *r);
void rib_req_Cylinder(RibCtx *c, const RibRequest *r);
void rib_req_Hyperboloid(RibCtx *c, const RibRequest *r);
void rib_req_Paraboloid(RibCtx *c, const RibRequest *r);
void rib_req_Disk(RibCtx *c, const RibRequest *r);
void rib_req_Torus(RibCtx *c, const RibRequest *r);

/* polygon.c */
void rib_req_Polygon(RibCtx *c, const RibRequest *r);
void rib_req_GeneralPolygon(RibCtx *c, const RibRequest *r);
void rib_req_PointsPolygons(RibCtx *c, const RibRequest *r);
void rib_req_PointsGeneralPolygons(RibCtx *c, const RibRequest *r);

/* patch.c */
void rib_req_Patch(RibCtx *c, const RibRequest *r);
void rib_req_PatchMesh(RibCtx *c, const RibRequest *r);

/* nurbs.c */
void rib_req_NuPatch(RibCtx *c, const RibRequest *r);

/* points.c */
void rib_req_Points(RibCtx *c, const RibRequest *r);

/* curves.c */
void rib_req_Curves(RibCtx *c, const RibRequest *r);

/* subdiv.c */
void rib_req_SubdivisionMesh(RibCtx *c, const RibRequest *r);

#endif /* RTCORE_RIB_REQUEST_H */
