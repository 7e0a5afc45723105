/*
** shade.c: shading a batch of hits on one mesh. The hits' geometry
** becomes the shaders' globals (RISpec 3.2 section 12: P, N, Ng, I, E,
** u, v, s, t, du, dv, dPdu, dPdv, Cs, Os) and primitive variables fill
** the parameters they name; then the displacement shader moves P and N,
** every light that is on runs over the batch, and the surface shader
** runs with those lights behind illuminance. Derivatives come from each
** hit's neighbours in the batch (vm.h's VmDeriv).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/internal.h"
#include "vm/debug.h"
#include "vm/grid.h"

/* The globals of a batch, lane by lane. */
typedef struct Geo {
    float P[VM_MAX_BATCH][3], N[VM_MAX_BATCH][3], Ng[VM_MAX_BATCH][3], I[VM_MAX_BATCH][3];
    float E[VM_MAX_BATCH][3], dPdu[VM_MAX_BATCH][3], dPdv[VM_MAX_BATCH][3];
    float Cs[VM_MAX_BATCH][3], Os[VM_MAX_BATCH][3];
    float u[VM_MAX_BATCH], v[VM_MAX_BATCH], s[VM_MAX_BATCH], t[VM_MAX_BATCH];
    float du[VM_MAX_BATCH], dv[VM_MAX_BATCH];
} Geo;

void shade_ctx_init(ShadeCtx *c, const RWorld *w, ShaderLib *lib, int maxdepth)
{
    memset(c, 0, sizeof *c);
    c->world = w;
    c->lib = lib;
    c->maxdepth = maxdepth < 0 ? 0 : maxdepth > RT_MAX_DEPTH ? RT_MAX_DEPTH : maxdepth;
    c->debug_lane = -1;
    int ncode = shaderlib_ncode(lib);
    for (int d = 0; d <= c->maxdepth; d++) {
        c->sessions[d] = calloc((size_t)(ncode ? ncode : 1), sizeof **c->sessions);
        c->open[d] = calloc((size_t)(ncode ? ncode : 1), sizeof **c->open);
        size_t entries = w->max_samples > 0 ? (size_t)w->max_samples : 1;
        c->frame[d].light = malloc(entries * VM_MAX_BATCH * sizeof *c->frame[d].light);
        c->frame[d].lit = malloc(entries * VM_MAX_BATCH);
    }
    host_install(c);
}

void shade_ctx_free(ShadeCtx *c)
{
    int ncode = shaderlib_ncode(c->lib);
    for (int d = 0; d <= c->maxdepth; d++) {
        for (int i = 0; i < ncode; i++)
            if (c->open[d][i])
                vm_session_close(&c->sessions[d][i]);
        free(c->sessions[d]);
        free(c->open[d]);
        free(c->frame[d].light);
        free(c->frame[d].lit);
    }
}

/* The session of sh's code at the current depth, opened on first use. */
static int open_session(ShadeCtx *c, const RShader *sh, VmSession **out, char *err, int errlen)
{
    VmSession *ss = &c->sessions[c->depth][sh->code];
    if (!c->open[c->depth][sh->code]) {
        if (vm_session_open(ss, sh->obj, &c->host, VM_MAX_BATCH, err, errlen) < 0)
            return -1;
        c->open[c->depth][sh->code] = true;
    }
    *out = ss;
    return 0;
}

static void store_globals(const RShader *sh, VmState *s, const Geo *g, int n)
{
    static const float three = 3;
    rshader_store(sh, s, RV_P, &g->P[0][0], 3, n);
    rshader_store(sh, s, RV_N, &g->N[0][0], 3, n);
    rshader_store(sh, s, RV_Ng, &g->Ng[0][0], 3, n);
    rshader_store(sh, s, RV_I, &g->I[0][0], 3, n);
    rshader_store(sh, s, RV_E, &g->E[0][0], 3, n);
    rshader_store(sh, s, RV_dPdu, &g->dPdu[0][0], 3, n);
    rshader_store(sh, s, RV_dPdv, &g->dPdv[0][0], 3, n);
    rshader_store(sh, s, RV_Cs, &g->Cs[0][0], 3, n);
    rshader_store(sh, s, RV_Os, &g->Os[0][0], 3, n);
    rshader_store(sh, s, RV_u, g->u, 1, n);
    rshader_store(sh, s, RV_v, g->v, 1, n);
    rshader_store(sh, s, RV_s, g->s, 1, n);
    rshader_store(sh, s, RV_t, g->t, 1, n);
    rshader_store(sh, s, RV_du, g->du, 1, n);
    rshader_store(sh, s, RV_dv, g->dv, 1, n);
    if (sh->var[RV_ncomps])
        vm_var_store(s, sh->var[RV_ncomps], &three, 1, 0);
}

