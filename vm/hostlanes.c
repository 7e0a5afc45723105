/*
** hostlanes.c: the builtins that ask the host (host.h): named coordinate
** systems, depth, texture lookups, rays, and queries of attributes,
** options and other shaders. A host without the needed callback stops
** the run with an error naming what is missing.
*/
#include <math.h>
#include <string.h>

#include "runtime/builtins.h"
#include "runtime/host.h"
#include "vm/lanes.h"
#include "runtime/mathlib.h"
#include "runtime/noise.h"
#include "runtime/strings.h"

/* The host, if it has the callback `have`; otherwise a fault. */
static const VmHost *host(const VmCall *call, bool have, const char *what)
{
    const VmHost *h = call->self->host;
    if (!h || !have) {
        vm_lane_fault(call, "this host has no %s", what);
        return NULL;
    }
    return h;
}

/* ---- coordinate systems ------------------------------------------------------------ */

static bool to_current(const VmCall *call, const char *name, float m[16])
{
    const VmHost *h = call->self->host;
    if (!host(call, h && h->space, "coordinate systems"))
        return false;
    if (!h->space(h->user, name, m)) {
        vm_lane_fault(call, "unknown coordinate system '%s'", name);
        return false;
    }
    return true;
}

/* transform, vtransform and ntransform with named spaces: (to, p) from
   current, (from, to, p), or (from, m, p): from `from` to current, then
   by m. */
bool vm_lane_transform_matrix(const VmCall *call, float m[16])
{
    const char *letters = call->self->letters;
    int n = call->nargs;
    float from[16];
    bool ok = n == 2 ? to_current(call, "current", from)
                     : to_current(call, vm_lane_string(call, 0), from);
    if (!ok)
        return false;
    if (n == 3 && letters[1] == 'm') {
        rsl_matmul(from, call->args[1], m);
    } else {
        float to[16], inv[16];
        if (!to_current(call, vm_lane_string(call, n - 2), to))
            return false;
        if (!rsl_matinv(to, inv)) {
            vm_lane_fault(call, "coordinate system '%s' is singular", vm_lane_string(call, n - 2));
            return false;
        }
        rsl_matmul(from, inv, m);
    }
    return true;
}

void vm_lane_transform(float *out, const VmCall *call)
{
    int n = call->nargs;
    float m[16];
    if (!vm_lane_transform_matrix(call, m))
        return;
    const float *args[2] = { m, call->args[n - 1] };
    const int argn[2] = { 16, 3 };
    rsl_builtin_eval(call->self->base, 2, args, argn, out, 3);
}

/* depth(P): 0 at the near clipping plane, 1 at the far one. */
void vm_lane_depth(float *out, const VmCall *call)
{
    const VmHost *h = call->self->host;
    if (!host(call, h && h->clip_far > h->clip_near, "clipping planes"))
        return;
    out[0] = (call->args[0][2] - h->clip_near) / (h->clip_far - h->clip_near);
}

/* ---- texture lookups ----------------------------------------------------------------- */

/* The options of a lookup, name/value pairs from argument `first` up to
   the call's own end; their names were resolved as they entered the
   string table (strings.h), so none is compared here. */
static void texture_options(const VmCall *call, int first, VmTexLookup *q)
{
    const char *letters = call->self->letters;
    for (int i = first; i + 1 < call->self->nown; i += 2) {
        RslOptName name = vm_lane_options(call, i)->option;
        float v = call->args[i + 1][0];
        if (letters[i + 1] == 's') {
            if (name == RSL_OPT_FILTER)
                q->filter = vm_lane_string(call, i + 1);
            continue;
        }
        switch (name) {
        case RSL_OPT_BLUR: case RSL_OPT_SBLUR: case RSL_OPT_TBLUR:
            q->blur = v > q->blur ? v : q->blur;
            break;
        case RSL_OPT_WIDTH: q->swidth = q->twidth = v; break;
        case RSL_OPT_SWIDTH: q->swidth = v; break;
        case RSL_OPT_TWIDTH: q->twidth = v; break;
        case RSL_OPT_FILL: q->fill = v; break;
        case RSL_OPT_SAMPLES: q->samples = v; break;
        case RSL_OPT_BIAS: q->bias = v; break;
        case RSL_OPT_CHANNEL: q->channel = v > 0 ? (int)v : 0; break;
        default: break;
        }
    }
}

