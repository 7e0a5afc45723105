/*
** primvar.h: a geometric primitive's parameter list — its positions and
** primitive variables — checked against the primitive's class counts and
** interpolated onto the tessellated vertices (primvar.c).
*/
#ifndef RTCORE_RIB_PRIMVAR_H
#define RTCORE_RIB_PRIMVAR_H

#include "render/rib/request.h"

/* How many values each class needs on a primitive (RISpec's tables). */
typedef struct RibPrimCounts {
    size_t uniform, varying, vertex, facevarying;
} RibPrimCounts;

/* Kinds of positions, in order of preference when several are given. */
typedef enum RibPosKind {
    RIB_POS_NONE, RIB_POS_P, RIB_POS_PW, RIB_POS_PZ
} RibPosKind;

typedef struct RibPrim {
    RibParam pos;          /* "P", "Pw" or "Pz" (count 0 for NONE) */
    RibPosKind poskind;
    RibParam *vars;        /* every other parameter */
    size_t nvars;
} RibPrim;

/* Reads the parameter list at args[pos] and takes the positions out of
   it: kinds up to most are accepted (RIB_POS_PW: P or Pw; RIB_POS_PZ:
   height fields too; RIB_POS_NONE: primitives without positions, which
   ignore any). False (after an error) when required positions are
   missing. */
bool rib_prim_parse(RibCtx *c, const RibRequest *r, size_t pos,
                    RibPosKind most, RibPrim *prim);
/* Checks every value count against counts: too few is an error (a
   variable is dropped; missing positions fail the primitive), too many a
   warning. */
bool rib_prim_check(RibCtx *c, const RibRequest *r, RibPrim *prim,
                    const RibPrimCounts *counts);
void rib_prim_free(RibPrim *prim);
/* The positions as homogeneous points (x, y, z, w), 4n doubles; a height
   field "Pz" is spread over [0,1]^2 on its nu x nv grid. */
double *rib_prim_points(const RibPrim *prim, size_t nu, size_t nv);

/* A weighted sum of source values: value = sum w[i] * src[idx[i]]. */
typedef struct RibStencil {
    int n;
    const size_t *idx;
    const double *w;
} RibStencil;

/* Gives the mesh (nverts, ntris set) one output primvar per variable,
   constants filled in. */
void rib_prim_outputs(const RibPrim *prim, RibMesh *m);
/* Writes mesh vertex k of every vertex, varying and facevarying
   variable from the stencil for its class. */
void rib_prim_vertex(const RibPrim *prim, RibMesh *m, size_t k,
                     const RibStencil *vertex, const RibStencil *varying,
                     const RibStencil *facevarying);
/* Writes triangle t of every uniform variable from face. */
void rib_prim_triangle(const RibPrim *prim, RibMesh *m, size_t t,
                       size_t face);

#endif /* RTCORE_RIB_PRIMVAR_H */