static void sub3(const float a[3], const float b[3], float o[3])
{
    o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

/* A primitive variable's k floats at a hit. */
static void primvar_at(const RibPrimvar *pv, const ShadeIn *h, const uint32_t *tri, float *out)
{
    int k = pv->p.ncomp;
    const float *f = pv->p.f;
    if (pv->interp == RIB_INTERP_CONSTANT) {
        memcpy(out, f, (size_t)k * sizeof *out);
    } else if (pv->interp == RIB_INTERP_TRIANGLE) {
        memcpy(out, f + (size_t)h->prim * (size_t)k, (size_t)k * sizeof *out);
    } else {
        float b0 = 1 - h->b1 - h->b2;
        for (int j = 0; j < k; j++)
            out[j] = b0 * f[(size_t)tri[0] * (size_t)k + (size_t)j]
                     + h->b1 * f[(size_t)tri[1] * (size_t)k + (size_t)j]
                     + h->b2 * f[(size_t)tri[2] * (size_t)k + (size_t)j];
    }
}

static const RibPrimvar *numeric_primvar(const RibMesh *m, const char *name, int ncomp)
{
    const RibPrimvar *pv = rib_mesh_primvar(m, name);
    return pv && pv->p.f && pv->p.ncomp == ncomp ? pv : NULL;
}

/* The primitive variables that become globals, looked up once a batch. */
typedef struct MeshVars {
    const RibPrimvar *N, *st, *s, *t, *Cs, *Os;
} MeshVars;

static MeshVars mesh_vars(const RibMesh *m)
{
    return (MeshVars){ numeric_primvar(m, "N", 3),  numeric_primvar(m, "st", 2),
                       numeric_primvar(m, "s", 1),  numeric_primvar(m, "t", 1),
                       numeric_primvar(m, "Cs", 3), numeric_primvar(m, "Os", 3) };
}

/* The geometry of lane l's hit. */
static void hit_geometry(const RibMesh *m, const MeshVars *mv, const RLook *look,
                         const ShadeIn *h, Geo *g, int l)
{
    const uint32_t *tri = m->tris + 3 * (size_t)h->prim;
    float b[3] = { 1 - h->b1 - h->b2, h->b1, h->b2 }, V[3][3];
    look_triangle(look, m, h->prim, V);
    float e1[3], e2[3];
    sub3(V[1], V[0], e1);
    sub3(V[2], V[0], e2);
    for (int j = 0; j < 3; j++) {
        g->P[l][j] = b[0] * V[0][j] + b[1] * V[1][j] + b[2] * V[2][j];
        g->E[l][j] = h->org[j];
        g->I[l][j] = g->P[l][j] - h->org[j];
    }
    float *Ng = g->Ng[l], sign = look->flip ? -1.0f : 1.0f;
    Ng[0] = sign * (e1[1] * e2[2] - e1[2] * e2[1]);
    Ng[1] = sign * (e1[2] * e2[0] - e1[0] * e2[2]);
    Ng[2] = sign * (e1[0] * e2[1] - e1[1] * e2[0]);
    normalize3(Ng);
    const RibPrimvar *N = mv->N;
    if (N || m->Ng) {
        float n[3] = { 0, 0, 0 };
        if (N) {
            primvar_at(N, h, tri, n);
        } else {
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    n[j] += b[i] * m->Ng[3 * (size_t)tri[i] + (size_t)j] * sign;
        }
        rmat_normal(look->normal, n, g->N[l]);
        normalize3(g->N[l]);
    } else {
        memcpy(g->N[l], Ng, sizeof g->N[l]);
    }
    /* Surface parameters, and dP/du, dP/dv from the triangle's. */
    float uv[3][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 } };
    if (m->uv)
        for (int i = 0; i < 3; i++)
            uv[i][0] = m->uv[2 * (size_t)tri[i]], uv[i][1] = m->uv[2 * (size_t)tri[i] + 1];
    g->u[l] = b[0] * uv[0][0] + b[1] * uv[1][0] + b[2] * uv[2][0];
    g->v[l] = b[0] * uv[0][1] + b[1] * uv[1][1] + b[2] * uv[2][1];
    float du1 = uv[1][0] - uv[0][0], dv1 = uv[1][1] - uv[0][1];
    float du2 = uv[2][0] - uv[0][0], dv2 = uv[2][1] - uv[0][1];
    float det = du1 * dv2 - du2 * dv1;
    for (int j = 0; j < 3; j++) {
        g->dPdu[l][j] = det != 0 ? (dv2 * e1[j] - dv1 * e2[j]) / det : e1[j];
        g->dPdv[l][j] = det != 0 ? (du1 * e2[j] - du2 * e1[j]) / det : e2[j];
    }
    const RibPrimvar *st = mv->st, *s = mv->s, *t = mv->t;
    float two[2];
    g->s[l] = g->u[l], g->t[l] = g->v[l];
    if (st) {
        primvar_at(st, h, tri, two);
        g->s[l] = two[0], g->t[l] = two[1];
    }
    if (s)
        primvar_at(s, h, tri, &g->s[l]);
    if (t)
        primvar_at(t, h, tri, &g->t[l]);
    const RibPrimvar *Cs = mv->Cs, *Os = mv->Os;
    if (Cs)
        primvar_at(Cs, h, tri, g->Cs[l]);
    else
        memcpy(g->Cs[l], look->attrs->color, sizeof g->Cs[l]);
    if (Os)
        primvar_at(Os, h, tri, g->Os[l]);
    else
        memcpy(g->Os[l], look->attrs->opacity, sizeof g->Os[l]);
}

