/*
** blocks.c: the Begin/End requests that nest the graphics state (frames,
** world, attributes, transforms, solids, motion, retained objects) and
** ObjectInstance. A mismatched End is a fatal error naming the block it
** ran into; WorldBegin/End also open and close the frame being built.
** A Begin with wrong arguments is an error but still opens its block, so
** that its End does not become a second, fatal one.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/request.h"
#include "render/rib/shader.h"

static void push_block(RibCtx *c, RibBlockKind kind, const RibRequest *r)
{
    RibBlock *b = RIB_PUSH(c->blocks, c->nblocks, c->capblocks);
    b->kind = kind;
    b->loc = r->loc;
    b->saved = c->attr;
    b->saved_options = c->options;
}

/* Pops the innermost block, which must be of kind; NULL (after a fatal
   error) when it is not. The result stays valid until the next push. */
static const RibBlock *pop_block(RibCtx *c, RibBlockKind kind,
                                 const RibRequest *r)
{
    rib_args_end(c, r, 0);
    if (!c->nblocks) {
        rib_fatal(c, r->loc, "%s without matching %s", r->name,
                  rib_block_begin_name(kind));
        return NULL;
    }
    const RibBlock *b = &c->blocks[c->nblocks - 1];
    if (b->kind != kind) {
        rib_fatal(c, r->loc, "%s does not match %s at %s:%d:%d", r->name,
                  rib_block_begin_name(b->kind), b->loc.file, b->loc.line,
                  b->loc.col);
        return NULL;
    }
    c->nblocks--;
    return b;
}

/* A fatal error if a block of a kind in mask is open. */
static bool refuse_inside(RibCtx *c, const RibRequest *r, unsigned mask)
{
    for (size_t i = c->nblocks; i-- > 0;) {
        const RibBlock *b = &c->blocks[i];
        if (mask & (1u << b->kind)) {
            rib_fatal(c, r->loc, "%s inside %s at %s:%d:%d", r->name,
                      rib_block_begin_name(b->kind), b->loc.file,
                      b->loc.line, b->loc.col);
            return true;
        }
    }
    return false;
}

#define ALL_BUT_FRAME (~(1u << RIB_BLOCK_FRAME))

void rib_req_FrameBegin(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    long n = -1;
    if (r->nargs && !rib_arg_int(c, r, &pos, 0, 2147483647L, &n,
                                 "the frame number"))
        n = -1, pos = r->nargs;
    rib_args_end(c, r, pos);
    if (refuse_inside(c, r, ~0u))
        return;
    push_block(c, RIB_BLOCK_FRAME, r);
    c->frame_number = (int)n;
}

void rib_req_FrameEnd(RibCtx *c, const RibRequest *r)
{
    const RibBlock *b = pop_block(c, RIB_BLOCK_FRAME, r);
    if (!b)
        return;
    c->attr = b->saved;
    c->options = b->saved_options;
    c->frame_number = -1;
}

/* Shaders declared before WorldBegin hold camera-space transforms. */
static void shaders_to_world(RibCtx *c)
{
    const RibShader **slots[] = {&c->attr.surface, &c->attr.displacement,
                                 &c->attr.atmosphere, &c->attr.interior,
                                 &c->attr.exterior};
    for (size_t i = 0; i < sizeof slots / sizeof *slots; i++)
        if (*slots[i])
            *slots[i] = rib_shader_moved(c, *slots[i], &c->camera_to_world);
    rib_attr_edit(c);
}

void rib_req_WorldBegin(RibCtx *c, const RibRequest *r)
{
    rib_args_end(c, r, 0);
    if (refuse_inside(c, r, ALL_BUT_FRAME))
        return;
    RibScene *s = c->scene;
    s->frames = rib_xrealloc(s->frames, (s->nframes + 1) * sizeof *s->frames);
    RibFrame *f = &s->frames[s->nframes++];
    memset(f, 0, sizeof *f);
    f->number = c->frame_number;
    f->loc = r->loc;
    f->options = c->options;
    f->world_to_camera = c->attr.ctm;
    if (!rib_matrix_invert(&f->world_to_camera, &c->camera_to_world))
        rib_warning(c, r->loc, "the camera transform is singular");
    c->frame = f;
    c->cap_frame_meshes = c->cap_instances = 0;
    shaders_to_world(c);
    push_block(c, RIB_BLOCK_WORLD, r);
    rib_lights_to_world(c);
    c->attr.ctm = rib_matrix_identity();
}

