/*
** shade.c: shading a batch of hits on one mesh, for the classic
** integrator, through its ShadeSys. The hits' geometry
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

/* The globals of a batch, lane by lane. */
typedef struct Geo {
    float P[VM_MAX_BATCH][3], N[VM_MAX_BATCH][3], Ng[VM_MAX_BATCH][3], I[VM_MAX_BATCH][3];
    float E[VM_MAX_BATCH][3], dPdu[VM_MAX_BATCH][3], dPdv[VM_MAX_BATCH][3];
    float Cs[VM_MAX_BATCH][3], Os[VM_MAX_BATCH][3];
    float u[VM_MAX_BATCH], v[VM_MAX_BATCH], s[VM_MAX_BATCH], t[VM_MAX_BATCH];
    float du[VM_MAX_BATCH], dv[VM_MAX_BATCH];
} Geo;

void shade_ctx_init(ShadeCtx *c, const RWorld *w, ShadeSys *shading, int maxdepth,
                    const atomic_bool *stop)
{
    memset(c, 0, sizeof *c);
    c->world = w;
    c->shading = shading;
    c->maxdepth = maxdepth < 0 ? 0 : maxdepth > RT_MAX_DEPTH ? RT_MAX_DEPTH : maxdepth;
    c->debug_lane = -1;
    host_install(c);
    c->thread = shading->thread_new(shading, &c->host, c->maxdepth, stop);
}

/* The buffers of a frame (its light samples, its batch's globals and
   derivatives), made when a batch first shades at its depth (most
   renders never reach the deeper ones) and kept for the next: room for
   the most light samples any look has, which world.c keeps within
   RT_MAX_LIGHT_SAMPLES. */
static int frame_buffers(ShadeCtx *c, ShadeFrame *f, char *err, int errlen)
{
    size_t entries = c->world->max_samples > 0 ? (size_t)c->world->max_samples : 1;
    if (!f->light)
        f->light = malloc(entries * VM_MAX_BATCH * sizeof *f->light);
    if (!f->lit)
        f->lit = malloc(entries * VM_MAX_BATCH);
    if (!f->geo)
        f->geo = malloc(sizeof *f->geo);
    if (!f->deriv)
        f->deriv = malloc(sizeof *f->deriv);
    if (f->light && f->lit && f->geo && f->deriv)
        return 0;
    snprintf(err, (size_t)errlen, "rtrender: error: out of memory for a batch of %zu light samples",
             entries);
    return -1;
}