/* Each lane's neighbours and their offsets in (u, v); du and dv are the
   parameter steps between adjacent hits. */
static void neighbours(const ShadeIn *in, int n, Geo *g, VmDeriv *d)
{
    for (int l = 0; l < n; l++) {
        int a = in[l].na >= 0 ? in[l].na : l, b = in[l].nb >= 0 ? in[l].nb : l;
        d->na[l] = (uint8_t)a, d->nb[l] = (uint8_t)b;
        d->dua[l] = g->u[a] - g->u[l], d->dva[l] = g->v[a] - g->v[l];
        d->dub[l] = g->u[b] - g->u[l], d->dvb[l] = g->v[b] - g->v[l];
        g->du[l] = fmaxf(fabsf(d->dua[l]), fabsf(d->dub[l]));
        g->dv[l] = fmaxf(fabsf(d->dva[l]), fabsf(d->dvb[l]));
    }
}

/* Primitive variables named like a shader's parameters set them (RISpec
   section 5: they override the instance's values). */
static void store_primvars(const RibMesh *m, const RLook *look, const VmObject *o, VmState *s,
                           const ShadeIn *in, int n)
{
    for (size_t i = 0; i < m->nprimvars; i++) {
        const RibPrimvar *pv = &m->primvars[i];
        const VmVar *v = NULL;
        for (uint32_t k = 0; k < o->nparams && !v; k++)
            if (!strcmp(o->params[k].name, pv->p.name))
                v = &o->params[k];
        if (!v || !pv->p.f || v->type == VM_T_STRING
            || vm_type_slots(v->type, v->arraylen) != (unsigned)pv->p.ncomp)
            continue;
        for (int l = 0; l < ((v->reg & VM_V) ? n : 1); l++) {
            float val[VM_MAX_VALUE];
            primvar_at(pv, &in[l], m->tris + 3 * (size_t)in[l].prim, val);
            if (v->type == VM_T_POINT)
                rmat_point(&look->to_camera, val, val);
            else if (v->type == VM_T_VECTOR)
                rmat_vector(&look->to_camera, val, val);
            else if (v->type == VM_T_NORMAL)
                rmat_normal(look->normal, val, val);
            vm_var_store(s, v, val, (unsigned)pv->p.ncomp, l);
        }
        vm_param_given(o, s, v->name);
    }
}

