/*
** primvar.c: primitive variables. Checks each variable's value count
** against the primitive's count for its class, and writes the values onto
** the triangle mesh: constants once, uniform values per triangle, and
** vertex/varying/facevarying values per mesh vertex through stencils the
** geometry code supplies (basis weights, bilinear corners, or a copy).
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/primvar.h"

static const char *const pos_names[] = {NULL, "P", "Pw", "Pz"};

static bool is_position(const char *name)
{
    for (int k = RIB_POS_P; k <= RIB_POS_PZ; k++)
        if (strcmp(name, pos_names[k]) == 0)
            return true;
    return false;
}

bool rib_prim_parse(RibCtx *c, const RibRequest *r, size_t pos,
                    RibPosKind most, RibPrim *prim)
{
    static const int comps[] = {0, 3, 4, 1};
    memset(prim, 0, sizeof *prim);
    rib_params(c, r, pos, NULL, &prim->vars, &prim->nvars);
    for (int k = RIB_POS_P; k <= (int)most && !prim->poskind; k++) {
        for (size_t i = 0; i < prim->nvars; i++) {
            if (strcmp(prim->vars[i].name, pos_names[k]) == 0) {
                prim->poskind = (RibPosKind)k;
                prim->pos = prim->vars[i];
                prim->vars[i] = prim->vars[--prim->nvars];
                break;
            }
        }
    }
    if (most != RIB_POS_NONE && !prim->poskind) {
        rib_error(c, r->loc, "%s: no positions (\"P\"%s) given", r->name,
                  most == RIB_POS_PZ ? ", \"Pw\" or \"Pz\"" : " or \"Pw\"");
        rib_prim_free(prim);
        return false;
    }
    /* Only one kind of position is used; drop the others. */
    for (size_t i = 0; i < prim->nvars;) {
        if (is_position(prim->vars[i].name)) {
            rib_warning(c, r->loc, "%s: \"%s\" ignored", r->name,
                        prim->vars[i].name);
            rib_param_clear(&prim->vars[i]);
            prim->vars[i] = prim->vars[--prim->nvars];
        } else {
            i++;
        }
    }
    if (prim->poskind && prim->pos.ncomp != comps[prim->poskind]) {
        rib_error(c, r->loc, "%s: \"%s\" must be declared %s", r->name,
                  prim->pos.name, prim->poskind == RIB_POS_P ? "point"
                                  : prim->poskind == RIB_POS_PW ? "hpoint"
                                                                : "float");
        rib_prim_free(prim);
        return false;
    }
    return true;
}

static size_t class_count(const RibPrimCounts *n, RibClass cls)
{
    switch (cls) {
    case RIB_CLASS_CONSTANT: return 1;
    case RIB_CLASS_UNIFORM: return n->uniform;
    case RIB_CLASS_VARYING: return n->varying;
    case RIB_CLASS_VERTEX: return n->vertex;
    case RIB_CLASS_FACEVARYING: return n->facevarying;
    }
    return 0;
}

/* False (after an error) when p has too few values for its class. */
static bool check_count(RibCtx *c, const RibRequest *r, const RibParam *p,
                        const RibPrimCounts *n)
{
    size_t want = class_count(n, p->cls);
    if (p->count < want) {
        rib_error(c, r->loc, "%s: \"%s\" (%s %s) has %zu values, needs %zu",
                  r->name, p->name, rib_class_name(p->cls),
                  rib_type_name(p->type), p->count, want);
        return false;
    }
    if (p->count > want)
        rib_warning(c, r->loc, "%s: \"%s\" (%s) has %zu values, only %zu "
                    "used", r->name, p->name, rib_class_name(p->cls),
                    p->count, want);
    return true;
}

bool rib_prim_check(RibCtx *c, const RibRequest *r, RibPrim *prim,
                    const RibPrimCounts *counts)
{
    prim->pos.cls = RIB_CLASS_VERTEX;
    if (prim->poskind && !check_count(c, r, &prim->pos, counts))
        return false;
    for (size_t i = 0; i < prim->nvars;) {
        RibParam *p = &prim->vars[i];
        bool ok = check_count(c, r, p, counts);
        if (ok && p->type == RIB_TYPE_STRING && p->cls != RIB_CLASS_CONSTANT &&
            p->cls != RIB_CLASS_UNIFORM) {
            rib_error(c, r->loc, "%s: string variable \"%s\" cannot be %s",
                      r->name, p->name, rib_class_name(p->cls));
            ok = false;
        }
        if (ok) {
            i++;
        } else {
            rib_param_clear(p);
            *p = prim->vars[--prim->nvars];
        }
    }
    return true;
}