void shade_ctx_free(ShadeCtx *c)
{
    c->shading->thread_free(c->thread);
    for (int d = 0; d <= c->maxdepth; d++) {
        free(c->frame[d].light);
        free(c->frame[d].lit);
        free(c->frame[d].geo);
        free(c->frame[d].deriv);
        free(c->frame[d].saved);
        free(c->frame[d].saved_at);
        free(c->frame[d].saved_sh);
    }
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
            /* The surface's own normal, in camera space: as Ng under a
               mirroring transform (RLook.mirrored). */
            float own = look->mirrored ? -sign : sign;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    n[j] += b[i] * m->Ng[3 * (size_t)tri[i] + (size_t)j] * own;
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
    /* TextureCoordinates: s and t bilinear in u and v between the four
       corners (the identity by default). */
    const float *tc = look->attrs->st, u = g->u[l], v = g->v[l];
    g->s[l] = (1 - u) * (1 - v) * tc[0] + u * (1 - v) * tc[2] + (1 - u) * v * tc[4] + u * v * tc[6];
    g->t[l] = (1 - u) * (1 - v) * tc[1] + u * (1 - v) * tc[3] + (1 - u) * v * tc[5] + u * v * tc[7];
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

/* The path tracer's probe lanes (ShadeGiven.probe) are twins of the
   first lanes, hit for hit: lanes [m, n) copy the geometry and seeds of
   lanes [0, n - m) instead of computing them again (stand-in neighbours,
   if any, follow them: path_deriv.c). */
static void twin_geometry(Geo *g, uint32_t *seed, int m, int n)
{
    size_t k = (size_t)(n - m);
#define TWIN(a) memcpy(&g->a[m], &g->a[0], k * sizeof g->a[0])
    TWIN(P), TWIN(N), TWIN(Ng), TWIN(I), TWIN(E), TWIN(dPdu), TWIN(dPdv), TWIN(Cs), TWIN(Os);
    TWIN(u), TWIN(v), TWIN(s), TWIN(t);
#undef TWIN
    memcpy(&seed[m], &seed[0], k * sizeof *seed);
}

/* The parameter step from one hit to its neighbour. Neighbours are
   adjacent pixels, never half a surface apart; a step past 0.5 crosses
   the seam of a closed surface (a sphere's or torus's u from 1 back to
   0), and the short way round is the true one. Taken as it was, it
   turned the derivatives there around: calculatenormal(P) pointed
   inwards along the seam and a displaced sphere showed a black line. */
static float param_step(float to, float from)
{
    float d = to - from;
    return d > 0.5f ? d - 1 : d < -0.5f ? d + 1 : d;
}

bool stand_in_hit(const RibMesh *mesh, const RLook *look, unsigned prim, const float org[3],
                  const float dir[3], ShadeIn *h)
{
    float V[3][3], e1[3], e2[3], pv[3], tv[3], qv[3];
    look_triangle(look, mesh, prim, V);
    for (int k = 0; k < 3; k++)
        e1[k] = V[1][k] - V[0][k], e2[k] = V[2][k] - V[0][k], tv[k] = org[k] - V[0][k];
    pv[0] = dir[1] * e2[2] - dir[2] * e2[1];
    pv[1] = dir[2] * e2[0] - dir[0] * e2[2];
    pv[2] = dir[0] * e2[1] - dir[1] * e2[0];
    float det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
    if (fabsf(det) < 1e-20f)
        return false;
    qv[0] = tv[1] * e1[2] - tv[2] * e1[1];
    qv[1] = tv[2] * e1[0] - tv[0] * e1[2];
    qv[2] = tv[0] * e1[1] - tv[1] * e1[0];
    *h = (ShadeIn){ .org = { org[0], org[1], org[2] }, .dir = { dir[0], dir[1], dir[2] },
                    .t = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) / det,
                    .b1 = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) / det,
                    .b2 = (dir[0] * qv[0] + dir[1] * qv[1] + dir[2] * qv[2]) / det,
                    .prim = prim, .na = -1, .nb = -1 };
    return true;
}

/* Each lane's neighbours and their offsets in (u, v); du and dv are the
   parameter steps between adjacent hits. */
static void neighbours(const ShadeIn *in, int n, Geo *g, VmDeriv *d)
{
    for (int l = 0; l < n; l++) {
        int a = in[l].na >= 0 ? in[l].na : l, b = in[l].nb >= 0 ? in[l].nb : l;
        d->na[l] = (uint8_t)a, d->nb[l] = (uint8_t)b;
        d->dua[l] = param_step(g->u[a], g->u[l]), d->dva[l] = param_step(g->v[a], g->v[l]);
        d->dub[l] = param_step(g->u[b], g->u[l]), d->dvb[l] = param_step(g->v[b], g->v[l]);
        g->du[l] = rt_maxf(fabsf(d->dua[l]), fabsf(d->dub[l]));
        g->dv[l] = rt_maxf(fabsf(d->dva[l]), fabsf(d->dvb[l]));
    }
}

void area_point(const RArea *a, uint32_t seed, int k, int K, float P[3], float N[3])
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

/* The geometry of a batch as its shaders' globals, with its hits'
   seeds, neighbours and primitive variables. */