/* What a run takes beyond the batch's geometry: the surface's Ci and Oi
   for a volume shader; an area light's own points and normals. */
typedef struct Inputs {
    float (*Ci)[3], (*Oi)[3];
    const float (*lightP)[3], (*lightN)[3];
} Inputs;

/* Readies a batch of sh on session ss: its parameters, the globals in g
   (or for a light, Ps), the primitive's variables, and x's inputs. */
static void prepare(ShadeCtx *c, const RShader *sh, VmSession *ss, const Geo *g,
                    const ShadeIn *in, int n, const VmDeriv *d, const Inputs *x, VmState *s)
{
    ShadeFrame *f = &c->frame[c->depth];
    vm_session_batch(ss, s, n);
    rshader_bind(sh, ss, s);
    if (sh->obj->kind == VM_LIGHT) {
        /* Ps is the surface point; the light's own P and N stay unset.
           L, Cl and Ol start at zero: lanes that illuminate's cone
           leaves out keep them so (registers keep the last batch's). */
        static const float zero[VM_MAX_BATCH][3];
        rshader_store(sh, s, RV_Ps, &g->P[0][0], 3, n);
        rshader_store(sh, s, RV_E, &g->E[0][0], 3, n);
        rshader_store(sh, s, RV_L, &zero[0][0], 3, n);
        rshader_store(sh, s, RV_Cl, &zero[0][0], 3, n);
        rshader_store(sh, s, RV_Ol, &zero[0][0], 3, n);
    } else {
        store_globals(sh, s, g, n);
        store_primvars(f->mesh, f->look, sh->obj, s, in, n);
    }
    if (x && x->Ci) {
        rshader_store(sh, s, RV_Ci, &x->Ci[0][0], 3, n);
        rshader_store(sh, s, RV_Oi, &x->Oi[0][0], 3, n);
    }
    if (x && x->lightP) {
        rshader_store(sh, s, RV_P, &x->lightP[0][0], 3, n);
        rshader_store(sh, s, RV_N, &x->lightN[0][0], 3, n);
    }
    for (int l = 0; l < n; l++)
        s->random_seed[l] = in[l].seed;
    s->deriv = d;
    f->running = sh;
}

/* Runs sh over the batch as prepare() readies it; s is left holding its
   results. */
static int run_with(ShadeCtx *c, const RShader *sh, const Geo *g, const ShadeIn *in, int n,
                    const VmDeriv *d, const Inputs *x, VmState *s, char *err, int errlen)
{
    VmSession *ss;
    if (open_session(c, sh, &ss, err, errlen) < 0)
        return -1;
    prepare(c, sh, ss, g, in, n, d, x, s);
    c->batches++;
    return vm_session_run(ss, s, err, errlen);
}

/* What rsldb needs to run a batch again and again. */
typedef struct DebugBatch {
    ShadeCtx *c;
    const RShader *sh;
    const Geo *g;
    const ShadeIn *in;
    int n;
    const VmDeriv *d;
} DebugBatch;

static bool debug_fill(VmSession *ss, VmState *s, int batch, void *data)
{
    const DebugBatch *b = data;
    if (batch > 0)
        return false;
    prepare(b->c, b->sh, ss, b->g, b->in, b->n, b->d, NULL, s);
    return true;
}

/* rtrender --debug-pixel: the surface shader of the batch under rsldb,
   showing the pixel's lane; the render goes on when the session ends. */
