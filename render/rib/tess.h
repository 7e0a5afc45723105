/*
** tess.h: parametric surfaces (quadrics, bilinear/bicubic patches, NURBS)
** as the tessellator sees them, and the tessellator (tess.c).
**
** A surface is a grid of nfu x nfv faces (one uniform value each, u
** fastest). Inside a face, local parameters (a, b) run over [0,1]^2. The
** surface gives either an analytic point function or the basis weights of
** its control points; the corners of each face for varying (and
** facevarying) values; and the (u, v) surface parameters.
*/
#ifndef RTCORE_RIB_TESS_H
#define RTCORE_RIB_TESS_H

#include "render/rib/primvar.h"

/* Most control points one surface point depends on (NURBS of order 16
   in both directions). */
#define RIB_MAX_STENCIL 256
/* Most segments one face is cut into along each direction. */
#define RIB_MAX_FACE_SEGMENTS 64

typedef struct RibSurface RibSurface;
struct RibSurface {
    int nfu, nfv;
    /* Analytic surfaces: the point and its a and b derivatives. Their
       vertex-class values are interpolated like varying ones. */
    void (*point)(const RibSurface *s, double a, double b, double P[3],
                  double Pa[3], double Pb[3]);
    /* Control-point surfaces: the weights of face (fu, fv)'s control
       points at (a, b), with their a and b derivatives; returns how many
       (at most RIB_MAX_STENCIL). */
    int (*basis)(const RibSurface *s, int fu, int fv, double a, double b,
                 size_t *idx, double *w, double *wa, double *wb);
    const double *cp;      /* homogeneous control points (x, y, z, w) */
    /* Whether the points were given as "Pw": then the basis combines
       them in four dimensions and divides by w. Plain points are combined
       as they are, since Hermite and power weights do not sum to one. */
    bool rational;
    /* Varying corners of a face: (0,0) (1,0) (0,1) (1,1). */
    void (*corners)(const RibSurface *s, int fu, int fv, size_t idx[4]);
    void (*uv)(const RibSurface *s, int fu, int fv, double a, double b,
               double uv[2]);
    /* Analytic surfaces (one face) choose their own segment counts;
       others get them from the sampled turning of their tangents. */
    void (*segments)(const RibSurface *s, double max_angle, int *su,
                     int *sv);
    /* Columns/rows of zero width (empty NURBS knot spans), or NULL. */
    const bool *empty_u, *empty_v;
    const void *data;
};

/* Tessellates s, interpolates prim's variables onto it and emits the
   mesh. prim must have been checked against the surface's counts. */
void rib_tessellate(RibCtx *c, const RibRequest *r, const RibSurface *s,
                    const RibPrim *prim);

/* Segments for sweeping through angle (radians) in steps of at most
   max_angle (radians): at least 1. */
int rib_angle_segments(double angle, double max_angle);

#endif /* RTCORE_RIB_TESS_H */