static ShadeBatch geometry_batch(const ShadeFrame *f, Geo *g, const ShadeIn *in, int n,
                                 const uint32_t *seed, const VmDeriv *d)
{
    ShadeBatch b = { .n = n, .seed = seed, .deriv = d, .mesh = f->mesh, .look = f->look,
                     .hits = in };
    b.in[RV_P] = &g->P[0][0], b.in[RV_N] = &g->N[0][0], b.in[RV_Ng] = &g->Ng[0][0];
    b.in[RV_I] = &g->I[0][0], b.in[RV_E] = &g->E[0][0];
    b.in[RV_dPdu] = &g->dPdu[0][0], b.in[RV_dPdv] = &g->dPdv[0][0];
    b.in[RV_Cs] = &g->Cs[0][0], b.in[RV_Os] = &g->Os[0][0];
    b.in[RV_u] = g->u, b.in[RV_v] = g->v, b.in[RV_s] = g->s, b.in[RV_t] = g->t;
    b.in[RV_du] = g->du, b.in[RV_dv] = g->dv;
    return b;
}

int shade_run(ShadeCtx *c, const RShader *sh, const ShadeBatch *b, char *err, int errlen)
{
    c->frame[c->depth].running = sh;
    c->batches++;
    return c->shading->run(c->thread, c->depth, sh, b, err, errlen);
}

/* Keeps light sample e's parameters (run as sh) for lightsource(). */
static int save_light(ShadeCtx *c, ShadeFrame *f, int e, const RShader *sh, char *err, int errlen)
{
    size_t need = c->shading->param_size(c->thread, c->depth, sh);
    if (f->nsaved_lights <= e) {
        size_t cap = (size_t)e + 16;
        size_t *at = realloc(f->saved_at, cap * sizeof *at);
        const RShader **who = at ? realloc(f->saved_sh, cap * sizeof *who) : NULL;
        if (at)
            f->saved_at = at;
        if (!who)
            goto oom;
        f->saved_sh = who;
        f->nsaved_lights = (int)cap;
    }
    if (f->nsaved + need > f->saved_cap) {
        size_t cap = 2 * (f->nsaved + need);
        float *p = realloc(f->saved, cap * sizeof *p);
        if (!p)
            goto oom;
        f->saved = p, f->saved_cap = cap;
    }
    c->shading->param_save(c->thread, c->depth, sh, f->saved + f->nsaved);
    f->saved_at[e] = f->nsaved;
    f->saved_sh[e] = sh;
    f->nsaved += need;
    return 0;
oom:
    snprintf(err, (size_t)errlen, "rtrender: error: out of memory for lightsource() values");
    return -1;
}

/* A BMRT shadowed light (RLight.shadowed) over the batch: each lane's Cl
   times the transmission to the light, at Ps - L (where illuminate()
   put it), or for a solar light out of the scene against L; the lanes'
   rays go out together (trace_transmission_along). A ray leaves the hit
   where the camera's ray found it, on the traced surface, not P as a
   displacement moved it, which may lie below that surface. */
static void shadow_light(ShadeCtx *c, const RShader *sh, const Geo *g, const ShadeIn *in, int n,
                         const float (*L)[3], float (*Cl)[3])
{
    float p[VM_MAX_BATCH][3], d[VM_MAX_BATCH][3], dist[VM_MAX_BATCH], T[VM_MAX_BATCH][3];
    int lane[VM_MAX_BATCH], m = 0;
    for (int l = 0; l < n; l++) {
        if ((L[l][0] == 0 && L[l][1] == 0 && L[l][2] == 0)
            || (Cl[l][0] == 0 && Cl[l][1] == 0 && Cl[l][2] == 0))
            continue; /* not lit (outside a spotlight's cone, say): nothing to shadow */
        for (int k = 0; k < 3; k++) {
            p[m][k] = in[l].org[k] + in[l].t * in[l].dir[k];
            d[m][k] = sh->solar ? -L[l][k] : g->P[l][k] - L[l][k] - p[m][k];
        }
        float len = sqrtf(d[m][0] * d[m][0] + d[m][1] * d[m][1] + d[m][2] * d[m][2]);
        for (int k = 0; k < 3 && len > 0; k++)
            d[m][k] /= len;
        dist[m] = sh->solar ? INFINITY : len;
        lane[m++] = l;
    }
    trace_transmission_along(c, m, (const float (*)[3])p, (const float (*)[3])d, dist, T);
    for (int j = 0; j < m; j++)
        for (int k = 0; k < 3; k++)
            Cl[lane[j]][k] *= T[j][k];
}