static int debug_surface(ShadeCtx *c, const RShader *sh, const Geo *g, const ShadeIn *in, int n,
                         const VmDeriv *d, char *err, int errlen)
{
    VmSession *ss;
    if (open_session(c, sh, &ss, err, errlen) < 0)
        return -1;
    Rsldb *db = rsldb_attach(ss, stdin, stdout, err, errlen);
    if (!db)
        return -1;
    rsldb_select_lane(db, c->debug_lane);
    printf("rtrender: the pixel is lane %d of %d shaded by \"%s\" (%s:%d); rsldb commands "
           "follow ('help' lists them)\n",
           c->debug_lane, n, sh->rib->name, sh->rib->loc.file, sh->rib->loc.line);
    fflush(stdout);
    DebugBatch b = { c, sh, g, in, n, d };
    rsldb_repl(db, debug_fill, &b);
    rsldb_free(db);
    c->debug_lane = -1;
    return 0;
}

static int run(ShadeCtx *c, const RShader *sh, const Geo *g, const ShadeIn *in, int n,
               const VmDeriv *d, VmState *s, char *err, int errlen)
{
    return run_with(c, sh, g, in, n, d, NULL, s, err, errlen);
}

/* A point on an area light's surface for lane l's sample k of K: a
   triangle by area, stratified over k, and a uniform point on it. */
static void area_point(const RArea *a, uint32_t seed, int k, int K, float P[3], float N[3])
{
    uint32_t at = 3u * (uint32_t)k;
    float r0 = ((float)k + rt_unit(rt_hash(seed, at, 0x632be5abu))) / (float)K;
    float r1 = rt_unit(rt_hash(seed, at + 1, 0x632be5abu));
    float r2 = rt_unit(rt_hash(seed, at + 2, 0x632be5abu));
    double want = r0 * a->area;
    size_t lo = 0, hi = a->ntris - 1;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->cdf[mid] < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    float su = sqrtf(r1), b1 = su * (1 - r2), b2 = su * r2, b0 = 1 - b1 - b2;
    for (int j = 0; j < 3; j++) {
        P[j] = b0 * a->tri[lo][0][j] + b1 * a->tri[lo][1][j] + b2 * a->tri[lo][2][j];
        N[j] = a->normal[lo][j];
    }
}

/* Every light of the look over the batch: what illuminance sees. An area
   light is as many lights as it takes samples, each a point on its
   surface whose Cl and Ol count area / samples (a Monte Carlo estimate of
   the light's integral over its surface). */
static int run_lights(ShadeCtx *c, const Geo *g, const ShadeIn *in, int n, const VmDeriv *d,
                      char *err, int errlen)
{
    ShadeFrame *f = &c->frame[c->depth];
    const RLook *look = f->look;
    c->host.nlights = look->nsamples;
    int e = 0;
    for (int i = 0; i < look->nlights; i++) {
        const RShader *sh = look->lights[i].shader;
        const RArea *area = look->lights[i].area;
        int K = area ? area->samples : 1;
        float weight = area ? (float)(area->area / K) : 1;
        for (int k = 0; k < K; k++, e++) {
            float P[VM_MAX_BATCH][3], N[VM_MAX_BATCH][3];
            for (int l = 0; area && l < n; l++)
                area_point(area, in[l].seed, k, K, P[l], N[l]);
            VmState s;
            Inputs x = { .lightP = P, .lightN = N };
            if (run_with(c, sh, g, in, n, d, area ? &x : NULL, &s, err, errlen) < 0)
                return -1;
            float L[VM_MAX_BATCH][3], Cl[VM_MAX_BATCH][3], Ol[VM_MAX_BATCH][3];
            rshader_load(sh, &s, RV_L, &L[0][0], 3, n);
            rshader_load(sh, &s, RV_Cl, &Cl[0][0], 3, n);
            rshader_load(sh, &s, RV_Ol, &Ol[0][0], 3, n);
            for (int l = 0; l < n; l++) {
                VmLightSample *o = &f->light[e * VM_MAX_BATCH + l];
                /* The light's L runs from it to the surface; illuminance's
                   runs from the surface to the light. An L never set
                   means illuminate's cone left the point out. */
                for (int j = 0; j < 3; j++)
                    o->L[j] = -L[l][j], o->Cl[j] = weight * Cl[l][j], o->Ol[j] = weight * Ol[l][j];
                o->ambient = sh->ambient;
                f->lit[e * VM_MAX_BATCH + l] = sh->ambient || L[l][0] != 0 || L[l][1] != 0
                                               || L[l][2] != 0;
            }
        }
    }
    return 0;
}

