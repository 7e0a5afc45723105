/*
** path_shade.c: the path tracer's shading of one look's batch of hits,
** with RSL lighting read as a BSDF (radiometry in path.h). Illuminance
** is linear in Cl, so a surface shader run with one light of Cl = 1
** along w gives its emission plus pi f(w) cos(w), whatever its own
** illuminance code, and ambient() gives nothing: the path tracer
** computes the light it stood for. Each hit runs its surface shader
** through the shading interface, in one batch of two lanes a hit:
**   1. without lights: the emission (what constant surfaces add), the
**      opacity, and P and N as the shader leaves them (displaced,
**      bumped); it names the lobes its lighting calls reflect into as
**      well (path_lobes.c), and its trace() calls and environment()
**      lookups, which are not traced or looked up (they answer 0:
**      host.c);
**   2. its twin, lit along each lighting call's own normal (Cl = 1):
**      when the hit's one lobe is diffuse()'s, this lane less the first
**      is the lobe's weight W, and pi f cos(w) = W max(0, N . w) along
**      any direction with no further run.
** (Where a shader of the look takes derivatives, every run has two more
** lanes a hit, its stand-in neighbours: path_deriv.c.)
** Any other hit (glossy lobes, several normals, illuminance bodies) runs
** again, two lanes a hit, one light each: along a light sample's
** direction and along a direction drawn from the lobes. Less the
** emission, these are pi f cos. A hit that called trace() runs once
** more a call, that call alone answering 1: less the emission, that is
** the colour the shader weighs what the call sees by, and the call is a
** lobe of the surface (a mirror, or refraction through fresnel()) that
** the next segment may follow instead of the lighting lobes. So is an
** environment() lookup, along its direction read in world space
** (path_traces.c), and a path leaving the scene along one sees the
** lookup, not the environment light.
** illuminance("category", ...) holds: a light sample's lane runs under
** its light's __category, a lobe's under none (categorised()).
** A light sample picks one of the look's lights: an area light at a
** point of its surface (its shadow ray traced as a stream, weighed by
** the power heuristic against the lobes), the environment light along a
** direction drawn from its map (path_env.h; the same weighing), a
** point, spot or
** distant light at its position (shadowed as its shader says; the
** first transmission() or visibility() ray of its shader joins the
** shadow stream instead of being traced inside it: host.c). Opacity
** below one is a coin toss between the surface and going on through it. Emitters (AreaLightSource geometry)
** only emit: a path ends on them.
*/
#include <math.h>
#include <string.h>

#include "render/path.h"

#define PI 3.14159265f

typedef float Vec[3];

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* A light sample's direction of lane l, what it adds if unblocked, its
   shadow ray (traced if ray): from o along unit d up to t, and its
   light's categories. */
typedef struct Sample {
    bool on, ray;
    Vec wi, C, o, d;
    float dist, t;
    const char *cat;
} Sample;

/* Whether a light of categories cat is in any: such a light's direct
   light comes from light samples alone. A surface shader may weigh it
   otherwise than the light of no category that the directions drawn
   from its lobes are evaluated under (indirect light), so the lobes'
   paths that reach it add nothing and its samples are not weighed
   against them. */
static bool categorised(const char *cat)
{
    return cat && *cat;
}

/* Sample o's shadow ray: the segment from p to q, less the bias at p
   (host.c's for shaders' rays); none if too short to be blocked. */
static void segment(Sample *o, const float p[3], const float q[3])
{
    float bias = trace_bias(p), len = 0;
    for (int k = 0; k < 3; k++)
        o->d[k] = q[k] - p[k], len += o->d[k] * o->d[k];
    len = sqrtf(len);
    o->ray = len > 2 * bias;
    for (int k = 0; k < 3; k++)
        o->o[k] = p[k], o->d[k] /= len > 0 ? len : 1;
    o->t = len - bias;
}

/* Whether light l of a look is the scene's environment light. */
static bool is_env(const PathScene *ps, const RLight *l)
{
    return ps->env && l->shader == ps->env->light;
}