/* Every light of the look over the batch: what illuminance sees. An area
   light is as many lights as it takes samples, each a point on its
   surface whose Cl and Ol count 1 / samples: the mean of its shader over
   its surface (README, "AreaLightSource"). */
static int run_lights(ShadeCtx *c, const Geo *g, const ShadeIn *in, int n, const uint32_t *seed,
                      const VmDeriv *d, char *err, int errlen)
{
    ShadeFrame *f = &c->frame[c->depth];
    const RLook *look = f->look;
    c->host.nlights = look->nsamples;
    int e = 0;
    for (int i = 0; i < look->nlights; i++) {
        const RShader *sh = look->lights[i].shader;
        const RArea *area = look->lights[i].area;
        int K = area ? area->samples : 1;
        float weight = 1.0f / (float)K;
        for (int k = 0; k < K; k++, e++) {
            /* Ps, Ns and I are the surface's point, normal and incident
               ray (PRMan's light globals); the light's own P and N are set
               only for an area light (its sample). L, Cl and Ol start at
               zero: lanes that illuminate's cone leaves out keep them so
               (registers keep the last batch's). */
            static const float zero[VM_MAX_BATCH][3];
            float P[VM_MAX_BATCH][3], N[VM_MAX_BATCH][3];
            float L[VM_MAX_BATCH][3], Cl[VM_MAX_BATCH][3], Ol[VM_MAX_BATCH][3];
            ShadeBatch b = { .n = n, .seed = seed, .deriv = d };
            b.in[RV_Ps] = &g->P[0][0], b.in[RV_E] = &g->E[0][0];
            b.in[RV_Ns] = &g->N[0][0], b.in[RV_I] = &g->I[0][0];
            b.in[RV_L] = b.in[RV_Cl] = b.in[RV_Ol] = &zero[0][0];
            b.out[RV_L] = &L[0][0], b.out[RV_Cl] = &Cl[0][0], b.out[RV_Ol] = &Ol[0][0];
            if (area) {
                for (int l = 0; l < n; l++)
                    area_point(area, in[l].seed, k, K, P[l], N[l]);
                b.in[RV_P] = &P[0][0], b.in[RV_N] = &N[0][0];
            }
            if (shade_run(c, sh, &b, err, errlen) < 0)
                return -1;
            if (look->lights[i].shadowed)
                shadow_light(c, sh, g, in, n, (const float (*)[3])L, Cl);
            if (look->surface && look->surface->asks_lights
                && save_light(c, f, e, sh, err, errlen) < 0)
                return -1;
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

/* The path tracer's lights in place of the look's: what illuminance
   sees at each lane. */
static void given_lights(ShadeCtx *c, const ShadeGiven *given, int n)
{
    ShadeFrame *f = &c->frame[c->depth];
    c->host.nlights = given->nlights;
    for (int l = 0; l < n && given->nlights; l++) {
        if (given->light)
            f->light[l] = given->light[l];
        f->lit[l] = given->light != NULL;
    }
}

/* A probe lane's light (ShadeGiven.probe) along the normal N of the
   lighting call about to ask for it, none for illuminance's. */
static void probe_light(ShadeFrame *f, int lane, const float *N)
{
    f->lit[lane] = N != NULL;
    if (N)
        f->light[lane] = (VmLightSample){ .L = { N[0], N[1], N[2] }, .Cl = { 1, 1, 1 },
                                          .Ol = { 1, 1, 1 } };
}

static void normalized(const float *v, float out[3])
{
    out[0] = v[0], out[1] = v[1], out[2] = v[2];
    normalize3(out);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Whether two lobes are the same, bit for bit. Field by field: a lobe
   just written field by field and read back whole (memcmp, a struct
   copy) stalls on store forwarding, and given_lobe runs for every lane's
   every lighting call. */
static bool same_lobe(const ShadeLobe *a, const ShadeLobe *b)
{
    bool same = a->kind == b->kind && float_bits(a->exponent) == float_bits(b->exponent);
    for (int k = 0; k < 3 && same; k++)
        same = float_bits(a->N[k]) == float_bits(b->N[k])
               && float_bits(a->V[k]) == float_bits(b->V[k]);
    return same;
}

/* VmHost.lobe while the path tracer asks for lobes: each distinct call of
   the surface shader at depth 0 (trace() shades deeper) into its lane's
   list, made in its next free entry (spare once the list is full). A
   specular() whose V is not unit has a lobe of another shape
   than its half vector's: its cosine lobe stands in (any lobe that
   covers the hemisphere keeps the estimate unbiased). */
static void given_lobe(void *user, int lane, VmLobeKind kind, const float *N, const float *V,
                       float exponent)
{
    ShadeCtx *c = user;
    if (c->depth != 0)
        return;
    if (c->given->probe > 0 && lane >= c->given->probe)
        probe_light(&c->frame[0], lane, N);
    ShadeLobes *lb = &c->given->lobes[lane];
    ShadeLobe spare, *o = lb->n < SHADE_MAX_LOBES ? &lb->lobe[lb->n] : &spare;
    float v2 = V ? V[0] * V[0] + V[1] * V[1] + V[2] * V[2] : 1;
    if (!(exponent >= 0 && exponent <= 1e6f) || (kind == VM_LOBE_SPECULAR && fabsf(v2 - 1) > 1e-3f))
        kind = VM_LOBE_COSINE, exponent = 0;
    o->kind = kind, o->exponent = exponent;
    o->N[0] = o->N[1] = o->N[2] = o->V[0] = o->V[1] = o->V[2] = 0;
    if (N)
        normalized(N, o->N);
    if (V && kind != VM_LOBE_COSINE)
        normalized(V, o->V);
    for (int k = 0; k < lb->n; k++)
        if (same_lobe(&lb->lobe[k], o))
            return;
    if (o == &spare)
        lb->more = true;
    else
        lb->n++;
}

/* RISpec's default surface when none is given, the standard library's
   defaultsurface (shaders/defaultsurface.sl) with its defaults: a
   headlight, Os Cs (Ka + Kd cos^2) with Ka 0.2 and Kd 0.8, cos between
   the view ray and the normal. */
static void default_surface(const Geo *g, int n, float (*Ci)[3], float (*Oi)[3])
{
    for (int l = 0; l < n; l++) {
        /* Both normalized: a displacement shader's N (calculatenormal's
           dPdu x dPdv) has any length, and unnormalized it once lit the
           surface far past white. */
        float i[3] = { g->I[l][0], g->I[l][1], g->I[l][2] };
        float nn[3] = { g->N[l][0], g->N[l][1], g->N[l][2] };
        normalize3(i);
        normalize3(nn);
        float k = rt_minf(1, fabsf(nn[0] * i[0] + nn[1] * i[1] + nn[2] * i[2]));
        for (int j = 0; j < 3; j++) {
            Oi[l][j] = g->Os[l][j];
            Ci[l][j] = g->Os[l][j] * g->Cs[l][j] * (0.2f + 0.8f * k * k);
        }
    }
}

/* rtrender --debug-pixel: the surface shader of the batch under the
   debugger, showing the pixel's lane; the render goes on when the
   session ends. */
static int debug_surface(ShadeCtx *c, const RShader *sh, const ShadeBatch *b, char *err,
                         int errlen)
{
    c->frame[c->depth].running = sh;
    int rc = c->shading->debug(c->thread, c->depth, sh, b, c->debug_lane, err, errlen);
    c->debug_lane = -1;
    return rc;
}

int shade_batch(ShadeCtx *c, const RibMesh *mesh, const RLook *look, const ShadeIn *in, int n,
                float (*Ci)[3], float (*Oi)[3], char *err, int errlen)
{
    ShadeFrame *f = &c->frame[c->depth];
    f->mesh = mesh, f->look = look;
    f->ran_displacement = f->ran_surface = f->ran_atmosphere = false;
    f->light_at = -1;
    f->nsaved = 0;
    if (f->saved_sh)
        memset(f->saved_sh, 0, (size_t)f->nsaved_lights * sizeof *f->saved_sh);
    /* A batch shaded for trace() sets its own light count; the caller's
       illuminance loop gets its own back afterwards. */
    int outer_nlights = c->host.nlights;
    if (frame_buffers(c, f, err, errlen) < 0)
        return -1;
    Geo *g = f->geo;
    VmDeriv *d = f->deriv;
    uint32_t seed[VM_MAX_BATCH];
    int rc = 0;
    MeshVars mv = mesh_vars(mesh);
    const ShadeGiven *given = c->depth == 0 ? c->given : NULL;
    int twins = given && given->lobes && given->probe > 0 ? given->probe : 0;
    for (int l = 0; l < n; l++) {
        if (l >= twins && l < 2 * twins)
            continue;
        hit_geometry(mesh, &mv, look, &in[l], g, l);
        seed[l] = in[l].seed;
    }
    twin_geometry(g, seed, twins, 2 * twins);
    neighbours(in, n, g, d);
    c->shading_points += (uint64_t)n;
    ShadeBatch b = geometry_batch(f, g, in, n, seed, d);
    if (look->displacement) {
        b.out[RV_P] = &g->P[0][0], b.out[RV_N] = &g->N[0][0];
        rc = shade_run(c, look->displacement, &b, err, errlen);
        f->ran_displacement = true;
        b.out[RV_P] = b.out[RV_N] = NULL;
        for (int l = 0; rc == 0 && l < n; l++)
            sub3(g->P[l], g->E[l], g->I[l]);
    }
    if (rc == 0 && given)
        given_lights(c, given, n);
    else if (rc == 0)
        rc = run_lights(c, g, in, n, seed, d, err, errlen);
    /* Ci and Oi start black and opaque, as in Aqsis: a surface shader
       that leaves them unset on some path (a glow that sets Ci only where
       it faces the eye) or never sets Oi must not see the last batch's
       registers, nor turn transparent. */
    for (int l = 0; look->surface && l < n; l++)
        for (int j = 0; j < 3; j++)
            Ci[l][j] = 0, Oi[l][j] = 1;
    b.in[RV_Ci] = &Ci[0][0], b.in[RV_Oi] = &Oi[0][0];
    if (rc == 0 && look->surface && c->debug_lane >= 0 && c->depth == 0)
        rc = debug_surface(c, look->surface, &b, err, errlen);
    b.out[RV_Ci] = &Ci[0][0], b.out[RV_Oi] = &Oi[0][0];
    if (given) {
        b.out[RV_P] = given->P ? &given->P[0][0] : NULL;
        b.out[RV_N] = given->N ? &given->N[0][0] : NULL;
    }
    for (int l = 0; given && given->traces && l < n; l++)
        given->traces[l].n = 0;
    if (given && given->lobes) {
        for (int l = 0; l < n; l++)
            given->lobes[l].n = 0, given->lobes[l].more = false;
        c->host.lobe = given_lobe;
    }
    if (rc == 0 && look->surface) {
        rc = shade_run(c, look->surface, &b, err, errlen);
        f->ran_surface = true;
        f->light_at = -1;
    } else if (rc == 0)
        default_surface(g, n, Ci, Oi);
    c->host.lobe = NULL;
    if (given && !look->surface && given->P)
        memcpy(given->P, g->P, (size_t)n * sizeof *g->P);
    if (given && !look->surface && given->N)
        memcpy(given->N, g->N, (size_t)n * sizeof *g->N);
    /* The atmosphere between the eye and the hits (RISpec 3.2 section
       9.3): a volume shader turns the surface's Ci and Oi into what
       reaches the eye, with I the ray from the eye to P. */
    if (rc == 0 && look->atmosphere) {
        rc = shade_run(c, look->atmosphere, &b, err, errlen);
        f->ran_atmosphere = true;
    }
    c->host.nlights = outer_nlights;
    return rc;
}