/* The frame's named coordinate systems: "camera", those from before
   WorldBegin, and those from inside it (which win). */
static void collect_coordsys(RibCtx *c, RibFrame *f)
{
    size_t n = 1 + c->coordsys.n + c->world_coordsys.n, k = 0;
    f->coordsys = rib_xmalloc(n * sizeof *f->coordsys);
    f->coordsys[k++] = (RibCoordSys){rib_intern(c->store, "camera"),
                                     c->camera_to_world};
    for (size_t i = 0; i < c->coordsys.cap; i++) {
        const char *name = c->coordsys.keys[i];
        if (!name || rib_map_get(&c->world_coordsys, name))
            continue;
        const RibMatrix *to_camera = c->coordsys.vals[i];
        f->coordsys[k++] = (RibCoordSys){
            rib_intern(c->store, name),
            rib_matrix_mul(to_camera, &c->camera_to_world)};
    }
    for (size_t i = 0; i < c->world_coordsys.cap; i++)
        if (c->world_coordsys.keys[i])
            f->coordsys[k++] = (RibCoordSys){
                rib_intern(c->store, c->world_coordsys.keys[i]),
                *(const RibMatrix *)c->world_coordsys.vals[i]};
    f->ncoordsys = k;
}

void rib_req_WorldEnd(RibCtx *c, const RibRequest *r)
{
    const RibBlock *b = pop_block(c, RIB_BLOCK_WORLD, r);
    if (!b)
        return;
    c->attr = b->saved;
    collect_coordsys(c, c->frame);
    rib_map_free_all(&c->world_coordsys);
    rib_map_free(&c->lights);
    c->frame = NULL;
}

void rib_req_AttributeBegin(RibCtx *c, const RibRequest *r)
{
    rib_args_end(c, r, 0);
    push_block(c, RIB_BLOCK_ATTRIBUTE, r);
}

void rib_req_AttributeEnd(RibCtx *c, const RibRequest *r)
{
    const RibBlock *b = pop_block(c, RIB_BLOCK_ATTRIBUTE, r);
    if (b)
        c->attr = b->saved;
}

void rib_req_TransformBegin(RibCtx *c, const RibRequest *r)
{
    rib_args_end(c, r, 0);
    push_block(c, RIB_BLOCK_TRANSFORM, r);
}

void rib_req_TransformEnd(RibCtx *c, const RibRequest *r)
{
    const RibBlock *b = pop_block(c, RIB_BLOCK_TRANSFORM, r);
    if (b)
        c->attr.ctm = b->saved.ctm;
}

void rib_req_SolidBegin(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    if (rib_arg_string(c, r, &pos, "the operation"))
        rib_args_end(c, r, pos);
    rib_unsupported(c, r->loc, "CSG is not supported; the solid's parts are "
                "rendered as they are");
    push_block(c, RIB_BLOCK_SOLID, r);
}

void rib_req_SolidEnd(RibCtx *c, const RibRequest *r)
{
    const RibBlock *b = pop_block(c, RIB_BLOCK_SOLID, r);
    if (b)
        c->attr = b->saved;
}

void rib_req_MotionBegin(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    if (rib_arg_number_array(c, r, &pos, "the time samples"))
        rib_args_end(c, r, pos);
    if (refuse_inside(c, r, 1u << RIB_BLOCK_MOTION))
        return;
    rib_unsupported(c, r->loc, "motion blur is not supported; the first time "
                "sample is used");
    push_block(c, RIB_BLOCK_MOTION, r);
    c->motion_requests = 0;
}

