/*
** render.c: rendering a RIB file's frames (render.h). A Render keeps
** what lasts from frame to frame, the shading system with its shader
** library; each frame is set up (frame.c), rendered by the classic
** integrator (classic.c) or the path tracer (path.c) and made an image.
**
** The RIB picks the integrator with
**   Option "integrator" "string name" ["path"] "int maxdepth" [8]
** (name "classic" or "path"; maxdepth the path length, 1 to
** RENDER_MAX_DEPTH); rtrender's --integrator and --max-depth override it.
*/
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/frame.h"
#include "render/shaderpath.h"
#include "vm/session.h"

struct Render {
    const RibScene *scene;
    const RenderSettings *rs;
    ShadeSys *shading;
    double deadline;      /* rs->time_limit from render_new, 0 for none */
    char *include_path;   /* shading->include_path */
    size_t made;          /* the scene's makes done so far */
};

/* The scene's texture-making requests that come before frames[upto]
   (all of them for upto = nframes), not done yet. */
static int do_makes(Render *r, size_t upto, char *err, int errlen)
{
    const RibScene *s = r->scene;
    for (; r->made < s->nmakes && s->makes[r->made].before_frame <= upto; r->made++) {
        const RibMake *m = &s->makes[r->made];
        size_t fi = m->before_frame < s->nframes ? m->before_frame : s->nframes - 1;
        const char *path = s->nframes ? s->frames[fi].options.texture_path : NULL;
        if (render_make(m, path, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int render_finish(Render *r, char *err, int errlen)
{
    return do_makes(r, r->scene->nframes, err, errlen);
}

RibScene *render_load_ex(const char *path, const RenderSettings *rs, RibDiag *diag)
{
    char *copy = strdup(path);
    const char *dir = dirname(copy);
    char shader_path[8192], texture_path[8192], archive_path[8192];
    render_default_shader_path(shader_path, sizeof shader_path, dir,
                               rs ? rs->shader_path : NULL);
    render_default_texture_path(texture_path, sizeof texture_path, dir,
                                rs ? rs->texture_path : NULL);
    render_default_archive_path(archive_path, sizeof archive_path, dir,
                                rs ? rs->include_path : NULL);
    RibLoadOptions lo;
    rib_load_options_init(&lo);
    lo.default_shader_path = shader_path;
    lo.default_texture_path = texture_path;
    lo.default_archive_path = archive_path;
    lo.strict = rs && rs->strict;
    RibScene *scene = rib_load_ex(path, &lo, diag);
    free(copy);
    return scene;
}

RibScene *render_load(const char *path, RibDiag *diag)
{
    return render_load_ex(path, NULL, diag);
}

const char *render_stage_name(RenderStage s)
{
    static const char *const names[RENDER_STAGES] = { "generate", "intersect", "sort",
                                                      "shade",    "shadow",    "compact" };
    return names[s];
}

void render_settings_init(RenderSettings *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->debug_x = rs->debug_y = -1;
    rs->max_shader_steps = VM_DEFAULT_MAX_STEPS;
    const char *backend = getenv("RTRENDER_BACKEND");
    rs->vm = backend && !strcmp(backend, "vm");
    const char *cache = getenv("RTRENDER_CODE_CACHE");
    rs->code_cache = cache && cache[0] ? cache : NULL;
}

Render *render_new(const RibScene *scene, const RenderSettings *rs)
{
    Render *r = calloc(1, sizeof *r);
    r->scene = scene;
    r->rs = rs;
    /* Debugging a pixel wants every variable printable: -O0 code with
       debug information, for the whole render. */
    r->shading = rs->vm || rs->debug_x >= 0 ? shadesys_vm_new(rs->debug_x >= 0)
                                            : shadesys_native_new(NATIVE_ISA_AUTO, rs->verbose, rs->threads);
    r->shading->max_steps = rs->max_shader_steps;
    r->shading->code_cache = rs->code_cache;
    /* A .sl compiled during the render #includes from its own folder
       (cpp's rule), then the scene's, then -I's. */
    char *copy = strdup(scene->path ? scene->path : ".");
    size_t n = strlen(copy) + (rs->include_path ? strlen(rs->include_path) : 0) + 2;
    char *inc = malloc(n);
    snprintf(inc, n, "%s%s%s", dirname(copy), rs->include_path ? ":" : "",
             rs->include_path ? rs->include_path : "");
    r->shading->include_path = r->include_path = inc;
    free(copy);
    r->deadline = rs->time_limit > 0 ? render_clock() + rs->time_limit : 0;
    return r;
}

void render_free(Render *r)
{
    if (!r)
        return;
    r->shading->free(r->shading);
    free(r->include_path);
    free(r);
}

/* The integrator frame f asks for, and the path length: 0, or -1 with a
   message. */
static int integrator(const RibFrame *f, const RenderSettings *rs, RenderIntegrator *which,
                      int *depth, char *err, int errlen)
{
    const RibOptions *o = &f->options;
    const RibParam *name = rib_param_find(o->options, o->noptions, "integrator:name");
    const RibParam *d = rib_param_find(o->options, o->noptions, "integrator:maxdepth");
    *which = rs->integrator, *depth = rs->max_depth;
    if (*which == RENDER_INTEGRATOR_RIB && name && name->s && !strcmp(name->s[0], "path"))
        *which = RENDER_INTEGRATOR_PATH;
    else if (*which == RENDER_INTEGRATOR_RIB && name && name->s && strcmp(name->s[0], "classic")) {
        snprintf(err, (size_t)errlen, "rtrender: error: Option \"integrator\" \"name\" is "
                 "\"classic\" or \"path\", not \"%s\"", name->s[0]);
        return -1;
    }
    if (!*depth && d && d->f && !(d->f[0] >= 1 && d->f[0] <= RENDER_MAX_DEPTH)) {
        snprintf(err, (size_t)errlen, "rtrender: error: Option \"integrator\" \"maxdepth\" "
                 "needs a path length from 1 to %d, not %g", RENDER_MAX_DEPTH, d->f[0]);
        return -1;
    }
    if (!*depth)
        *depth = d && d->f ? (int)d->f[0] : RENDER_DEFAULT_DEPTH;
    return 0;
}

Image *render_frame_image(Render *r, const RibFrame *f, RenderStats *stats, char *err,
                          int errlen)
{
    RenderIntegrator which;
    int depth;
    if (integrator(f, r->rs, &which, &depth, err, errlen) < 0)
        return NULL;
    RFrame fr;
    RenderStats st = { 0 };
    unsigned built = r->shading->built, specialised = r->shading->specialised;
    unsigned compiled = r->shading->native_built, loaded = r->shading->native_loaded;
    Image *img = NULL;
    if (do_makes(r, (size_t)(f - r->scene->frames), err, errlen) < 0)
        return NULL;
    if (frame_setup(&fr, r->scene, f, r->rs, r->shading, err, errlen) == 0
        && (which == RENDER_INTEGRATOR_PATH
                ? path_render(&fr, depth, r->deadline, &st, err, errlen)
                : classic_render(&fr, r->deadline, &st, err, errlen))
               == 0)
        img = frame_image(&fr, err, errlen);
    frame_free(&fr);
    st.shaders_built = r->shading->built - built;
    st.shaders_specialised = r->shading->specialised - specialised;
    st.native_compiled = r->shading->native_built - compiled;
    st.native_loaded = r->shading->native_loaded - loaded;
    if (stats)
        *stats = st;
    return img;
}

int render_frame(Render *r, const RibFrame *f, RenderStats *stats, char *err, int errlen)
{
    Image *img = render_frame_image(r, f, stats, err, errlen);
    int rc = img ? output_displays(img, f, r->rs, err, errlen) : -1;
    image_free(img);
    return rc;
}
