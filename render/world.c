/*
** world.c: a RibFrame made traceable: every mesh in an rtcore scene in
** camera space (retained objects as rtcore instances of scenes of their
** own), and beside each one the look it is shaded with: its shader
** instances (loaded before, found here), lights, and the transform from
** its points to camera space. Also what a mesh holds at a hit.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/image/texture.h"
#include "render/internal.h"

static void on_rt_error(void *user, RTError code, const char *msg)
{
    (void)code;
    RWorld *w = user;
    if (!w->rt_error[0])
        snprintf(w->rt_error, sizeof w->rt_error, "%s", msg);
}

/* The index of a RibLight in the frame's list, or -1. */
static int light_index(const RWorld *w, const RibLight *l)
{
    for (size_t i = 0; i < w->frame->nlights; i++)
        if (w->frame->lights[i] == l)
            return (int)i;
    return -1;
}

/* The instance shading loaded for request s, NULL for none. */
static const RShader *instance(const RWorld *w, const ShadeSys *shading, const RibShader *s)
{
    return s ? shading->find(shading, s, &w->world_to_camera) : NULL;
}

/* BMRT's Attribute "render" "casts_shadows" of attributes a: "Os" (the
   default), "opaque" or "none". "shade" (the surface shader's opacity)
   and any other value are "Os", with a warning at the primitive at,
   once a frame. */
static RCasts casts_shadows(RWorld *w, const RibAttributes *a, const RibLoc *at)
{
    const RibParam *p = rib_param_find(a->attributes, a->nattributes, "render:casts_shadows");
    if (!p || !p->s || p->count * (size_t)p->ncomp != 1 || !strcmp(p->s[0], "Os"))
        return RCASTS_OS;
    if (!strcmp(p->s[0], "opaque"))
        return RCASTS_OPAQUE;
    if (!strcmp(p->s[0], "none"))
        return RCASTS_NONE;
    if (!w->warned_casts)
        fprintf(stderr, "%s:%d:%d: warning: Attribute \"render\" \"casts_shadows\" \"%s\": %s; "
                "the surface casts shadows by its Os (as \"Os\")\n", at->file, at->line, at->col,
                p->s[0], strcmp(p->s[0], "shade") ? "not \"none\", \"opaque\", \"Os\" or \"shade\""
                : "shadow rays do not run surface shaders");
    w->warned_casts = true;
    return RCASTS_OS;
}

/* The look of a mesh with attributes a placed by to_camera, made at at. */
static void make_look(RWorld *w, RLook *look, const RibAttributes *a, const RibMatrix *to_camera,
                      const ShadeSys *shading, const RibLoc *at)
{
    look->attrs = a;
    look->to_camera = *to_camera;
    if (!rmat_normal_matrix(to_camera, look->normal))
        memset(look->normal, 0, sizeof look->normal);
    look->flip = rib_normals_flipped(a->orientation, to_camera) != 0;
    /* The left-handed orientation is flipped exactly by a mirroring
       transform (rib_normals_flipped). */
    look->mirrored = rib_normals_flipped(RIB_ORIENT_LH, to_camera) != 0;
    look->surface = instance(w, shading, a->surface);
    look->displacement = instance(w, shading, a->displacement);
    look->atmosphere = instance(w, shading, a->atmosphere);
    look->casts = casts_shadows(w, a, at);
    look->lights = calloc(a->nlights ? a->nlights : 1, sizeof *look->lights);
    for (size_t i = 0; i < a->nlights; i++) {
        int k = light_index(w, a->lights[i]);
        if (k < 0 || !w->lights[k]) /* not found: left out (frame.c) */
            continue;
        const RArea *area = w->areas[k].ntris ? &w->areas[k] : NULL;
        look->lights[look->nlights++] = (RLight){ w->lights[k], area, w->shadowed[k] };
        look->nsamples += area ? area->samples : 1;
        const RibShader *s = &a->lights[i]->shader;
        if (look->nsamples > RT_MAX_LIGHT_SAMPLES && !w->light_error[0])
            snprintf(w->light_error, sizeof w->light_error,
                     "%s:%d:%d: error: light \"%s\" brings the light samples a surface sees to "
                     "%d, more than %d (fewer lights or area light \"samples\")",
                     s->loc.file, s->loc.line, s->loc.col, s->name, look->nsamples,
                     RT_MAX_LIGHT_SAMPLES);
    }
    if (look->nsamples > w->max_samples)
        w->max_samples = look->nsamples;
}