/* The filter region around c (n components): the parallelogram spanned
   by c's changes over the shading element, scaled by swidth (the first
   component) and twidth (the others) and centred on c. On a grid the
   element's edges are du * Du c and dv * Dv c; in a renderer's batch
   they are c's changes towards the lane's two neighbours (adjacent
   pixels, vm.h's VmDeriv), which need not lie along u and v: a pixel's
   footprint, however the surface is parameterized. */
static void region(const VmCall *call, VmTexLookup *q, const float *c, const float *Du,
                   const float *Dv, float du, float dv, int n)
{
    static const float side[4][2] = { { -0.5f, -0.5f }, { 0.5f, -0.5f }, { 0.5f, 0.5f },
                                      { -0.5f, 0.5f } };
    const VmDeriv *d = call->state ? call->state->deriv : NULL;
    int l = call->lane;
    bool pixels = d && (d->dva[l] != 0 || d->dub[l] != 0);
    for (int k = 0; k < n; k++) {
        float ea = pixels ? Du[k] * d->dua[l] + Dv[k] * d->dva[l] : Du[k] * du;
        float eb = pixels ? Du[k] * d->dub[l] + Dv[k] * d->dvb[l] : Dv[k] * dv;
        float w = k == 0 ? q->swidth : q->twidth;
        for (int i = 0; i < 4; i++)
            q->corner[i][k] = c[k] + (side[i][0] * ea + side[i][1] * eb) * w;
    }
}

/* Explicit corners scaled about their centre by swidth (the first
   coordinate) and twidth (the others), as region() scales the ones it
   builds (RISpec 3.2 Table 15.1: the widths multiply the filter's
   extent). */
static void widen(VmTexLookup *q, int n)
{
    for (int k = 0; k < n; k++) {
        float c = (q->corner[0][k] + q->corner[1][k] + q->corner[2][k] + q->corner[3][k]) / 4;
        float f = k == 0 ? q->swidth : q->twidth;
        for (int i = 0; i < 4; i++)
            q->corner[i][k] = c + (q->corner[i][k] - c) * f;
    }
}

/* texture(name [, s, t | , 4 x (s, t)]), environment(name, R | 4 R) and
   shadow(name, P | 4 P), each with options, and after the call's own
   arguments the implicit ones of a lookup at one coordinate (its row's,
   runtime/builtins.def): [s, t,] Du and Dv of each coordinate, du, dv. */
void vm_lane_texture(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    const float *const *a = call->args;
    const VmHost *h = host(call, b->host && b->host->texture, "texture maps");
    if (!h)
        return;
    VmTexLookup q = { .kind = b->id == BI_TEXTURE ? VM_TEXTURE
                            : b->id == BI_ENVIRONMENT ? VM_ENVIRONMENT : VM_SHADOW,
                      .name = vm_lane_string(call, 0), .nchannels = b->outn, .swidth = 1,
                      .twidth = 1, .samples = 1, .filter = "gaussian", .lane = call->lane };
    /* A shadow map's own surfaces lie at their depths in it: compared
       with no margin, float rounding shadows them in specks. 0.01
       (camera-space units) unless the call gives "bias". */
    if (q.kind == VM_SHADOW)
        q.bias = VM_SHADOW_BIAS;
    int ncoord = 0;
    while (1 + ncoord < b->nown && b->letters[1 + ncoord] != 's')
        ncoord++;
    texture_options(call, 1 + ncoord, &q);
    const float *const *x = a + b->nown; /* the appended values */
    if (q.kind == VM_TEXTURE && ncoord == 8) {
        for (int i = 0; i < 4; i++)
            q.corner[i][0] = a[1 + 2 * i][0], q.corner[i][1] = a[2 + 2 * i][0];
        widen(&q, 2);
    } else if (q.kind == VM_TEXTURE) {
        const float *s = ncoord ? a[1] : x[0], *t = ncoord ? a[2] : x[1];
        if (!ncoord)
            x += 2;
        float c[2] = { s[0], t[0] }, Du[2] = { x[0][0], x[2][0] }, Dv[2] = { x[1][0], x[3][0] };
        region(call, &q, c, Du, Dv, x[4][0], x[5][0], 2);
    } else if (ncoord == 4) {
        for (int i = 0; i < 4; i++)
            memcpy(q.corner[i], a[1 + i], 3 * sizeof(float));
        widen(&q, 3);
    } else {
        region(call, &q, a[1], x[0], x[1], x[2][0], x[3][0], 3);
    }
    char err[200];
    int rc = h->texture(h->user, &q, out, err, sizeof err);
    if (rc < 0)
        vm_lane_fault(call, "%s", err);
    else if (rc > 0)
        vm_lane_warn(call, "%s", err);
}

