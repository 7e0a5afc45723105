/*
** shaders.c: shader and light requests. Each records the shader's name,
** its typed parameters and the current transform for the renderer to bind
** later; lights also get a handle and an on/off place in the attributes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/image/pathfind.h"
#include "render/rib/shader.h"

/* The shader a request names, as the shader searchpath spells it: when
   no NAME.o or NAME.sl is on it but a file whose name differs only in
   case is (a scene written on a file system that ignores case), that
   file's name, with a warning (pathfind.c says why). */
static const char *on_path_spelling(RibCtx *c, const RibRequest *r, const char *name)
{
    static const char *const exts[] = { ".o", ".sl", NULL };
    char file[4096];
    const char *path = c->options.shader_path ? c->options.shader_path : ".";
    if (strchr(name, '/') || path_find(path, name, exts, file, sizeof file) != PATH_FOUND_OTHER_CASE)
        return name;
    char *base = strrchr(file, '/') + 1;
    *strrchr(base, '.') = '\0';
    rib_warning(c, r->loc, "shader \"%s\" is not on the shader searchpath; \"%s\", whose name "
                "differs only in case, is used", name, base);
    return rib_intern(c->store, base);
}

/* Fills s from the name at args[0] and the parameters from args[pos]. */
static RibShader *new_shader(RibCtx *c, const RibRequest *r, size_t pos,
                             RibShader *s)
{
    size_t p = 0;
    const char *name = rib_arg_string(c, r, &p, "the shader name");
    if (!name)
        return NULL;
    RibParam *params;
    size_t n;
    rib_shader_params(c, r, pos, &params, &n);
    s->name = rib_intern(c->store, on_path_spelling(c, r, name));
    s->params = rib_store_params(c->store, params, n);
    s->nparams = n;
    s->to_world = c->attr.ctm;
    s->loc = r->loc;
    return s;
}

const RibShader *rib_shader_make(RibCtx *c, const RibRequest *r)
{
    RibShader tmp;
    memset(&tmp, 0, sizeof tmp);
    if (!new_shader(c, r, 1, &tmp))
        return NULL;
    return rib_store_keep(c->store, memcpy(rib_xmalloc(sizeof tmp), &tmp,
                                           sizeof tmp));
}

const RibShader *rib_shader_moved(RibCtx *c, const RibShader *s,
                                  const RibMatrix *m)
{
    RibShader *d = rib_store_keep(c->store, rib_xmalloc(sizeof *d));
    *d = *s;
    d->to_world = rib_matrix_mul(&s->to_world, m);
    return d;
}

static void set_shader(RibCtx *c, const RibRequest *r, const RibShader **slot)
{
    const RibShader *s = rib_shader_make(c, r);
    if (s)
        *slot = s;
    rib_attr_edit(c);
}

void rib_req_Surface(RibCtx *c, const RibRequest *r)
{
    set_shader(c, r, &c->attr.surface);
}

void rib_req_Displacement(RibCtx *c, const RibRequest *r)
{
    set_shader(c, r, &c->attr.displacement);
}

void rib_req_Atmosphere(RibCtx *c, const RibRequest *r)
{
    set_shader(c, r, &c->attr.atmosphere);
}

void rib_req_Interior(RibCtx *c, const RibRequest *r)
{
    set_shader(c, r, &c->attr.interior);
}

void rib_req_Exterior(RibCtx *c, const RibRequest *r)
{
    set_shader(c, r, &c->attr.exterior);
}

/* The current light list with l switched on or off, as a new array. */
static void switch_light(RibCtx *c, const RibLight *l, bool on)
{
    RibAttrState *a = rib_attr_edit(c);
    const RibLight **list = rib_xmalloc((a->nlights + 1) * sizeof *list);
    size_t n = 0;
    for (size_t i = 0; i < a->nlights; i++)
        if (a->lights[i] != l)
            list[n++] = a->lights[i];
    if (on)
        list[n++] = l;
    a->lights = rib_store_keep(c->store, list);
    a->nlights = n;
}

