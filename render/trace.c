/*
** trace.c: following rays through the scene for the classic integrator.
** A ray stops at its first hit unless that hit is the back of a
** one-sided surface or lets light through: then shading composites
** front to back (C += (1 - A) Ci, A += (1 - A) Oi, per channel) and the
** ray goes on beyond the hit. Transmission (shadow rays that see
** opacity) multiplies 1 - Os through the layers in the same way.
*/
#include <math.h>
#include <string.h>

#include "render/internal.h"
#include "render/tiles.h"

float trace_bias(const float p[3])
{
    float m = rt_maxf(fabsf(p[0]), rt_maxf(fabsf(p[1]), fabsf(p[2])));
    return 1e-4f * rt_maxf(1.0f, m);
}

float trace_past(float t)
{
    return t * (1 + 1e-5f) + 1e-6f;
}

bool trace_backface(const RLook *look, const RTHit *h, const float dir[3])
{
    if (look->attrs->sides != 1)
        return false;
    float d = h->Ng_x * dir[0] + h->Ng_y * dir[1] + h->Ng_z * dir[2];
    return look->flip ? d < 0 : d > 0;
}

void trace_composite(float C[3], float A[3], const float Ci[3], const float Oi[3])
{
    for (int j = 0; j < 3; j++) {
        C[j] += (1 - A[j]) * Ci[j];
        A[j] += (1 - A[j]) * Oi[j];
    }
}

bool trace_opaque(const float A[3])
{
    return A[0] > 0.999f && A[1] > 0.999f && A[2] > 0.999f;
}

/* The opacity a hit's surface shows shadow rays: by its casts_shadows,
   none, full, or the opacity it is made with (its Os primitive variable
   there, else its attribute). */
static void hit_opacity(const RibMesh *mesh, const RLook *look, const RTHit *h, float Os[3])
{
    const RibPrimvar *pv = rib_mesh_primvar(mesh, "Os");
    if (look->casts != RCASTS_OS) {
        Os[0] = Os[1] = Os[2] = look->casts == RCASTS_OPAQUE ? 1.0f : 0.0f;
    } else if (pv && pv->p.f && pv->p.ncomp == 3) {
        ShadeIn at = { .b1 = h->u, .b2 = h->v, .prim = h->primID };
        primvar_at(pv, &at, mesh->tris + 3 * (size_t)h->primID, Os);
    } else {
        memcpy(Os, look->attrs->opacity, 3 * sizeof *Os);
    }
}

void trace_transmission(ShadeCtx *c, const float o[3], const float d[3], float tnear, float tfar,
                        float out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (!(tfar > tnear))
        return;
    if (!c->world->translucent) {
        RTRay r = { o[0], o[1], o[2], tnear, d[0], d[1], d[2], tfar };
        if (trace_shader_blocked(c, &r))
            out[0] = out[1] = out[2] = 0;
        return;
    }
    /* Layer by layer, as shade_trace composites; past RT_MAX_LAYERS
       the rest counts as opaque. */
    for (int layer = 0; layer < RT_MAX_LAYERS; layer++) {
        RTRayHit rh = { { o[0], o[1], o[2], tnear, d[0], d[1], d[2], tfar },
                        { 0, 0, 0, 0, 0, 0, RT_INVALID_ID, RT_INVALID_ID } };
        trace_shader_ray(c, &rh);
        if (rh.hit.geomID == RT_INVALID_ID)
            return;
        const RibMesh *mesh;
        const RLook *look;
        float Os[3];
        world_hit(c->world, rh.hit.geomID, rh.hit.instID, &mesh, &look);
        hit_opacity(mesh, look, &rh.hit, Os);
        for (int j = 0; j < 3; j++)
            out[j] *= 1 - rt_minf(1.0f, rt_maxf(0.0f, Os[j]));
        if (trace_opaque((float[3]){ 1 - out[0], 1 - out[1], 1 - out[2] }))
            break;
        tnear = trace_past(rh.ray.tfar);
    }
    out[0] = out[1] = out[2] = 0;
}