void rib_req_MotionEnd(RibCtx *c, const RibRequest *r)
{
    pop_block(c, RIB_BLOCK_MOTION, r);
}

void rib_req_ObjectBegin(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *key = rib_arg_handle(c, r, &pos, "the object handle");
    if (!key || !rib_args_end(c, r, pos) ||
        refuse_inside(c, r, 1u << RIB_BLOCK_OBJECT))
        return;
    RibObject *o = rib_xcalloc(1, sizeof *o);
    o->handle = rib_intern(c->store, rib_handle_text(key));
    o->loc = r->loc;
    RibScene *s = c->scene;
    *RIB_PUSH(s->objects, s->nobjects, c->cap_objects) = o;
    rib_map_put(&c->objects, key, o);
    push_block(c, RIB_BLOCK_OBJECT, r);
    /* The object's geometry is placed relative to each instance. */
    c->attr.ctm = rib_matrix_identity();
    c->object = o;
    c->cap_object_meshes = 0;
}

void rib_req_ObjectEnd(RibCtx *c, const RibRequest *r)
{
    const RibBlock *b = pop_block(c, RIB_BLOCK_OBJECT, r);
    if (!b)
        return;
    c->attr = b->saved;
    c->object = NULL;
}

static RibMesh copy_mesh(const RibMesh *m)
{
    RibMesh d = *m;
    d.P = memcpy(rib_xmalloc(3 * m->nverts * sizeof *d.P), m->P,
                 3 * m->nverts * sizeof *d.P);
    if (m->Ng)
        d.Ng = memcpy(rib_xmalloc(3 * m->nverts * sizeof *d.Ng), m->Ng,
                      3 * m->nverts * sizeof *d.Ng);
    if (m->uv)
        d.uv = memcpy(rib_xmalloc(2 * m->nverts * sizeof *d.uv), m->uv,
                      2 * m->nverts * sizeof *d.uv);
    d.tris = memcpy(rib_xmalloc(3 * m->ntris * sizeof *d.tris), m->tris,
                    3 * m->ntris * sizeof *d.tris);
    d.primvars = rib_xmalloc((m->nprimvars ? m->nprimvars : 1) *
                             sizeof *d.primvars);
    for (size_t i = 0; i < m->nprimvars; i++) {
        d.primvars[i] = m->primvars[i];
        d.primvars[i].p = rib_param_copy(&m->primvars[i].p);
    }
    return d;
}

void rib_req_ObjectInstance(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *key = rib_arg_handle(c, r, &pos, "the object handle");
    if (!key || !rib_args_end(c, r, pos))
        return;
    const RibObject *o = rib_map_get(&c->objects, key);
    if (!o) {
        rib_error(c, r->args[0].loc, "ObjectInstance: no object \"%s\"",
                  rib_handle_text(key));
        return;
    }
    if (o == c->object) {
        rib_error(c, r->loc, "ObjectInstance: object \"%s\" instanced "
                  "inside its own definition", o->handle);
        return;
    }
    if (c->object) {
        /* rtcore has one level of instancing, so an instance inside an
           object definition is copied into it. */
        size_t ntris = 0;
        for (size_t i = 0; i < o->nmeshes; i++)
            ntris += o->meshes[i].ntris;
        if (!rib_budget(c, r->loc, r->name, ntris))
            return;
        for (size_t i = 0; i < o->nmeshes; i++) {
            RibMesh m = copy_mesh(&o->meshes[i]);
            RibMatrix inner = m.object_to_world;
            rib_emit_mesh(c, &m);
            RibObject *cur = c->object;
            RibMesh *placed = &cur->meshes[cur->nmeshes - 1];
            placed->object_to_world = rib_matrix_mul(&inner, &c->attr.ctm);
            placed->attrs = o->meshes[i].attrs;
        }
        return;
    }
    RibFrame *f = c->frame;
    RibInstance *in = RIB_PUSH(f->instances, f->ninstances, c->cap_instances);
    in->object = o;
    in->object_to_world = c->attr.ctm;
    in->attrs = rib_attrs(c);
    in->loc = r->loc;
}