/* The lights of look that light samples pick: every one but ambient
   lights (envlight, ambient to the classic integrator, is sampled). */
static int sampled(const PathScene *ps, const RLook *look, int k)
{
    int n = 0;
    for (int i = 0; i < look->nlights; i++)
        if ((!look->lights[i].shader->ambient || is_env(ps, &look->lights[i])) && n++ == k)
            return i;
    return k < 0 ? n : -1;
}

/* The area light whose AreaLightSource made mesh, or false. */
static bool emitter(const RWorld *world, const RibMesh *mesh, RLight *e)
{
    for (size_t k = 0; mesh->attrs->area_light && k < world->nlights; k++)
        if (world->frame->lights[k] == mesh->attrs->area_light && world->areas[k].ntris) {
            *e = (RLight){ world->lights[k], &world->areas[k], world->shadowed[k] };
            return true;
        }
    return false;
}

/* The density of a light sample of area a taken from look, towards a
   point at distance d whose cosine is cos_l: 0 if look samples no such
   light. */
static float light_pdf(const PathScene *ps, const RLook *look, const RArea *a, float d,
                       float cos_l)
{
    int nl = sampled(ps, look, -1), in = 0;
    for (int i = 0; i < look->nlights; i++)
        in |= look->lights[i].area == a;
    return in && nl ? d * d / (cos_l * (float)a->area * (float)nl) : 0;
}

/* Queue entry i goes on through its hit. */
static void pass(PathWave *w, int i)
{
    w->tnear[i] = trace_past(w->tfar[i]);
    w->tfar[i] = INFINITY;
}

static void hit_point(const PathWave *w, int i, float P[3])
{
    P[0] = w->ox[i] + w->tfar[i] * w->dx[i], P[1] = w->oy[i] + w->tfar[i] * w->dy[i];
    P[2] = w->oz[i] + w->tfar[i] * w->dz[i];
}

/* What a camera ray sees first sets the pixel's alpha and depth. */
static void seen(PathWave *w, int i)
{
    if (w->depth[i] == 0) {
        w->A[w->path[i]] = 1;
        w->z[w->path[i]] = w->tfar[i] * w->dz[i];
    }
}

/* Emitter hits: the light shader seen from the ray's origin gives Le =
   pi Cl d^2 / cos_l, weighed against the light samples of the look the
   ray left. */
