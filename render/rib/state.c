/*
** state.c: the load context and the graphics state's life cycle: RISpec's
** defaults for options and attributes, attribute snapshots for output,
** handing finished meshes to the frame or object being defined, where
** the camera is seen from object space, and freeing scenes.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/rib/parse.h"

static void default_attributes(RibAttrState *a)
{
    memset(a, 0, sizeof *a);
    a->ctm = rib_matrix_identity();
    for (int i = 0; i < 3; i++)
        a->color[i] = a->opacity[i] = 1.0f;
    a->sides = 2;
    static const float unit_st[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    memcpy(a->st, unit_st, sizeof a->st);
    /* "outside" in camera space, which is left-handed */
    a->orientation = RIB_ORIENT_LH;
    rib_basis_named("bezier", &a->ubasis);
    rib_basis_named("bezier", &a->vbasis);
}

static void default_options(RibOptions *o, const RibLoadOptions *lo)
{
    memset(o, 0, sizeof *o);
    o->xres = 640;
    o->yres = 480;
    o->pixel_aspect = 1.0f;
    o->crop[1] = o->crop[3] = 1.0f;
    o->projection = RIB_PROJ_ORTHOGRAPHIC;
    o->fov = 90.0f;
    o->near_clip = 1e-10f;   /* RI_EPSILON */
    o->far_clip = 1e38f;     /* RI_INFINITY */
    o->fstop = INFINITY;     /* a pinhole */
    o->pixel_samples[0] = o->pixel_samples[1] = 2.0f;
    o->filter = RIB_FILTER_GAUSSIAN;
    o->filter_width[0] = o->filter_width[1] = 2.0f;
    o->exposure_gain = o->exposure_gamma = 1.0f;
    o->quantize_rgba = (RibQuantize){255.0f, 0.0f, 255.0f, 0.5f};
    o->hider = "hidden";
    o->trace_maxdepth = 10;
    o->shader_path = lo->default_shader_path;
    o->texture_path = lo->default_texture_path;
    o->archive_path = lo->default_archive_path;
}

void rib_ctx_init(RibCtx *c, const RibLoadOptions *opt, RibDiag *diag)
{
    memset(c, 0, sizeof *c);
    c->diag = diag;
    if (opt)
        c->opt = *opt;
    else
        rib_load_options_init(&c->opt);
    c->store = rib_xcalloc(1, sizeof *c->store);
    c->scene = rib_xcalloc(1, sizeof *c->scene);
    c->scene->store = c->store;
    /* Paths live as long as the scene, like every other string in it. */
    c->opt.default_shader_path = rib_intern(c->store, c->opt.default_shader_path);
    c->opt.default_texture_path =
        rib_intern(c->store, c->opt.default_texture_path);
    c->opt.default_archive_path =
        rib_intern(c->store, c->opt.default_archive_path);
    default_options(&c->options, &c->opt);
    default_attributes(&c->attr);
    rib_decl_standard(&c->decls);
    c->frame_number = -1;
}

static const char *const block_names[][2] = {
    [RIB_BLOCK_FRAME] = {"FrameBegin", "FrameEnd"},
    [RIB_BLOCK_WORLD] = {"WorldBegin", "WorldEnd"},
    [RIB_BLOCK_ATTRIBUTE] = {"AttributeBegin", "AttributeEnd"},
    [RIB_BLOCK_TRANSFORM] = {"TransformBegin", "TransformEnd"},
    [RIB_BLOCK_OBJECT] = {"ObjectBegin", "ObjectEnd"},
    [RIB_BLOCK_SOLID] = {"SolidBegin", "SolidEnd"},
    [RIB_BLOCK_MOTION] = {"MotionBegin", "MotionEnd"},
};

const char *rib_block_begin_name(RibBlockKind k)
{
    return block_names[k][0];
}

const char *rib_block_end_name(RibBlockKind k)
{
    return block_names[k][1];
}

RibScene *rib_ctx_finish(RibCtx *c)
{
    if (!c->fatal && c->nblocks) {
        for (size_t i = c->nblocks; i-- > 0;) {
            const RibBlock *b = &c->blocks[i];
            rib_error(c, b->loc, "%s has no matching %s",
                             rib_block_begin_name(b->kind),
                             rib_block_end_name(b->kind));
        }
        c->fatal = true;
    }
    free(c->blocks);
    free(c->reading);
    rib_map_free_all(&c->decls);
    rib_map_free_all(&c->coordsys);
    rib_map_free_all(&c->world_coordsys);
    rib_map_free(&c->objects);
    rib_map_free(&c->lights);
    rib_map_free(&c->camera_lights);
    RibScene *s = c->scene;
    s->path = c->file;
    if (c->fatal) {
        rib_scene_free(s);
        s = NULL;
    }
    return s;
}