/* Stores a string or float result of a query into out (n floats). */
static void query_result(float *out, const VmCall *call, char type, const char *str)
{
    if (type == 's')
        vm_lane_put_string(out, call, str ? str : "");
}

/* textureinfo(name, field, out&): 1 if the texture has the field. */
void vm_lane_textureinfo(float *out, const VmCall *call)
{
    const VmHost *h = host(call, call->self->host && call->self->host->textureinfo,
                           "texture maps");
    if (!h)
        return;
    float *value = out + call->self->retn + 2; /* after the name and field strings */
    const char *str = NULL;
    char err[200], type = call->self->letters[2];
    int found = h->textureinfo(h->user, vm_lane_string(call, 0), vm_lane_string(call, 1), type,
                               call->argn[2], value, &str, err, sizeof err);
    if (found < 0) {
        vm_lane_fault(call, "%s", err);
        return;
    }
    if (found)
        query_result(value, call, type, str);
    out[0] = (float)found;
}

/* ---- rays ------------------------------------------------------------------------------ */

/* trace(P, R), transmission(P, Q), visibility(P, Q), occlusion(P, N,
   samples) and indirectdiffuse(P, N, samples), with options. Aqsis's
   occlusion("map", P, N, samples) reads its occlusion from a set of
   shadow maps rendered around the scene; here, with a warning, the map
   is not read and the occlusion is ray traced as without it. */
bool vm_lane_ray_query(const VmCall *call, VmRay *q)
{
    const VmBuiltin *b = call->self;
    if (!host(call, b->host && b->host->ray, "ray tracing"))
        return false;
    static const VmRayKind kinds[BI_COUNT] = {
        [BI_TRACE] = VM_RAY_TRACE, [BI_TRANSMISSION] = VM_RAY_TRANSMISSION,
        [BI_VISIBILITY] = VM_RAY_VISIBILITY, [BI_OCCLUSION] = VM_RAY_OCCLUSION,
        [BI_INDIRECTDIFFUSE] = VM_RAY_INDIRECT
    };
    *q = (VmRay){ .samples = 1, .maxdist = INFINITY, .seed = call->state->random_seed[call->lane],
                  .lane = call->lane, .kind = kinds[b->id] };
    int first = 0;
    if (b->letters[0] == 's')
        vm_lane_warn(call, "the map \"%s\" is not read: this renderer ray traces the occlusion",
                     vm_lane_string(call, first++));
    memcpy(q->P, call->args[first++], sizeof q->P);
    memcpy(q->Q, call->args[first++], sizeof q->Q);
    if (q->kind == VM_RAY_OCCLUSION || q->kind == VM_RAY_INDIRECT)
        q->samples = call->args[first++][0];
    for (int i = first; i + 1 < b->nown; i += 2) {
        float v = call->args[i + 1][0];
        switch (vm_lane_options(call, i)->option) {
        case RSL_OPT_SAMPLES: q->samples = v; break;
        case RSL_OPT_MAXDIST: q->maxdist = v; break;
        case RSL_OPT_CONEANGLE: q->coneangle = v; break;
        case RSL_OPT_BIAS: q->bias = v; break;
        default:
            vm_lane_warn(call, "option \"%s\" is not supported by this renderer; ignored",
                         vm_lane_string(call, i));
        }
    }
    return true;
}

void vm_lane_ray(float *out, const VmCall *call)
{
    const VmHost *h = call->self->host;
    VmRay r;
    if (!vm_lane_ray_query(call, &r))
        return;
    float res[3] = { 0, 0, 0 };
    char err[200];
    if (h->ray(h->user, &r, res, err, sizeof err)) {
        vm_lane_fault(call, "%s", err);
        return;
    }
    memcpy(out, res, (size_t)call->self->outn * sizeof *out);
}