static int emit(const PathScene *ps, ShadeCtx *c, PathWave *w, const int *q, int n, const RLight *e, const RibMesh *mesh, const RLook *look, char *err, int errlen)
{
    static const float zero[VM_MAX_BATCH][3];
    Vec P[PATH_GROUP], N[PATH_GROUP], E[PATH_GROUP], L[PATH_GROUP], Cl[PATH_GROUP], Ol[PATH_GROUP];
    uint32_t seed[PATH_GROUP];
    for (int l = 0; l < n; l++) {
        int i = q[l];
        float V[3][3], e1[3], e2[3], sign = look->flip ? -1.0f : 1.0f;
        look_triangle(look, mesh, w->prim[i], V);
        for (int k = 0; k < 3; k++)
            e1[k] = V[1][k] - V[0][k], e2[k] = V[2][k] - V[0][k];
        N[l][0] = sign * (e1[1] * e2[2] - e1[2] * e2[1]);
        N[l][1] = sign * (e1[2] * e2[0] - e1[0] * e2[2]);
        N[l][2] = sign * (e1[0] * e2[1] - e1[1] * e2[0]);
        float len = sqrtf(dot3(N[l], N[l]));
        for (int k = 0; k < 3; k++)
            N[l][k] /= len;
        hit_point(w, i, P[l]);
        E[l][0] = w->ox[i], E[l][1] = w->oy[i], E[l][2] = w->oz[i];
        seed[l] = w->seed[i];
    }
    ShadeBatch b = { .n = n, .seed = seed };
    b.in[RV_P] = &P[0][0], b.in[RV_N] = &N[0][0], b.in[RV_Ps] = &E[0][0], b.in[RV_E] = &E[0][0];
    b.in[RV_L] = b.in[RV_Cl] = b.in[RV_Ol] = &zero[0][0];
    b.out[RV_L] = &L[0][0], b.out[RV_Cl] = &Cl[0][0], b.out[RV_Ol] = &Ol[0][0];
    if (shade_run(c, e->shader, &b, err, errlen) < 0)
        return -1;
    bool cat = categorised(shade_light_category(c, e->shader));
    for (int l = 0; l < n; l++) {
        int i = q[l];
        float t = w->tfar[i], d[3] = { w->dx[i], w->dy[i], w->dz[i] };
        float cos_l = -dot3(N[l], d);
        seen(w, i);
        w->live[i] = false;
        if (!(cos_l > 0) || dot3(L[l], L[l]) == 0)
            continue;
        float mis = 1;
        if (w->from[i] && w->pdf[i] >= 0) {
            float pl = light_pdf(ps, w->from[i], e->area, t, cos_l), pb = w->pdf[i];
            mis = cat && pl > 0 ? 0 : pb * pb / (pb * pb + pl * pl);
        }
        /* The radiance whose integral over the light's surface, seen
           from a point, is the mean of Cl over it (run_lights). */
        float Le = PI * t * t / (cos_l * (float)e->area->area);
        for (int k = 0; k < 3; k++)
            w->L[w->path[i]][k] += w->thr[i][k] * mis * Le * Cl[l][k];
    }
    return 0;
}

/* Sample o's shadow ray to a BMRT shadowed light (RLight.shadowed) of L
   at P, shaded at queue entry i's hit: from the hit (on the traced
   surface, as the classic integrator's in shade.c) to Ps - L, or out of
   the scene against L for a solar light. */
static void shadowed_ray(Sample *o, const PathWave *w, int i, const float P[3], const float L[3],
                         bool solar)
{
    float hit[3], at[3] = { P[0] - L[0], P[1] - L[1], P[2] - L[2] };
    hit_point(w, i, hit);
    if (!solar) {
        segment(o, hit, at);
        return;
    }
    float len = sqrtf(dot3(L, L));
    for (int k = 0; k < 3; k++)
        o->o[k] = hit[k], o->d[k] = -L[k] / len;
    o->ray = true, o->t = INFINITY;
}

/* Light samples for the lanes sel[0..m) that picked light li of look:
   its shader run at their points P (from their rays' origins E), whose
   faced normals Nf are its Ns. */
