/*
** patch.c: Patch and PatchMesh. A single patch is a 2x2 (bilinear) or
** 4x4 (bicubic) mesh, so both go through one mesh surface: patch (pu, pv)
** uses the control points from (pu*ustep, pv*vstep), wrapping around in
** periodic directions, weighted by the current u and v bases. The mesh's
** (u, v) run from 0 to 1 over the whole mesh.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/basis.h"
#include "render/rib/tess.h"

typedef struct Mesh {
    int order;                 /* 2: bilinear, 4: bicubic */
    RibBasis ubasis, vbasis;
    size_t nu, nv;             /* control points */
    int ustep, vstep;
    int nup, nvp;              /* patches */
    size_t nuvary, nvvary;     /* varying values along u and v */
} Mesh;

/* Weights along one direction: linear, or the cubic basis. */
static void weights(const Mesh *m, const RibBasis *b, double t, double w[4],
                    double dw[4])
{
    if (m->order == 2) {
        w[0] = 1 - t, w[1] = t;
        dw[0] = -1, dw[1] = 1;
    } else {
        rib_basis_eval(b, t, w, dw);
    }
}

static int mesh_basis(const RibSurface *s, int fu, int fv, double a,
                      double b, size_t *idx, double *w, double *wa,
                      double *wb)
{
    const Mesh *m = s->data;
    double bu[4], dbu[4], bv[4], dbv[4];
    weights(m, &m->ubasis, a, bu, dbu);
    weights(m, &m->vbasis, b, bv, dbv);
    int n = 0;
    for (int j = 0; j < m->order; j++) {
        size_t cv = ((size_t)fv * (size_t)m->vstep + (size_t)j) % m->nv;
        for (int i = 0; i < m->order; i++, n++) {
            size_t cu = ((size_t)fu * (size_t)m->ustep + (size_t)i) % m->nu;
            idx[n] = cv * m->nu + cu;
            w[n] = bu[i] * bv[j];
            wa[n] = dbu[i] * bv[j];
            wb[n] = bu[i] * dbv[j];
        }
    }
    return n;
}

static void mesh_corners(const RibSurface *s, int fu, int fv, size_t idx[4])
{
    const Mesh *m = s->data;
    size_t u0 = (size_t)fu, u1 = ((size_t)fu + 1) % m->nuvary;
    size_t v0 = (size_t)fv, v1 = ((size_t)fv + 1) % m->nvvary;
    idx[0] = v0 * m->nuvary + u0;
    idx[1] = v0 * m->nuvary + u1;
    idx[2] = v1 * m->nuvary + u0;
    idx[3] = v1 * m->nuvary + u1;
}

static void mesh_uv(const RibSurface *s, int fu, int fv, double a, double b,
                    double uv[2])
{
    const Mesh *m = s->data;
    uv[0] = (fu + a) / m->nup;
    uv[1] = (fv + b) / m->nvp;
}

/* Patches along one direction of n control points; 0 after an error. */
static int patches_along(RibCtx *c, const RibRequest *r, const Mesh *m,
                         size_t n, int step, bool periodic, const char *dir)
{
    if (m->order == 2) {
        if (!periodic && n < 2) {
            rib_error(c, r->loc, "%s: a bilinear mesh needs n%s >= 2",
                      r->name, dir);
            return 0;
        }
        return (int)(periodic ? n : n - 1);
    }
    if (periodic ? n % (size_t)step != 0
                 : n < 4 || (n - 4) % (size_t)step != 0) {
        rib_error(c, r->loc, "%s: n%s = %zu does not fit a %s bicubic mesh "
                  "with %sstep %d", r->name, dir, n,
                  periodic ? "periodic" : "nonperiodic", dir, step);
        return 0;
    }
    return (int)(periodic ? n / (size_t)step : (n - 4) / (size_t)step + 1);
}

static void patch_mesh(RibCtx *c, const RibRequest *r, const char *type,
                       size_t nu, bool uper, size_t nv, bool vper,
                       size_t params_at)
{
    Mesh m;
    memset(&m, 0, sizeof m);
    if (strcmp(type, "bilinear") == 0) {
        m.order = 2;
        m.ustep = m.vstep = 1;
    } else if (strcmp(type, "bicubic") == 0) {
        m.order = 4;
        m.ubasis = c->attr.ubasis;
        m.vbasis = c->attr.vbasis;
        m.ustep = m.ubasis.step;
        m.vstep = m.vbasis.step;
    } else {
        rib_error(c, r->args[0].loc, "%s: unknown type \"%s\" (bilinear, "
                  "bicubic)", r->name, type);
        return;
    }
    m.nu = nu;
    m.nv = nv;
    if (!(m.nup = patches_along(c, r, &m, nu, m.ustep, uper, "u")) ||
        !(m.nvp = patches_along(c, r, &m, nv, m.vstep, vper, "v")))
        return;
    m.nuvary = (size_t)m.nup + !uper;
    m.nvvary = (size_t)m.nvp + !vper;
    RibPrimCounts counts;
    counts.uniform = (size_t)m.nup * (size_t)m.nvp;
    counts.varying = counts.facevarying = m.nuvary * m.nvvary;
    if (!rib_mul_size(nu, nv, &counts.vertex)) {
        rib_error(c, r->loc, "%s: nu x nv overflows", r->name);
        return;
    }
    RibPrim prim;
    if (!rib_prim_parse(c, r, params_at, RIB_POS_PZ, &prim))
        return;
    if (rib_prim_check(c, r, &prim, &counts)) {
        double *cp = rib_prim_points(&prim, nu, nv);
        RibSurface s = {
            .nfu = m.nup, .nfv = m.nvp, .basis = mesh_basis, .cp = cp,
            .rational = prim.poskind == RIB_POS_PW,
            .corners = mesh_corners, .uv = mesh_uv, .data = &m,
        };
        rib_tessellate(c, r, &s, &prim);
        free(cp);
    }
    rib_prim_free(&prim);
}

void rib_req_Patch(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *type = rib_arg_string(c, r, &pos, "the type");
    if (!type)
        return;
    size_t n = strcmp(type, "bilinear") == 0 ? 2 : 4;
    patch_mesh(c, r, type, n, false, n, false, pos);
}

static bool wrap_arg(RibCtx *c, const RibRequest *r, size_t *pos,
                     bool *periodic)
{
    const char *w = rib_arg_string(c, r, pos, "the wrap mode");
    if (!w)
        return false;
    /* "wrap" and "nowrap" are the older spellings (RISpec 3.0, BMRT). */
    *periodic = strcmp(w, "periodic") == 0 || strcmp(w, "wrap") == 0;
    if (!*periodic && strcmp(w, "nonperiodic") != 0 && strcmp(w, "nowrap") != 0) {
        rib_error(c, r->args[*pos - 1].loc, "%s: unknown wrap mode \"%s\" "
                  "(periodic, nonperiodic)", r->name, w);
        return false;
    }
    return true;
}

void rib_req_PatchMesh(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    long nu, nv;
    bool uper, vper;
    const char *type = rib_arg_string(c, r, &pos, "the type");
    if (type && rib_arg_int(c, r, &pos, 1, 0x7fffffffL, &nu, "nu") &&
        wrap_arg(c, r, &pos, &uper) &&
        rib_arg_int(c, r, &pos, 1, 0x7fffffffL, &nv, "nv") &&
        wrap_arg(c, r, &pos, &vper))
        patch_mesh(c, r, type, (size_t)nu, uper, (size_t)nv, vper, pos);
}