/* A light source. Old RIB (BMRT's, RISpec 3.0 files) declares lights
   before WorldBegin, in the camera's space: those are kept apart and
   placed in each world that follows (rib_lights_to_world). */
static void light_source(RibCtx *c, const RibRequest *r, bool area)
{
    if (!c->frame && c->object) {
        rib_error(c, r->loc, "%s inside an object defined outside "
                  "WorldBegin/WorldEnd", r->name);
        return;
    }
    /* RIB gives "name handle params..."; the parameters come in pairs, so
       an odd count after the name means a handle is there. */
    size_t pos = 0;
    if (!rib_arg_string(c, r, &pos, "the shader name"))
        return;
    const char *key;
    char auto_key[32];
    if (r->nargs >= 2 && (r->nargs - 1) % 2 == 1) {
        key = rib_arg_handle(c, r, &pos, "the light handle");
        if (!key)
            return;
    } else {
        snprintf(auto_key, sizeof auto_key, "#%zu",
                 c->frame ? c->frame->nlights : c->camera_lights.n);
        key = rib_intern(c->store, auto_key);
        rib_warning(c, r->loc, "%s without a handle", r->name);
    }
    RibLight *l = rib_xcalloc(1, sizeof *l);
    if (!new_shader(c, r, pos, &l->shader)) {
        free(l);
        return;
    }
    rib_store_keep(c->store, l);
    l->handle = rib_intern(c->store, rib_handle_text(key));
    l->area = area;
    RibFrame *f = c->frame;
    if (f) {
        f->lights = rib_xrealloc(f->lights, (f->nlights + 1) * sizeof *f->lights);
        f->lights[f->nlights++] = l;
    }
    rib_map_put(f ? &c->lights : &c->camera_lights, key, l);
    switch_light(c, l, true);
    if (area)
        rib_attr_edit(c)->area_light = l;
    l->attrs = rib_attrs(c);
}

void rib_req_LightSource(RibCtx *c, const RibRequest *r)
{
    light_source(c, r, false);
}

void rib_req_AreaLightSource(RibCtx *c, const RibRequest *r)
{
    light_source(c, r, true);
}

void rib_req_Illuminate(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    long on;
    const char *key = rib_arg_handle(c, r, &pos, "the light handle");
    if (!key || !rib_arg_int(c, r, &pos, 0, 1, &on, "on/off") ||
        !rib_args_end(c, r, pos))
        return;
    const RibLight *l = rib_map_get(c->frame ? &c->lights : &c->camera_lights, key);
    if (!l) {
        rib_error(c, r->args[0].loc, "Illuminate: no light \"%s\"",
                  rib_handle_text(key));
        return;
    }
    switch_light(c, l, on != 0);
}

void rib_lights_to_world(RibCtx *c)
{
    RibFrame *f = c->frame;
    for (size_t i = 0; i < c->camera_lights.cap; i++) {
        const RibLight *l = c->camera_lights.vals[i];
        if (!c->camera_lights.keys[i] || !l)
            continue;
        RibLight *w = rib_store_keep(c->store, rib_xmalloc(sizeof *w));
        *w = *l;
        w->shader = *rib_shader_moved(c, &l->shader, &c->camera_to_world);
        f->lights = rib_xrealloc(f->lights, (f->nlights + 1) * sizeof *f->lights);
        f->lights[f->nlights++] = w;
        rib_map_put(&c->lights, c->camera_lights.keys[i], w);
        /* the world's copy takes the camera's light's place if it is on */
        RibAttrState *a = &c->attr;
        for (size_t k = 0; k < a->nlights; k++)
            if (a->lights[k] == l) {
                const RibLight **list = rib_xmalloc(a->nlights * sizeof *list);
                memcpy(list, a->lights, a->nlights * sizeof *list);
                list[k] = w;
                rib_attr_edit(c)->lights = rib_store_keep(c->store, list);
            }
    }
}