static int light_samples(const PathScene *ps, ShadeCtx *c, PathWave *w, const int *q,
                         const RLook *look, int li, const int *sel, int m, Vec *P, Vec *Nf,
                         const ShadeLobes *lobes, const float *pc, Sample *smp, char *err,
                         int errlen)
{
    static const float zero[VM_MAX_BATCH][3];
    const RLight *light = &look->lights[li];
    int nl = sampled(ps, look, -1);
    Vec Ps[PATH_GROUP], Ns[PATH_GROUP], I[PATH_GROUP], E[PATH_GROUP], LP[PATH_GROUP];
    Vec LN[PATH_GROUP], L[PATH_GROUP], Cl[PATH_GROUP], Ol[PATH_GROUP];
    uint32_t seed[PATH_GROUP];
    for (int s = 0; s < m; s++) {
        int l = sel[s], i = q[l];
        memcpy(Ps[s], P[l], sizeof Ps[s]);
        memcpy(Ns[s], Nf[l], sizeof Ns[s]);
        E[s][0] = w->ox[i], E[s][1] = w->oy[i], E[s][2] = w->oz[i];
        for (int k = 0; k < 3; k++)
            I[s][k] = Ps[s][k] - E[s][k];
        seed[s] = w->seed[i];
        if (light->area)
            area_point(light->area, rt_hash(w->seed[i], (uint32_t)w->depth[i], 0x1ea7u), 0, 1,
                       LP[s], LN[s]);
    }
    ShadeBatch b = { .n = m, .seed = seed };
    b.in[RV_Ps] = &Ps[0][0], b.in[RV_E] = &E[0][0];
    b.in[RV_Ns] = &Ns[0][0], b.in[RV_I] = &I[0][0];
    b.in[RV_L] = b.in[RV_Cl] = b.in[RV_Ol] = &zero[0][0];
    if (light->area)
        b.in[RV_P] = &LP[0][0], b.in[RV_N] = &LN[0][0];
    b.out[RV_L] = &L[0][0], b.out[RV_Cl] = &Cl[0][0], b.out[RV_Ol] = &Ol[0][0];
    /* A point, spot or distant light's shadow ray goes into the shadow
       stream (an area light's is the sample's own), a BMRT shadowed
       light's own ray in its place (its shader's are traced in it). */
    ShadeShadowRay rays[PATH_GROUP];
    for (int s = 0; s < m; s++)
        rays[s].asked = false;
    c->shadow_rays = light->area || light->shadowed ? NULL : rays;
    int rc = shade_run(c, light->shader, &b, err, errlen);
    c->shadow_rays = NULL;
    if (rc < 0)
        return -1;
    const char *cat = shade_light_category(c, light->shader);
    for (int s = 0; s < m; s++) {
        int l = sel[s], i = q[l];
        Sample *o = &smp[l];
        o->cat = cat;
        if (dot3(L[s], L[s]) == 0)
            continue;
        /* In a local first: o->wi read back right after its stores
           stalled on store forwarding. */
        Vec wi;
        for (int k = 0; k < 3; k++)
            wi[k] = light->area ? LP[s][k] - P[l][k] : -L[s][k];
        o->dist = sqrtf(dot3(wi, wi));
        for (int k = 0; k < 3; k++)
            o->wi[k] = wi[k] / o->dist;
        o->ray = false;
        if (light->area) {
            /* Short of the light's surface, which would block it. */
            float bias = trace_bias(P[l]);
            memcpy(o->o, P[l], sizeof o->o), memcpy(o->d, o->wi, sizeof o->d);
            o->ray = true, o->t = o->dist * (1 - 1e-4f) - bias;
        } else if (light->shadowed) {
            shadowed_ray(o, w, i, P[l], L[s], light->shader->solar);
        } else if (rays[s].asked) {
            segment(o, rays[s].P, rays[s].Q);
        }
        float scale = (float)nl, cos_l = light->area ? -dot3(LN[s], o->wi) : 1;
        if (!(cos_l > 0))
            continue;
        if (light->area && w->depth[i] + 1 < ps->maxdepth && !categorised(cat)) {
            /* The power heuristic against the lobes' density. */
            float pl = o->dist * o->dist / (cos_l * (float)light->area->area * (float)nl);
            float pb = pc[l] * path_lobes_pdf(&lobes[l], Nf[l], o->wi);
            scale *= pl * pl / (pl * pl + pb * pb);
        }
        for (int k = 0; k < 3; k++)
            o->C[k] = scale * Cl[s][k];
        o->on = true;
    }
    return 0;
}

/* Light samples of the environment for the lanes sel[0..m): a direction
   from its map's distribution, its shadow ray unbounded, weighed by the
   power heuristic against the lobes. What it adds is Le / (pi pdf) times
   the shader's pi f cos (path.h). */