/* mesh's points transformed by m, for rtcore. */
static float *points_by(const RibMesh *mesh, const RibMatrix *m)
{
    float *p = malloc((mesh->nverts ? mesh->nverts : 1) * 3 * sizeof *p);
    for (size_t i = 0; i < mesh->nverts; i++)
        rmat_point(m, mesh->P + 3 * i, p + 3 * i);
    return p;
}

/* Adds the top-level meshes an area light's block made to its surface. */
static void build_area(RWorld *w, const RibFrame *f, size_t li)
{
    RArea *a = &w->areas[li];
    const RibShader *s = &f->lights[li]->shader;
    /* The samples a shading point takes: the light's "samples", else
       BMRT's Attribute "light" "nsamples" in force at its declaration. */
    const RibAttributes *at = f->lights[li]->attrs;
    const RibParam *n = rib_param_find(s->params, s->nparams, "samples");
    if (!n && at)
        n = rib_param_find(at->attributes, at->nattributes, "light:nsamples");
    /* Compared as a float first: converting one past INT_MAX is undefined. */
    if (n && n->f && n->f[0] > RT_MAX_LIGHT_SAMPLES && !w->light_error[0])
        snprintf(w->light_error, sizeof w->light_error,
                 "%s:%d:%d: error: area light \"%s\": %s %.9g is more than %d, the "
                 "most light samples a surface sees",
                 s->loc.file, s->loc.line, s->loc.col, s->name,
                 strcmp(n->name, "samples") ? "Attribute \"light\" \"nsamples\"" : "\"samples\"",
                 (double)n->f[0], RT_MAX_LIGHT_SAMPLES);
    a->samples = n && n->f && n->f[0] >= 1 && n->f[0] <= RT_MAX_LIGHT_SAMPLES ? (int)n->f[0] : 16;
    for (size_t m = 0; m < f->nmeshes; m++) {
        const RibMesh *mesh = &f->meshes[m];
        if (mesh->attrs->area_light != f->lights[li])
            continue;
        RibMatrix to_camera = rib_matrix_mul(&mesh->object_to_world, &w->world_to_camera);
        bool flip = rib_normals_flipped(mesh->attrs->orientation, &to_camera) != 0;
        a->tri = realloc(a->tri, (a->ntris + mesh->ntris) * sizeof *a->tri);
        a->normal = realloc(a->normal, (a->ntris + mesh->ntris) * sizeof *a->normal);
        a->cdf = realloc(a->cdf, (a->ntris + mesh->ntris) * sizeof *a->cdf);
        for (size_t t = 0; t < mesh->ntris; t++) {
            float (*v)[3] = a->tri[a->ntris], e1[3], e2[3], *nrm = a->normal[a->ntris];
            for (int k = 0; k < 3; k++)
                rmat_point(&to_camera, mesh->P + 3 * (size_t)mesh->tris[3 * t + (size_t)k], v[k]);
            for (int k = 0; k < 3; k++)
                e1[k] = v[1][k] - v[0][k], e2[k] = v[2][k] - v[0][k];
            nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
            nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
            nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
            double len = sqrt((double)nrm[0] * nrm[0] + (double)nrm[1] * nrm[1]
                              + (double)nrm[2] * nrm[2]);
            for (int k = 0; k < 3 && len > 0; k++)
                nrm[k] = (float)(nrm[k] / len) * (flip ? -1.0f : 1.0f);
            a->area += len / 2;
            a->cdf[a->ntris++] = a->area;
        }
    }
}

/* BMRT's Attribute "light" "shadows" for light l, as in force at its
   declaration: "on" or ["on"] makes it shadowed, "off" (the default)
   not. Another value is a warning at the light, and "off". */
static bool light_shadowed(const RibLight *l)
{
    const RibAttributes *a = l->attrs;
    const RibParam *p = a ? rib_param_find(a->attributes, a->nattributes, "light:shadows") : NULL;
    if (!p || !p->s || p->count * (size_t)p->ncomp != 1 || !strcmp(p->s[0], "off"))
        return false;
    if (!strcmp(p->s[0], "on"))
        return true;
    const RibLoc *at = &l->shader.loc;
    fprintf(stderr, "%s:%d:%d: warning: light \"%s\": Attribute \"light\" \"shadows\" \"%s\" "
            "is neither \"on\" nor \"off\"; the light is not shadowed\n",
            at->file, at->line, at->col, l->shader.name, p->s[0]);
    return false;
}