/* The atmosphere between the eye and the hits (RISpec 3.2 section 9.3):
   a volume shader turns the surface's Ci and Oi into what reaches the
   eye, with I the ray from the eye to P. */
static int run_volume(ShadeCtx *c, const RShader *sh, const Geo *g, const ShadeIn *in, int n,
                      const VmDeriv *d, float (*Ci)[3], float (*Oi)[3], char *err, int errlen)
{
    VmState s;
    Inputs x = { .Ci = Ci, .Oi = Oi };
    if (run_with(c, sh, g, in, n, d, &x, &s, err, errlen) < 0)
        return -1;
    rshader_load(sh, &s, RV_Ci, &Ci[0][0], 3, n);
    rshader_load(sh, &s, RV_Oi, &Oi[0][0], 3, n);
    return 0;
}

/* RISpec's default surface when none is given: brighter where the
   surface faces the eye. */
static void default_surface(const Geo *g, int n, float (*Ci)[3], float (*Oi)[3])
{
    for (int l = 0; l < n; l++) {
        float i[3] = { g->I[l][0], g->I[l][1], g->I[l][2] };
        normalize3(i);
        float k = fabsf(g->N[l][0] * i[0] + g->N[l][1] * i[1] + g->N[l][2] * i[2]);
        for (int j = 0; j < 3; j++) {
            Oi[l][j] = g->Os[l][j];
            Ci[l][j] = g->Os[l][j] * g->Cs[l][j] * (0.2f + 0.8f * k);
        }
    }
}

int shade_batch(ShadeCtx *c, const RibMesh *mesh, const RLook *look, const ShadeIn *in, int n,
                float (*Ci)[3], float (*Oi)[3], char *err, int errlen)
{
    ShadeFrame *f = &c->frame[c->depth];
    f->mesh = mesh, f->look = look;
    /* A batch shaded for trace() sets its own light count; the caller's
       illuminance loop gets its own back afterwards. */
    int outer_nlights = c->host.nlights;
    Geo *g = malloc(sizeof *g);
    VmDeriv *d = malloc(sizeof *d);
    VmState s;
    int rc = 0;
    MeshVars mv = mesh_vars(mesh);
    for (int l = 0; l < n; l++)
        hit_geometry(mesh, &mv, look, &in[l], g, l);
    neighbours(in, n, g, d);
    c->shading_points += (uint64_t)n;
    if (look->displacement) {
        rc = run(c, look->displacement, g, in, n, d, &s, err, errlen);
        if (rc == 0) {
            rshader_load(look->displacement, &s, RV_P, &g->P[0][0], 3, n);
            rshader_load(look->displacement, &s, RV_N, &g->N[0][0], 3, n);
            for (int l = 0; l < n; l++)
                sub3(g->P[l], g->E[l], g->I[l]);
        }
    }
    if (rc == 0)
        rc = run_lights(c, g, in, n, d, err, errlen);
    if (rc == 0 && look->surface && c->debug_lane >= 0 && c->depth == 0)
        rc = debug_surface(c, look->surface, g, in, n, d, err, errlen);
    if (rc == 0 && look->surface) {
        rc = run(c, look->surface, g, in, n, d, &s, err, errlen);
        if (rc == 0) {
            rshader_load(look->surface, &s, RV_Ci, &Ci[0][0], 3, n);
            rshader_load(look->surface, &s, RV_Oi, &Oi[0][0], 3, n);
        }
    } else if (rc == 0) {
        default_surface(g, n, Ci, Oi);
    }
    if (rc == 0 && look->atmosphere)
        rc = run_volume(c, look->atmosphere, g, in, n, d, Ci, Oi, err, errlen);
    free(g);
    free(d);
    c->host.nlights = outer_nlights;
    return rc;
}