const RibAttributes *rib_attrs(RibCtx *c)
{
    const RibAttrState *st = &c->attr;
    if (st->snapshot)
        return st->snapshot;
    RibAttributes *a = rib_store_keep(c->store, rib_xcalloc(1, sizeof *a));
    memcpy(a->color, st->color, sizeof a->color);
    memcpy(a->opacity, st->opacity, sizeof a->opacity);
    a->sides = st->sides;
    a->matte = st->matte;
    memcpy(a->st, st->st, sizeof a->st);
    a->orientation = st->orientation;
    a->surface = st->surface;
    a->displacement = st->displacement;
    a->atmosphere = st->atmosphere;
    a->interior = st->interior;
    a->exterior = st->exterior;
    a->area_light = st->area_light;
    a->lights = st->lights;
    a->nlights = st->nlights;
    a->attributes = st->attributes;
    a->nattributes = st->nattributes;
    c->attr.snapshot = a;
    return a;
}

bool rib_budget(RibCtx *c, RibLoc loc, const char *prim, size_t ntris)
{
    if (ntris > c->opt.max_triangles - c->triangles) {
        rib_error(c, loc, "%s: %zu triangles would exceed the scene's "
                  "budget of %zu; primitive skipped", prim, ntris,
                  c->opt.max_triangles);
        return false;
    }
    return true;
}

void rib_eye(RibCtx *c, RibEye *eye)
{
    /* Before WorldBegin the current transform ends in camera space. */
    RibMatrix to_camera = c->frame ? rib_matrix_mul(&c->attr.ctm,
                                                    &c->frame->world_to_camera)
                                   : c->attr.ctm, from_camera;
    if (!rib_matrix_invert(&to_camera, &from_camera))
        from_camera = rib_matrix_identity();
    static const double origin[3] = {0, 0, 0}, ahead[3] = {0, 0, 1};
    double front[3];
    rib_transform_point(&from_camera, origin, eye->at);
    rib_transform_point(&from_camera, ahead, front);
    double len = 0;
    for (int i = 0; i < 3; i++) {
        eye->dir[i] = front[i] - eye->at[i];
        len += eye->dir[i] * eye->dir[i];
    }
    len = sqrt(len);
    for (int i = 0; i < 3; i++)
        eye->dir[i] = len > 0 ? eye->dir[i] / len : i == 2;
    eye->perspective = c->options.projection == RIB_PROJ_PERSPECTIVE;
}

void rib_eye_towards(const RibEye *eye, const double p[3], double out[3])
{
    double len = 0;
    for (int i = 0; i < 3; i++) {
        out[i] = eye->perspective ? eye->at[i] - p[i] : -eye->dir[i];
        len += out[i] * out[i];
    }
    len = sqrt(len);
    for (int i = 0; i < 3; i++)
        out[i] = len > 0 ? out[i] / len : -eye->dir[i];
}

void rib_emit_mesh(RibCtx *c, RibMesh *m)
{
    if (m->ntris == 0) {
        rib_mesh_free(m);
        return;
    }
    c->triangles += m->ntris;
    m->object_to_world = c->attr.ctm;
    m->attrs = rib_attrs(c);
    if (c->object)
        *RIB_PUSH(c->object->meshes, c->object->nmeshes,
                  c->cap_object_meshes) = *m;
    else
        *RIB_PUSH(c->frame->meshes, c->frame->nmeshes,
                  c->cap_frame_meshes) = *m;
}

void rib_mesh_free(RibMesh *m)
{
    free(m->P);
    free(m->Ng);
    free(m->uv);
    free(m->tris);
    for (size_t i = 0; i < m->nprimvars; i++)
        rib_param_clear(&m->primvars[i].p);
    free(m->primvars);
    memset(m, 0, sizeof *m);
}

static void free_meshes(RibMesh *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rib_mesh_free(&m[i]);
    free(m);
}

void rib_scene_free(RibScene *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nframes; i++) {
        RibFrame *f = &s->frames[i];
        free_meshes(f->meshes, f->nmeshes);
        free(f->instances);
        free(f->lights);
        free(f->coordsys);
    }
    free(s->frames);
    for (size_t i = 0; i < s->nobjects; i++) {
        free_meshes(s->objects[i]->meshes, s->objects[i]->nmeshes);
        free(s->objects[i]);
    }
    free(s->objects);
    free(s->makes);
    rib_store_free(s->store);
    free(s);
}

const RibPrimvar *rib_mesh_primvar(const RibMesh *mesh, const char *name)
{
    for (size_t i = 0; i < mesh->nprimvars; i++)
        if (strcmp(mesh->primvars[i].p.name, name) == 0)
            return &mesh->primvars[i];
    return NULL;
}

float rib_frame_aspect(const RibOptions *opt)
{
    if (opt->frame_aspect > 0)
        return opt->frame_aspect;
    if (opt->yres <= 0)
        return 1.0f;
    return (float)opt->xres * opt->pixel_aspect / (float)opt->yres;
}

void rib_screen_window(const RibOptions *opt, float window[4])
{
    if (opt->screen_set) {
        memcpy(window, opt->screen, 4 * sizeof *window);
        return;
    }
    float a = rib_frame_aspect(opt);
    if (a >= 1.0f) {
        window[0] = -a, window[1] = a, window[2] = -1.0f, window[3] = 1.0f;
    } else {
        window[0] = -1.0f, window[1] = 1.0f;
        window[2] = -1.0f / a, window[3] = 1.0f / a;
    }
}