static void env_samples(const PathScene *ps, const PathWave *w, const int *q, const RLook *look,
                        const int *sel, int m, const Vec *P, const Vec *Nf,
                        const ShadeLobes *lobes, const float *pc, Sample *smp)
{
    float nl = (float)sampled(ps, look, -1);
    for (int s = 0; s < m; s++) {
        int l = sel[s], i = q[l];
        Sample *o = &smp[l];
        float u[2] = { path_rand(w, i, 5), path_rand(w, i, 6) }, Le[3];
        float pdf = path_env_sample(ps->env, u, o->wi, Le) / nl;
        if (!(pdf > 0) || dot3(Le, Le) == 0)
            continue;
        float scale = 1 / (PI * pdf);
        o->cat = ps->env->category;
        if (w->depth[i] + 1 < ps->maxdepth && !categorised(o->cat)) {
            float pb = pc[l] * path_lobes_pdf(&lobes[l], Nf[l], o->wi);
            scale *= pdf * pdf / (pdf * pdf + pb * pb);
        }
        for (int k = 0; k < 3; k++)
            o->C[k] = scale * Le[k];
        memcpy(o->o, P[l], sizeof o->o), memcpy(o->d, o->wi, sizeof o->d);
        o->ray = true, o->t = INFINITY, o->on = true;
    }
}

void path_shade_miss(const PathScene *ps, PathWave *w, int i)
{
    float d[3] = { w->dx[i], w->dy[i], w->dz[i] }, Le[3], mis = 1;
    if (w->own[i]) {
        for (int k = 0; k < 3; k++)
            w->L[w->path[i]][k] += w->thr[i][k] * w->seen[i][k];
        return;
    }
    if (!ps->env)
        return;
    path_env_radiance(ps->env, d, Le);
    if (w->from[i]) {
        /* A surface the light is off for (Illuminate) gets none of it. */
        const RLook *from = w->from[i];
        bool in = false;
        for (int k = 0; k < from->nlights; k++)
            in |= is_env(ps, &from->lights[k]);
        if (!in)
            return;
        float pl = path_env_pdf(ps->env, d) / (float)sampled(ps, from, -1), pb = w->pdf[i];
        if (pb >= 0)
            mis = categorised(ps->env->category) ? 0 : pb * pb / (pb * pb + pl * pl);
    }
    for (int k = 0; k < 3; k++)
        w->L[w->path[i]][k] += w->thr[i][k] * mis * Le[k];
}

/* Whether lane l's twin (the probe lane of the first run) reflects the
   full weight of l's one lobe: l made one lighting call's worth of
   lobes, diffuse()'s (a cosine lobe with the call's normal), and its
   twin the same. */
static bool one_diffuse(const ShadeLobes *l, const ShadeLobes *twin)
{
    const ShadeLobe *o = &l->lobe[0];
    return l->n == 1 && !l->more && o->kind == VM_LOBE_COSINE
           && (o->N[0] != 0 || o->N[1] != 0 || o->N[2] != 0) && twin->n == 1 && !twin->more
           && !memcmp(o, &twin->lobe[0], sizeof *o);
}

/* pi f cos along unit wi of a diffuse() lobe of unit normal N whose
   weight (along N) is W. */
static void diffuse_along(const float W[3], const float N[3], const float wi[3], float out[3])
{
    float cos = dot3(N, wi);
    for (int k = 0; k < 3; k++)
        out[k] = rt_maxf(0.0f, W[k] * cos);
}

/* pi f cos along both directions of the lanes r[0..m) (light sample's
   and lobes') for lanes the first run could not evaluate: one light of
   Cl = 1 a lane, less the emission Ci0. A light sample's lane has its
   light's categories, a lobe's none (what the path finds along it is
   indirect light, or a light reached by no category: categorised()); a
   run takes the lanes of one set of categories. */
