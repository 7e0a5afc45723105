/*
** transform.c: requests on the current transformation (Translate, Rotate,
** ConcatTransform, ...) and named coordinate systems. Concatenating
** requests premultiply (CTM' = T * CTM): the newest one acts first on the
** object. Before WorldBegin the CTM maps to camera space, after it to
** world space.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/request.h"

/* CTM' = t * CTM, unless that overflows (huge scales piled up): then an
   error, and the transform stays as it was. */
static void concat(RibCtx *c, const RibRequest *r, const RibMatrix *t)
{
    RibMatrix m = rib_matrix_mul(t, &c->attr.ctm);
    for (int i = 0; i < 16; i++) {
        if (!isfinite(m.m[i])) {
            rib_error(c, r->loc, "%s: the current transform would overflow; "
                      "request skipped", r->name);
            return;
        }
    }
    c->attr.ctm = m;
}

void rib_req_Identity(RibCtx *c, const RibRequest *r)
{
    if (rib_args_end(c, r, 0))
        c->attr.ctm = rib_matrix_identity();
}

/* A 16-number matrix argument, as written (row-major). */
static bool matrix_arg(RibCtx *c, const RibRequest *r, RibMatrix *m)
{
    size_t pos = 0;
    return rib_arg_numbers(c, r, &pos, 16, m->m, "the matrix") &&
           rib_args_end(c, r, pos);
}

void rib_req_Transform(RibCtx *c, const RibRequest *r)
{
    RibMatrix m;
    if (matrix_arg(c, r, &m))
        c->attr.ctm = m;
}

void rib_req_ConcatTransform(RibCtx *c, const RibRequest *r)
{
    RibMatrix m;
    if (matrix_arg(c, r, &m))
        concat(c, r, &m);
}

/* n numbers and nothing else. */
static bool numbers(RibCtx *c, const RibRequest *r, size_t n, double *v,
                    const char *what)
{
    size_t pos = 0;
    return rib_arg_numbers(c, r, &pos, n, v, what) && rib_args_end(c, r, pos);
}

void rib_req_Translate(RibCtx *c, const RibRequest *r)
{
    double v[3];
    if (numbers(c, r, 3, v, "dx dy dz")) {
        RibMatrix t = rib_matrix_translate(v[0], v[1], v[2]);
        concat(c, r, &t);
    }
}

void rib_req_Rotate(RibCtx *c, const RibRequest *r)
{
    double v[4];
    if (numbers(c, r, 4, v, "angle dx dy dz")) {
        RibMatrix t = rib_matrix_rotate(v[0], v[1], v[2], v[3]);
        concat(c, r, &t);
    }
}

void rib_req_Scale(RibCtx *c, const RibRequest *r)
{
    double v[3];
    if (numbers(c, r, 3, v, "sx sy sz")) {
        RibMatrix t = rib_matrix_scale(v[0], v[1], v[2]);
        concat(c, r, &t);
    }
}

void rib_req_Skew(RibCtx *c, const RibRequest *r)
{
    double v[7];
    if (numbers(c, r, 7, v, "angle dx1 dy1 dz1 dx2 dy2 dz2")) {
        RibMatrix t = rib_matrix_skew(v[0], v + 1, v + 4);
        concat(c, r, &t);
    }
}

void rib_req_CoordinateSystem(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the name");
    if (!name || !rib_args_end(c, r, pos))
        return;
    RibMatrix *m = rib_xmalloc(sizeof *m);
    *m = c->attr.ctm;
    free(rib_map_put(c->frame ? &c->world_coordsys : &c->coordsys, name, m));
}

void rib_req_CoordSysTransform(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the name");
    if (!name || !rib_args_end(c, r, pos))
        return;
    const RibMatrix *m;
    RibMatrix to_world;
    if (c->frame && (m = rib_map_get(&c->world_coordsys, name))) {
        c->attr.ctm = *m;
    } else if ((m = rib_map_get(&c->coordsys, name))) {
        /* defined before WorldBegin: it maps to camera space */
        to_world = c->frame ? rib_matrix_mul(m, &c->camera_to_world) : *m;
        c->attr.ctm = to_world;
    } else if (strcmp(name, "camera") == 0) {
        c->attr.ctm = c->frame ? c->camera_to_world : rib_matrix_identity();
    } else if (strcmp(name, "world") == 0 && c->frame) {
        c->attr.ctm = rib_matrix_identity();
    } else {
        rib_error(c, r->args[0].loc, "CoordSysTransform: unknown coordinate "
                  "system \"%s\"", name);
    }
}