static void build_lights(RWorld *w, const RibFrame *f, const ShadeSys *shading)
{
    w->nlights = f->nlights;
    w->lights = calloc(f->nlights ? f->nlights : 1, sizeof *w->lights);
    w->areas = calloc(f->nlights ? f->nlights : 1, sizeof *w->areas);
    w->shadowed = calloc(f->nlights ? f->nlights : 1, sizeof *w->shadowed);
    for (size_t i = 0; i < f->nlights; i++) {
        w->lights[i] = instance(w, shading, &f->lights[i]->shader);
        if (w->lights[i] && f->lights[i]->area)
            build_area(w, f, i);
        w->shadowed[i] = w->lights[i] && light_shadowed(f->lights[i]);
    }
}

/* Notes a surface of look (and mesh's Os primitive variable, if any)
   that lets light through to shadow rays. */
static void note_opacity(RWorld *w, const RLook *look, const RibMesh *mesh)
{
    const RibPrimvar *os = rib_mesh_primvar(mesh, "Os");
    const float *o = look->attrs->opacity;
    w->translucent |= look->casts == RCASTS_NONE
                      || (look->casts == RCASTS_OS
                          && (o[0] < 1 || o[1] < 1 || o[2] < 1 || (os && os->p.f && os->p.ncomp == 3)));
}

static void build_objects(RWorld *w, const RibScene *scene)
{
    w->nobjects = scene->nobjects;
    w->objects = calloc(scene->nobjects ? scene->nobjects : 1, sizeof *w->objects);
    size_t npoints = 0;
    for (size_t o = 0; o < scene->nobjects; o++)
        npoints += scene->objects[o]->nmeshes;
    w->object_points = calloc(npoints ? npoints : 1, sizeof *w->object_points);
    for (size_t o = 0; o < scene->nobjects; o++) {
        const RibObject *obj = scene->objects[o];
        w->objects[o] = rtNewScene(w->device);
        for (size_t m = 0; m < obj->nmeshes; m++) {
            const RibMesh *mesh = &obj->meshes[m];
            float *p = points_by(mesh, &mesh->object_to_world);
            w->object_points[w->nobject_points++] = p;
            rtAttachTriangleMesh(w->objects[o], p, mesh->nverts, 0, mesh->tris, mesh->ntris);
        }
        rtCommitScene(w->objects[o]);
    }
}

static size_t object_index(const RibScene *scene, const RibObject *obj)
{
    for (size_t o = 0; o < scene->nobjects; o++)
        if (scene->objects[o] == obj)
            return o;
    return 0;
}