static int second_run(ShadeCtx *c, const RibMesh *mesh, const RLook *look, const ShadeIn *hits,
                      const int *r, int m, const Sample *smp, const Vec *N, const Vec *wb,
                      const Vec *Ci0, Vec *fl, Vec *fb, char *err, int errlen)
{
    ShadeIn h[VM_MAX_BATCH];
    VmLightSample vl[VM_MAX_BATCH];
    const char *cat[VM_MAX_BATCH];
    Vec Ci[VM_MAX_BATCH], Oi[VM_MAX_BATCH];
    bool done[VM_MAX_BATCH] = { false };
    for (int j = 0; j < m; j++) {
        int l = r[j];
        h[j] = h[m + j] = hits[l];
        vl[j] = (VmLightSample){ .Cl = { 1, 1, 1 }, .Ol = { 1, 1, 1 } };
        vl[m + j] = vl[j];
        memcpy(vl[j].L, smp[l].on ? smp[l].wi : N[l], sizeof vl[j].L);
        memcpy(vl[m + j].L, wb[l], sizeof vl[j].L);
        cat[j] = smp[l].on && smp[l].cat ? smp[l].cat : "";
        cat[m + j] = "";
    }
    for (int a = 0; a < 2 * m; a++) {
        if (done[a])
            continue;
        /* The lanes of a's categories, run together. */
        ShadeIn hc[VM_MAX_BATCH];
        VmLightSample vc[VM_MAX_BATCH];
        Vec Cc[VM_MAX_BATCH];
        int of[VM_MAX_BATCH], k = 0;
        for (int b = a; b < 2 * m; b++)
            if (!done[b] && !strcmp(cat[b], cat[a]))
                hc[k] = h[b], vc[k] = vl[b], of[k++] = b, done[b] = true;
        ShadeTraces calls[VM_MAX_BATCH];
        ShadeGiven one = { .nlights = 1, .light = vc, .traces = calls, .category = cat[a] };
        if (path_shade_given(c, &one, mesh, look, hc, k, Cc, Oi, err, errlen) < 0)
            return -1;
        for (int j = 0; j < k; j++)
            memcpy(Ci[of[j]], Cc[j], sizeof Ci[0]);
    }
    for (int j = 0; j < m; j++)
        for (int k = 0; k < 3; k++) {
            fl[r[j]][k] = rt_maxf(0.0f, Ci[j][k] - Ci0[r[j]][k]);
            fb[r[j]][k] = rt_maxf(0.0f, Ci[m + j][k] - Ci0[r[j]][k]);
        }
    return 0;
}

/* Hits on a surface: emission, opacity, a light sample, the next ray.
   The first run takes two lanes a hit: lane l without lights, its twin
   n + l lit along each lighting call's normal (ShadeGiven.probe). A hit
   whose shader lit it only through diffuse() with one normal then has
   its BSDF: pi f cos(w) = W max(0, N . w), W the twin's Ci less l's; any
   other is run again along its two directions (second_run). */