void trace_transmission_along(ShadeCtx *c, int n, const float (*p)[3], const float (*d)[3],
                              const float *dist, float (*out)[3])
{
    float ox[VM_MAX_BATCH], oy[VM_MAX_BATCH], oz[VM_MAX_BATCH], tn[VM_MAX_BATCH];
    float dx[VM_MAX_BATCH], dy[VM_MAX_BATCH], dz[VM_MAX_BATCH], tf[VM_MAX_BATCH];
    int ray_of[VM_MAX_BATCH], m = 0;
    for (int k = 0; k < n; k++) {
        float bias = c->ray_bias > 0 ? c->ray_bias : trace_bias(p[k]);
        out[k][0] = out[k][1] = out[k][2] = 1;
        if (!(dist[k] > 2 * bias))
            continue;
        if (c->world->translucent) {
            trace_transmission(c, p[k], d[k], bias, dist[k] - bias, out[k]);
            continue;
        }
        ox[m] = p[k][0], oy[m] = p[k][1], oz[m] = p[k][2], tn[m] = bias;
        dx[m] = d[k][0], dy[m] = d[k][1], dz[m] = d[k][2], tf[m] = dist[k] - bias;
        ray_of[m++] = k;
    }
    if (m == 0)
        return;
    RTRayNp r = { ox, oy, oz, tn, dx, dy, dz, tf };
    trace_shader_blocked_n(c, &r, m);
    for (int j = 0; j < m; j++)
        if (tf[j] == -INFINITY)
            out[ray_of[j]][0] = out[ray_of[j]][1] = out[ray_of[j]][2] = 0;
}

int shade_trace(ShadeCtx *c, const float org[3], const float dir[3], uint32_t seed, float out[3],
                char *err, int errlen)
{
    float C[3] = { 0, 0, 0 }, A[3] = { 0, 0, 0 };
    memset(out, 0, 3 * sizeof *out);
    if (c->depth >= c->maxdepth)
        return 0;
    float len = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (len == 0)
        return 0;
    float d[3] = { dir[0] / len, dir[1] / len, dir[2] / len };
    float tnear = c->ray_bias > 0 ? c->ray_bias : trace_bias(org);
    for (int layer = 0; layer < RT_MAX_LAYERS && !trace_opaque(A); layer++) {
        RTRayHit rh = { { org[0], org[1], org[2], tnear, d[0], d[1], d[2], INFINITY },
                        { 0, 0, 0, 0, 0, 0, RT_INVALID_ID, RT_INVALID_ID } };
        trace_shader_ray(c, &rh);
        if (rh.hit.geomID == RT_INVALID_ID)
            break;
        const RibMesh *mesh;
        const RLook *look;
        world_hit(c->world, rh.hit.geomID, rh.hit.instID, &mesh, &look);
        tnear = trace_past(rh.ray.tfar);
        if (trace_backface(look, &rh.hit, d))
            continue;
        ShadeIn in = { .org = { org[0], org[1], org[2] }, .dir = { d[0], d[1], d[2] },
                       .t = rh.ray.tfar, .b1 = rh.hit.u, .b2 = rh.hit.v, .prim = rh.hit.primID,
                       .seed = seed * 0x9e3779b9u + (uint32_t)layer,
                       .na = -1, .nb = -1 };
        float Ci[1][3], Oi[1][3];
        c->depth++;
        int rc = shade_batch(c, mesh, look, &in, 1, Ci, Oi, err, errlen);
        c->depth--;
        if (rc < 0)
            return -1;
        trace_composite(C, A, Ci[0], Oi[0]);
    }
    memcpy(out, C, sizeof C);
    return 0;
}
void trace_shader_ray(ShadeCtx *c, RTRayHit *rh)
{
    c->secondary_rays++;
    double t0 = render_clock();
    rtIntersect1(c->world->top, rh);
    c->shader_trace_seconds += render_clock() - t0;
}

bool trace_shader_blocked(ShadeCtx *c, RTRay *r)
{
    c->secondary_rays++;
    double t0 = render_clock();
    rtOccluded1(c->world->top, r);
    c->shader_trace_seconds += render_clock() - t0;
    return r->tfar == -INFINITY;
}

void trace_shader_blocked_n(ShadeCtx *c, RTRayNp *r, int n)
{
    c->secondary_rays += (uint64_t)n;
    double t0 = render_clock();
    rtOccludedNp(c->world->top, r, (size_t)n);
    c->shader_trace_seconds += render_clock() - t0;
}