int world_build(RWorld *w, const RibScene *scene, const RibFrame *f, const ShadeSys *shading,
                char *err, int errlen)
{
    memset(w, 0, sizeof *w);
    w->frame = f;
    w->world_to_camera = f->world_to_camera;
    w->device = rtNewDevice(NULL);
    if (!w->device) {
        snprintf(err, (size_t)errlen, "rtrender: error: cannot create the rtcore device");
        return -1;
    }
    rtSetDeviceErrorFunction(w->device, on_rt_error, w);
    /* Shaders look textures up in camera space; shadow maps need world. */
    RibMatrix camera_to_world;
    float c2w[16];
    if (!(w->textures = texsys_new()) || !rib_matrix_invert(&w->world_to_camera, &camera_to_world)) {
        snprintf(err, (size_t)errlen, "rtrender: error: %s",
                 w->textures ? "the camera transform is singular" : "out of memory");
        return -1;
    }
    rmat_to_float(&camera_to_world, c2w);
    texsys_set_current_to_world(w->textures, c2w);
    texsys_set_searchpath(w->textures, f->options.texture_path ? f->options.texture_path : ".");
    build_lights(w, f, shading);
    build_objects(w, scene);
    w->top = rtNewScene(w->device);
    w->ntop = f->nmeshes;
    w->top_meshes = calloc(f->nmeshes ? f->nmeshes : 1, sizeof *w->top_meshes);
    w->top_looks = calloc(f->nmeshes ? f->nmeshes : 1, sizeof *w->top_looks);
    w->top_points = calloc(f->nmeshes ? f->nmeshes : 1, sizeof *w->top_points);
    for (size_t i = 0; i < f->nmeshes; i++) {
        const RibMesh *mesh = &f->meshes[i];
        RibMatrix to_camera = rib_matrix_mul(&mesh->object_to_world, &w->world_to_camera);
        w->top_meshes[i] = mesh;
        make_look(w, &w->top_looks[i], mesh->attrs, &to_camera, shading, &mesh->loc);
        note_opacity(w, &w->top_looks[i], mesh);
        w->top_points[i] = points_by(mesh, &to_camera);
        w->top_looks[i].points = w->top_points[i];
        rtAttachTriangleMesh(w->top, w->top_points[i], mesh->nverts, 0, mesh->tris, mesh->ntris);
    }
    w->ninstances = f->ninstances;
    w->instances = calloc(f->ninstances ? f->ninstances : 1, sizeof *w->instances);
    w->instance_first = calloc(f->ninstances ? f->ninstances : 1, sizeof *w->instance_first);
    size_t nlooks = 0;
    for (size_t i = 0; i < f->ninstances; i++)
        nlooks += f->instances[i].object->nmeshes;
    w->instance_looks = calloc(nlooks ? nlooks : 1, sizeof *w->instance_looks);
    nlooks = 0;
    for (size_t i = 0; i < f->ninstances; i++) {
        const RibInstance *in = &f->instances[i];
        RibMatrix to_camera = rib_matrix_mul(&in->object_to_world, &w->world_to_camera);
        w->instances[i] = in;
        w->instance_first[i] = nlooks;
        for (size_t m = 0; m < in->object->nmeshes; m++) {
            RibMatrix mesh_to_camera = rib_matrix_mul(&in->object->meshes[m].object_to_world,
                                                      &to_camera);
            w->ninstance_looks = ++nlooks;
            make_look(w, &w->instance_looks[nlooks - 1], in->attrs, &mesh_to_camera, shading,
                      &in->loc);
            note_opacity(w, &w->instance_looks[nlooks - 1], &in->object->meshes[m]);
        }
        float xfm[12];
        rib_matrix_to_rt(&to_camera, xfm);
        unsigned id = rtAttachInstance(w->top, w->objects[object_index(scene, in->object)], xfm);
        if (id != RT_INVALID_ID && id != w->ntop + i) {
            snprintf(err, (size_t)errlen, "rtrender: error: rtcore numbered instance %zu %u, "
                     "not %zu", i, id, w->ntop + i);
            return -1;
        }
    }
    rtCommitScene(w->top);
    if (w->light_error[0]) {
        snprintf(err, (size_t)errlen, "%s", w->light_error);
        return -1;
    }
    if (w->rt_error[0]) {
        snprintf(err, (size_t)errlen, "rtrender: error: rtcore: %s", w->rt_error);
        return -1;
    }
    return 0;
}

void look_triangle(const RLook *look, const RibMesh *mesh, unsigned prim, float V[3][3])
{
    const uint32_t *tri = mesh->tris + 3 * (size_t)prim;
    for (int k = 0; k < 3; k++) {
        if (look->points)
            memcpy(V[k], look->points + 3 * (size_t)tri[k], 3 * sizeof(float));
        else
            rmat_point(&look->to_camera, mesh->P + 3 * (size_t)tri[k], V[k]);
    }
}

void primvar_at(const RibPrimvar *pv, const ShadeIn *h, const uint32_t *tri, float *out)
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

void world_hit(const RWorld *w, unsigned geom, unsigned inst, const RibMesh **mesh,
               const RLook **look)
{
    if (inst == RT_INVALID_ID) {
        *mesh = w->top_meshes[geom];
        *look = &w->top_looks[geom];
        return;
    }
    /* rtcore numbers instances with the meshes, after the top meshes. */
    size_t i = inst - w->ntop;
    const RibInstance *in = w->instances[i];
    *mesh = &in->object->meshes[geom];
    *look = &w->instance_looks[w->instance_first[i] + geom];
}

void world_free(RWorld *w)
{
    for (size_t i = 0; i < w->ntop; i++) {
        free(w->top_points[i]);
        free(w->top_looks[i].lights);
    }
    for (size_t i = 0; i < w->ninstance_looks; i++)
        free(w->instance_looks[i].lights);
    for (size_t i = 0; i < w->nobject_points; i++)
        free(w->object_points[i]);
    if (w->top)
        rtReleaseScene(w->top);
    for (size_t o = 0; o < w->nobjects; o++)
        if (w->objects[o])
            rtReleaseScene(w->objects[o]);
    if (w->device)
        rtReleaseDevice(w->device);
    texsys_free(w->textures);
    free(w->top_meshes);
    free(w->top_looks);
    free(w->top_points);
    free(w->instances);
    free(w->instance_looks);
    free(w->instance_first);
    free(w->object_points);
    free(w->objects);
    for (size_t i = 0; w->areas && i < w->nlights; i++) {
        free(w->areas[i].tri);
        free(w->areas[i].normal);
        free(w->areas[i].cdf);
    }
    free(w->areas);
    free(w->lights);
    free(w->shadowed);
    memset(w, 0, sizeof *w);
}