/* A direction within angle of the unit axis a, uniform over the cone's
   solid angle, from two numbers in [0, 1). */
static void cone_direction(const float a[3], float angle, float x1, float x2, float out[3])
{
    float c = 1 - x1 * (1 - cosf(angle)), s = sqrtf(fmaxf(0, 1 - c * c));
    float phi = 2 * (float)M_PI * x2, u[3], v[3];
    /* u, v: an orthonormal pair perpendicular to a. */
    float t[3] = { fabsf(a[0]) < 0.9f ? 1.0f : 0.0f, fabsf(a[0]) < 0.9f ? 0.0f : 1.0f, 0 };
    u[0] = a[1] * t[2] - a[2] * t[1], u[1] = a[2] * t[0] - a[0] * t[2], u[2] = a[0] * t[1] - a[1] * t[0];
    float ul = sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; k++)
        u[k] /= ul;
    v[0] = a[1] * u[2] - a[2] * u[1], v[1] = a[2] * u[0] - a[0] * u[2], v[2] = a[0] * u[1] - a[1] * u[0];
    for (int k = 0; k < 3; k++)
        out[k] = c * a[k] + s * (cosf(phi) * u[k] + sinf(phi) * v[k]);
}

/* One sample of a gather loop (PRMan): its ray's direction lies within
   angle of dir, uniform over the cone's solid angle, drawn from the
   point's stream apart from random()'s (angle 0: dir itself). Category
   "illuminance" traces it through the host; "samplepattern" traces
   nothing and every sample is a hit with only ray:origin, ray:direction
   and ray:length (0). */
void vm_lane_gather(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    RslOptName category = vm_lane_options(call, 5)->option;
    bool pattern = category == RSL_OPT_SAMPLEPATTERN;
    if (!pattern && category != RSL_OPT_ILLUMINANCE) {
        vm_lane_fault(call, "gather category \"%s\" is not supported (\"illuminance\" and "
                      "\"samplepattern\" are)", vm_lane_string(call, 5));
        return;
    }
    const VmHost *h = pattern ? b->host : host(call, b->host && b->host->gather, "gather rays");
    if (!pattern && !h)
        return;
    const float *const *a = call->args;
    int sample = (int)a[0][0];
    float axis[3], len = sqrtf(a[2][0] * a[2][0] + a[2][1] * a[2][1] + a[2][2] * a[2][2]);
    for (int k = 0; k < 3; k++)
        axis[k] = len > 0 ? a[2][k] / len : 0;
    VmGatherRay r = { .maxdist = INFINITY, .lane = call->lane,
                      .seed = call->state->random_seed[call->lane] };
    memcpy(r.P, a[1], sizeof r.P);
    uint32_t stream = r.seed ^ 0x9e3779b9u;
    if (a[3][0] > 0)
        cone_direction(axis, a[3][0], rsl_random(stream, 2 * (uint32_t)sample),
                       rsl_random(stream, 2 * (uint32_t)sample + 1), r.D);
    else
        memcpy(r.D, axis, sizeof r.D);
    const char *name[VM_MAX_ARGS];
    char type[VM_MAX_ARGS];
    int width[VM_MAX_ARGS], at[VM_MAX_ARGS], total = 0;
    RslOptName mine[VM_MAX_ARGS];        /* ray:origin, ray:direction: the runtime's */
    int mine_at[VM_MAX_ARGS], nmine = 0;
    for (int i = 6; i + 1 < b->nown; i += 2) {
        RslOptName opt = vm_lane_options(call, i)->option;
        const char *nm = vm_lane_string(call, i);
        bool length = opt == RSL_OPT_RAY_LENGTH;
        if (opt == RSL_OPT_RAY_ORIGIN || opt == RSL_OPT_RAY_DIRECTION || length
            || opt == RSL_OPT_OUTPUT) {
            int w = call->argn[i + 1];
            if (opt != RSL_OPT_OUTPUT && (!length || pattern)) {
                if (w != (length ? 1 : 3)) {
                    vm_lane_fault(call, "gather's \"%s\" goes into a variable of the wrong type", nm);
                    return;
                }
                mine[nmine] = opt, mine_at[nmine++] = total;
            } else if (pattern) {
                vm_lane_fault(call, "gather(\"samplepattern\") traces no rays: it has no \"%s\"", nm);
                return;
            } else {
                name[r.n] = nm, type[r.n] = b->letters[i + 1], width[r.n] = w, at[r.n++] = total;
            }
            total += w;
        } else if (opt == RSL_OPT_MAXDIST) {
            r.maxdist = a[i + 1][0];
        } else if (opt == RSL_OPT_BIAS) {
            r.bias = a[i + 1][0];
        } else {
            vm_lane_warn(call, "option \"%s\" is not supported by this renderer; ignored", nm);
        }
    }
    if (total > 15) {
        vm_lane_fault(call, "the loop asks %d floats of each hit; at most 15 fit", total);
        return;
    }
    r.name = name, r.type = type, r.width = width, r.at = at;
    char err[200];
    int hit = pattern ? 1 : h->gather(h->user, &r, out + 1, err, sizeof err);
    if (hit < 0) {
        vm_lane_fault(call, "%s", err);
        return;
    }
    for (int k = 0; k < nmine && hit; k++) {
        float *o = out + 1 + mine_at[k];
        if (mine[k] == RSL_OPT_RAY_LENGTH)
            o[0] = 0;
        else
            memcpy(o, mine[k] == RSL_OPT_RAY_ORIGIN ? r.P : r.D, 3 * sizeof *o);
    }
    out[0] = (float)(hit != 0);
}