static int surface(const PathScene *ps, ShadeCtx *c, PathWave *w, const int *q, int n,
                   const RibMesh *mesh, const RLook *look, char *err, int errlen)
{
    Vec P[VM_MAX_BATCH], N[VM_MAX_BATCH], Ci[VM_MAX_BATCH], Oi[VM_MAX_BATCH];
    Vec thr[PATH_GROUP], wb[PATH_GROUP], fl[PATH_GROUP], fb[PATH_GROUP];
    Sample smp[PATH_GROUP];
    ShadeLobes lobes[VM_MAX_BATCH];
    ShadeTraces tr[VM_MAX_BATCH];
    Vec T[PATH_GROUP][SHADE_MAX_TRACES];
    float pc[PATH_GROUP];
    ShadeIn hits[VM_MAX_BATCH];
    for (int l = 0; l < n; l++) {
        int i = q[l];
        hits[l] = (ShadeIn){ .org = { w->ox[i], w->oy[i], w->oz[i] },
                             .dir = { w->dx[i], w->dy[i], w->dz[i] },
                             .t = w->tfar[i], .b1 = w->b1[i], .b2 = w->b2[i], .prim = w->prim[i],
                             .seed = rt_hash(w->seed[i], (uint32_t)w->depth[i], 0x51ed0000u),
                             .na = -1, .nb = -1 };
    }
    memcpy(hits + n, hits, (size_t)n * sizeof *hits);
    /* One light, reaching no lane but the probes, so that illuminance
       asks for it (and names its lobe); trace() and environment() calls
       listed. */
    ShadeGiven first = { .nlights = 1, .P = P, .N = N, .lobes = lobes, .probe = n,
                         .traces = tr };
    if (path_shade_given(c, &first, mesh, look, hits, 2 * n, Ci, Oi, err, errlen) < 0)
        return -1;
    /* Opacity, emission, the shading normal facing the ray. */
    bool on[PATH_GROUP];
    for (int l = 0; l < n; l++) {
        int i = q[l], p = w->path[i];
        float o = (Oi[l][0] + Oi[l][1] + Oi[l][2]) / 3;
        on[l] = !(o < 0.999f && path_rand(w, i, 0) >= o);
        smp[l].on = false;
        if (!on[l]) {
            for (int k = 0; k < 3; k++)
                w->thr[i][k] *= (1 - Oi[l][k]) / (1 - o);
            pass(w, i);
            continue;
        }
        seen(w, i);
        for (int k = 0; k < 3; k++) {
            thr[l][k] = w->thr[i][k] / (o < 0.999f ? o : 1);
            w->L[p][k] += thr[l][k] * Ci[l][k];
        }
        float len = sqrtf(dot3(N[l], N[l])), d[3] = { w->dx[i], w->dy[i], w->dz[i] };
        float s = (dot3(N[l], d) > 0 ? -1 : 1) / (len > 0 ? len : 1);
        for (int k = 0; k < 3; k++)
            N[l][k] *= s;
        float u[3] = { path_rand(w, i, 2), path_rand(w, i, 3), path_rand(w, i, 4) };
        path_lobes_sample(&lobes[l], N[l], u, wb[l]);
    }
    if (path_trace_weights(c, mesh, look, hits, on, tr, n, Ci, T, err, errlen) < 0)
        return -1;
    for (int l = 0; l < n; l++)
        pc[l] = on[l] ? path_lobes_share(&lobes[l], &tr[l], T[l]) : 1;
    /* A light sample a hit: each light's shader over the hits that
       picked it. */
    int nl = sampled(ps, look, -1), sel[PATH_GROUP];
    for (int k = 0; k < nl; k++) {
        int m = 0;
        for (int l = 0; l < n; l++)
            if (on[l] && (int)rt_minf(path_rand(w, q[l], 1) * (float)nl, (float)nl - 1) == k)
                sel[m++] = l;
        int li = sampled(ps, look, k);
        if (m && is_env(ps, &look->lights[li]))
            env_samples(ps, w, q, look, sel, m, P, N, lobes, pc, smp);
        else if (m && light_samples(ps, c, w, q, look, li, sel, m, P, N, lobes, pc, smp, err,
                                    errlen) < 0)
            return -1;
    }
    /* pi f cos along both directions. */
    int again[PATH_GROUP], m = 0;
    for (int l = 0; l < n; l++) {
        if (!on[l])
            continue;
        if (!one_diffuse(&lobes[l], &lobes[n + l])) {
            again[m++] = l;
            continue;
        }
        float W[3] = { Ci[n + l][0] - Ci[l][0], Ci[n + l][1] - Ci[l][1], Ci[n + l][2] - Ci[l][2] };
        if (smp[l].on)
            diffuse_along(W, lobes[l].lobe[0].N, smp[l].wi, fl[l]);
        diffuse_along(W, lobes[l].lobe[0].N, wb[l], fb[l]);
    }
    if (m && second_run(c, mesh, look, hits, again, m, smp, N, wb, Ci, fl, fb, err, errlen) < 0)
        return -1;
    for (int l = 0; l < n; l++) {
        int i = q[l], p = w->path[i];
        if (!on[l])
            continue;
        if (smp[l].on) {
            float C[3];
            for (int k = 0; k < 3; k++)
                C[k] = thr[l][k] * fl[l][k] * smp[l].C[k];
            if (smp[l].ray) {
                int s = w->ns++;
                w->spath[s] = p;
                w->sox[s] = smp[l].o[0], w->soy[s] = smp[l].o[1], w->soz[s] = smp[l].o[2];
                w->sdx[s] = smp[l].d[0], w->sdy[s] = smp[l].d[1], w->sdz[s] = smp[l].d[2];
                w->stnear[s] = trace_bias(smp[l].o), w->stfar[s] = smp[l].t;
                memcpy(w->sC[s], C, sizeof C);
            } else {
                for (int k = 0; k < 3; k++)
                    w->L[p][k] += C[k];
            }
        }
        /* The next segment: along a trace() or environment() call,
           throughput times its weight over the chance of picking it (no
           MIS: light samples do not reach what the call sees; leaving
           the scene along an environment() call the path sees its
           lookup); else along the lobes' direction, throughput times f
           cos / pdf = (pi f cos) / (pi pdf), pdf the mixture's times its
           share. */
        int k = path_pick_trace(&tr[l], T[l], pc[l], path_rand(w, i, 7));
        float pdf = -1, o[3], d[3], wt[3];
        w->own[i] = k >= 0 && tr[l].call[k].env;
        if (k >= 0) {
            const ShadeTrace *t = &tr[l].call[k];
            memcpy(d, t->D, sizeof d), memcpy(o, t->env ? P[l] : t->P, sizeof o);
            memcpy(w->seen[i], t->seen, sizeof w->seen[i]);
            float share = path_trace_share(&tr[l], T[l], pc[l], k);
            for (int j = 0; j < 3; j++)
                wt[j] = T[l][k][j] / share;
        } else {
            pdf = pc[l] * path_lobes_pdf(&lobes[l], N[l], wb[l]);
            memcpy(d, wb[l], sizeof d), memcpy(o, P[l], sizeof o);
            for (int j = 0; j < 3; j++)
                wt[j] = pdf > 0 ? fb[l][j] / (PI * pdf) : 0;
        }
        w->live[i] = w->depth[i] + 1 < ps->maxdepth;
        for (int j = 0; j < 3; j++)
            w->thr[i][j] = w->live[i] ? thr[l][j] * rt_maxf(0.0f, wt[j]) : 0;
        w->live[i] &= w->thr[i][0] > 0 || w->thr[i][1] > 0 || w->thr[i][2] > 0;
        w->ox[i] = o[0], w->oy[i] = o[1], w->oz[i] = o[2];
        w->dx[i] = d[0], w->dy[i] = d[1], w->dz[i] = d[2];
        w->tnear[i] = trace_bias(o), w->tfar[i] = INFINITY;
        w->pdf[i] = pdf, w->from[i] = look, w->depth[i]++;
    }
    return 0;
}

