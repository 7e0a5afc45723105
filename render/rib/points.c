/*
** points.c: Points (RISpec 3.2 section 5.6) as small disks that face the
** camera, or face their "N" when one is given (oriented disks).
**
** A disk of diameter "width" (varying) or "constantwidth" (default 1, in
** object space) is a fan of POINT_SIDES triangles around its centre. The
** fan's radius is scaled by sqrt(2 pi / (n sin(2 pi / n))) so that its
** area is the disk's, pi r^2: a point covers as many pixels as a true
** disk would. Every vertex of a point's fan carries the point's vertex,
** varying and facevarying values; uniform and constant values are the
** primitive's one value.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/primvar.h"

#define POINT_SIDES 12

/* Float variable name of class cls, or NULL. */
static const RibParam *float_var(const RibPrim *prim, const char *name,
                                 RibClass cls)
{
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        if (strcmp(p->name, name) == 0 && p->ncomp == 1 && p->f &&
            p->cls == cls)
            return p;
    }
    return NULL;
}

/* The vertex or varying normals "N", or NULL. */
static const RibParam *normals(const RibPrim *prim)
{
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        if (strcmp(p->name, "N") == 0 && p->ncomp == 3 &&
            (p->cls == RIB_CLASS_VERTEX || p->cls == RIB_CLASS_VARYING))
            return p;
    }
    return NULL;
}

/* Two unit vectors spanning the plane normal to unit n, with u x v = n. */
static void plane_of(const double n[3], double u[3], double v[3])
{
    double a[3] = {0, 0, 0};
    a[fabs(n[0]) < 0.6 ? 0 : fabs(n[1]) < 0.6 ? 1 : 2] = 1;
    u[0] = a[1] * n[2] - a[2] * n[1];
    u[1] = a[2] * n[0] - a[0] * n[2];
    u[2] = a[0] * n[1] - a[1] * n[0];
    double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++)
        u[i] /= len;
    v[0] = n[1] * u[2] - n[2] * u[1];
    v[1] = n[2] * u[0] - n[0] * u[2];
    v[2] = n[0] * u[1] - n[1] * u[0];
}

void rib_req_Points(RibCtx *c, const RibRequest *r)
{
    RibPrim prim;
    if (!rib_prim_parse(c, r, 0, RIB_POS_PW, &prim))
        return;
    size_t n = prim.pos.count, fan = POINT_SIDES + 1;
    RibPrimCounts counts = {1, n, n, n};
    if (n >= UINT32_MAX / fan) {
        rib_error(c, r->loc, "%s: too many vertices for 32-bit indices",
                  r->name);
        n = 0;
    }
    if (n == 0 || !rib_prim_check(c, r, &prim, &counts) ||
        !rib_budget(c, r->loc, r->name, POINT_SIDES * n)) {
        rib_prim_free(&prim);
        return;
    }
    const RibParam *width = float_var(&prim, "width", RIB_CLASS_VARYING);
    if (!width)
        width = float_var(&prim, "width", RIB_CLASS_VERTEX);
    const RibParam *cwidth = float_var(&prim, "constantwidth",
                                       RIB_CLASS_CONSTANT);
    const RibParam *N = normals(&prim);
    RibEye eye;
    rib_eye(c, &eye);
    RibMesh m;
    memset(&m, 0, sizeof m);
    m.prim = r->name;
    m.loc = r->loc;
    m.nverts = fan * n;
    m.ntris = POINT_SIDES * n;
    m.P = rib_xmalloc(3 * m.nverts * sizeof *m.P);
    m.Ng = rib_xmalloc(3 * m.nverts * sizeof *m.Ng);
    m.tris = rib_xmalloc(3 * m.ntris * sizeof *m.tris);
    rib_prim_outputs(&prim, &m);
    const double grow = sqrt(2 * M_PI / (POINT_SIDES *
                                         sin(2 * M_PI / POINT_SIDES)));
    double *pts = rib_prim_points(&prim, 0, 0);
    for (size_t i = 0; i < n; i++) {
        double p[3], nrm[3], u[3], v[3];
        for (int k = 0; k < 3; k++)
            p[k] = pts[4 * i + k] / pts[4 * i + 3];
        double len = 0;
        if (N) {
            for (int k = 0; k < 3; k++)
                nrm[k] = N->f[3 * i + k], len += nrm[k] * nrm[k];
            len = sqrt(len);
        }
        if (len > 0)
            for (int k = 0; k < 3; k++)
                nrm[k] /= len;
        else
            rib_eye_towards(&eye, p, nrm);
        plane_of(nrm, u, v);
        double w = width ? width->f[i] : cwidth ? cwidth->f[0] : 1.0;
        double rad = 0.5 * fabs(w) * grow;
        size_t base = fan * i;
        for (size_t j = 0; j < fan; j++) {
            double a = 2 * M_PI * (double)j / POINT_SIDES,
                   s = j ? rad : 0;
            for (int k = 0; k < 3; k++) {
                m.P[3 * (base + j) + k] =
                    rib_to_float(p[k] + s * (cos(a) * u[k] + sin(a) * v[k]));
                m.Ng[3 * (base + j) + k] = (float)nrm[k];
            }
            double one = 1.0;
            RibStencil st = {1, &i, &one};
            rib_prim_vertex(&prim, &m, base + j, &st, &st, &st);
        }
        for (size_t j = 0; j < POINT_SIDES; j++) {
            uint32_t *t = m.tris + 3 * (POINT_SIDES * i + j);
            t[0] = (uint32_t)base;
            t[1] = (uint32_t)(base + 1 + j);
            t[2] = (uint32_t)(base + 1 + (j + 1) % POINT_SIDES);
            rib_prim_triangle(&prim, &m, POINT_SIDES * i + j, 0);
        }
    }
    free(pts);
    rib_prim_free(&prim);
    rib_emit_mesh(c, &m);
}