/* ---- queries --------------------------------------------------------------------------- */

/* attribute, option, rendererinfo, rayinfo and the message passing
   functions: (name, out&) returning 1 if the host has the value. */
void vm_lane_query(float *out, const VmCall *call)
{
    const VmBuiltin *b = call->self;
    const VmHost *h = b->host;
    float *value = out + b->retn + 1;
    const char *str = NULL, *name = vm_lane_string(call, 0);
    char type = b->letters[1];
    int id = b->id, found;
    bool message = id == BI_SURFACE || id == BI_DISPLACEMENT || id == BI_LIGHTSOURCE
                   || id == BI_ATMOSPHERE || id == BI_INCIDENT || id == BI_OPPOSITE;
    if (message) {
        found = h && h->message ? h->message(h->user, b->base, name, call->lane, type,
                                             call->argn[1], value, &str)
                                : -1;
        if (found < 0) {
            vm_lane_warn(call, "this renderer has no %s shader to ask for \"%s\"; returns 0",
                         id == BI_INCIDENT ? "incident volume"
                         : id == BI_OPPOSITE ? "opposite volume" : b->base, name);
            found = 0;
        }
    } else {
        if (!h || !h->query)
            return; /* nothing is known: the function returns 0 */
        found = h->query(h->user, b->base, name, type, call->argn[1], value, &str);
    }
    if (found)
        query_result(value, call, type, str);
    out[0] = (float)(found != 0);
}

/* raylevel(), isshadowray(), isindirectray(): rayinfo's "depth",
   "shadowray" and "indirectray", 0 when the host does not say. */
void vm_lane_rayinfo(float *out, const VmCall *call)
{
    const VmHost *h = call->self->host;
    int fn = call->self->id;
    const char *name = fn == BI_RAYLEVEL ? "depth" : fn == BI_ISSHADOWRAY ? "shadowray"
                                                                         : "indirectray";
    const char *str = NULL;
    if (!h || !h->query || h->query(h->user, "rayinfo", name, 'f', 1, out, &str) != 1)
        out[0] = 0;
}

/* shadername(): the running shader's own name; shadername(type): the
   name of the shader of that type ("surface", "displacement", "light",
   "atmosphere", ...) at the shading point, as the host says, "" if
   there is none (PRMan). */
void vm_lane_shadername(float *out, const VmCall *call)
{
    const VmHost *h = call->self->host;
    const char *str = NULL;
    float unused;
    if (!call->nargs)
        str = call->self->shader;
    else if (h && h->query)
        h->query(h->user, "shadername", vm_lane_string(call, 0), 's', 1, &unused, &str);
    query_result(out, call, 's', str);
}

/* caustic(P, N): RISpec 3.2's caustics come from a photon map, which no
   host of this runtime makes: black, with a warning naming it. */
void vm_lane_caustic(float *out, const VmCall *call)
{
    vm_lane_warn(call, "this renderer has no photon map for caustics; returns black");
    out[0] = out[1] = out[2] = 0;
}
