/*
** render.c: rendering a RIB file's frames (render.h). A Render keeps
** what lasts from frame to frame, the shading system with its shader
** library; each frame is set up (frame.c), rendered by the classic
** integrator (classic.c) and made an image.
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
};

RibScene *render_load(const char *path, RibDiag *diag)
{
    char *copy = strdup(path);
    const char *dir = dirname(copy);
    char shader_path[8192];
    render_default_shader_path(shader_path, sizeof shader_path, dir);
    RibLoadOptions lo;
    rib_load_options_init(&lo);
    lo.default_shader_path = shader_path;
    lo.default_texture_path = dir;
    lo.default_archive_path = dir;
    RibScene *scene = rib_load_ex(path, &lo, diag);
    free(copy);
    return scene;
}

void render_settings_init(RenderSettings *rs)
{
    memset(rs, 0, sizeof *rs);
    rs->debug_x = rs->debug_y = -1;
    rs->max_shader_steps = VM_DEFAULT_MAX_STEPS;
}

Render *render_new(const RibScene *scene, const RenderSettings *rs)
{
    Render *r = calloc(1, sizeof *r);
    r->scene = scene;
    r->rs = rs;
    /* Debugging a pixel wants every variable printable: -O0 code with
       debug information, for the whole render. */
    r->shading = shadesys_vm_new(rs->debug_x >= 0);
    r->shading->max_steps = rs->max_shader_steps;
    r->deadline = rs->time_limit > 0 ? render_clock() + rs->time_limit : 0;
    return r;
}

void render_free(Render *r)
{
    if (!r)
        return;
    r->shading->free(r->shading);
    free(r);
}

Image *render_frame_image(Render *r, const RibFrame *f, RenderStats *stats, char *err,
                          int errlen)
{
    RFrame fr;
    RenderStats st = { 0 };
    unsigned built = r->shading->built;
    Image *img = NULL;
    if (frame_setup(&fr, r->scene, f, r->rs, r->shading, err, errlen) == 0
        && classic_render(&fr, r->deadline, &st, err, errlen) == 0)
        img = frame_image(&fr, err, errlen);
    frame_free(&fr);
    st.shaders_built = r->shading->built - built;
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