void rib_prim_free(RibPrim *prim)
{
    rib_param_clear(&prim->pos);
    rib_params_free(prim->vars, prim->nvars);
    memset(prim, 0, sizeof *prim);
}

double *rib_prim_points(const RibPrim *prim, size_t nu, size_t nv)
{
    size_t n = prim->pos.count;
    double *out = rib_xmalloc(4 * n * sizeof *out);
    const float *f = prim->pos.f;
    for (size_t i = 0; i < n; i++) {
        double *o = out + 4 * i;
        switch (prim->poskind) {
        case RIB_POS_NONE:
        case RIB_POS_P:
            o[0] = f[3 * i], o[1] = f[3 * i + 1], o[2] = f[3 * i + 2];
            o[3] = 1.0;
            break;
        case RIB_POS_PW:
            for (int k = 0; k < 4; k++)
                o[k] = f[4 * i + k];
            break;
        case RIB_POS_PZ:
            o[0] = nu > 1 ? (double)(i % nu) / (double)(nu - 1) : 0.0;
            o[1] = nv > 1 ? (double)(i / nu) / (double)(nv - 1) : 0.0;
            o[2] = f[i];
            o[3] = 1.0;
            break;
        }
    }
    return out;
}

static RibInterp interp_of(RibClass cls)
{
    if (cls == RIB_CLASS_CONSTANT)
        return RIB_INTERP_CONSTANT;
    if (cls == RIB_CLASS_UNIFORM)
        return RIB_INTERP_TRIANGLE;
    return RIB_INTERP_VERTEX;
}

/* Copies element src of p into element dst of out. */
static void copy_element(const RibParam *p, size_t src, RibParam *out,
                         size_t dst)
{
    size_t nc = (size_t)p->ncomp;
    if (p->s) {
        for (size_t j = 0; j < nc; j++)
            out->s[dst * nc + j] = rib_xstrdup(p->s[src * nc + j]);
    } else {
        memcpy(out->f + dst * nc, p->f + src * nc, nc * sizeof *out->f);
    }
}

void rib_prim_outputs(const RibPrim *prim, RibMesh *m)
{
    m->nprimvars = prim->nvars;
    m->primvars = rib_xcalloc(prim->nvars, sizeof *m->primvars);
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        RibPrimvar *o = &m->primvars[i];
        o->p = *p;
        o->interp = interp_of(p->cls);
        o->p.count = o->interp == RIB_INTERP_CONSTANT ? 1
                     : o->interp == RIB_INTERP_TRIANGLE ? m->ntris
                                                        : m->nverts;
        size_t n = o->p.count * (size_t)p->ncomp;
        o->p.f = p->f ? rib_xcalloc(n, sizeof *o->p.f) : NULL;
        o->p.s = p->s ? rib_xcalloc(n, sizeof *o->p.s) : NULL;
        if (o->interp == RIB_INTERP_CONSTANT)
            copy_element(p, 0, &o->p, 0);
    }
}

void rib_prim_vertex(const RibPrim *prim, RibMesh *m, size_t k,
                     const RibStencil *vertex, const RibStencil *varying,
                     const RibStencil *facevarying)
{
    for (size_t i = 0; i < prim->nvars; i++) {
        const RibParam *p = &prim->vars[i];
        const RibStencil *st = p->cls == RIB_CLASS_VERTEX ? vertex
                               : p->cls == RIB_CLASS_VARYING ? varying
                               : p->cls == RIB_CLASS_FACEVARYING ? facevarying
                                                                 : NULL;
        if (!st)
            continue;
        size_t nc = (size_t)p->ncomp;
        float *out = m->primvars[i].p.f + k * nc;
        for (size_t j = 0; j < nc; j++) {
            double s = 0;
            for (int e = 0; e < st->n; e++)
                s += st->w[e] * p->f[st->idx[e] * nc + j];
            out[j] = rib_to_float(s);
        }
    }
}

void rib_prim_triangle(const RibPrim *prim, RibMesh *m, size_t t,
                       size_t face)
{
    for (size_t i = 0; i < prim->nvars; i++)
        if (prim->vars[i].cls == RIB_CLASS_UNIFORM)
            copy_element(&prim->vars[i], face, &m->primvars[i].p, t);
}