int path_shade_group(const PathScene *ps, ShadeCtx *c, PathWave *w, const int *q, int n,
                     char *err, int errlen)
{
    const RibMesh *mesh;
    const RLook *look;
    world_hit(ps->world, w->geom[q[0]], w->inst[q[0]], &mesh, &look);
    int front[PATH_GROUP], m = 0;
    for (int l = 0; l < n; l++) {
        int i = q[l];
        RTHit h = { w->ngx[i], w->ngy[i], w->ngz[i], 0, 0, 0, 0, 0 };
        float d[3] = { w->dx[i], w->dy[i], w->dz[i] };
        if (trace_backface(look, &h, d))
            pass(w, i);
        else
            front[m++] = i;
    }
    RLight e;
    if (!m)
        return 0;
    if (emitter(ps->world, mesh, &e))
        return emit(ps, c, w, front, m, &e, mesh, look, err, errlen);
    /* The first run's hits, their probe twins and the hits' two stand-ins
       each (path_deriv.c) must fit one batch. */
    int most = path_look_derivs(look) ? VM_MAX_BATCH / 4 : PATH_GROUP;
    for (int at = 0; at < m; at += most)
        if (surface(ps, c, w, front + at, m - at < most ? m - at : most, mesh, look, err, errlen)
            < 0)
            return -1;
    return 0;
}
