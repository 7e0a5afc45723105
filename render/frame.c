/*
** frame.c: a frame set up for an integrator (frame.h), in stages: the
** camera and the film's size; the loading stage, which makes an instance
** of every shader request of the frame (the only stage that builds
** shader code, so the world is built from instances alone); the world;
** the film. Afterwards the film becomes the image and the imager runs.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/frame.h"
#include "render/shaderpath.h"

/* The loading stage's state: where shaders come from, and the requests
   already found missing (each is said once, however many meshes share
   it). */
typedef struct Loading {
    ShadeSys *sys;
    const RibFrame *f;
    bool strict;
    const RibShader **missing;
    size_t nmissing;
} Loading;

/* Loads request s of the given kind. A shader that is nowhere on the
   searchpath is, unless --strict, a warning and not loaded: the world
   then finds no instance of it, which means RenderMan's default surface
   for a surface and nothing for the other kinds (PRMan and Aqsis go on
   likewise). 0, or -1 with err. */
static int load_one(Loading *ld, const RibShader *s, VmShaderKind kind, char *err, int errlen)
{
    const char *path = ld->f->options.shader_path;
    if (!ld->strict && !render_shader_on_path(s->name, path)) {
        for (size_t i = 0; i < ld->nmissing; i++)
            if (ld->missing[i] == s)
                return 0;
        fprintf(stderr, "%s:%d:%d: warning: shader \"%s\" not found (no %s.o or %s.sl on the "
                "shader searchpath); %s\n", s->loc.file, s->loc.line, s->loc.col, s->name, s->name,
                s->name, kind == VM_SURFACE ? "the default surface is used"
                         : kind == VM_LIGHT ? "the light is left out" : "none is used");
        const RibShader **more = realloc(ld->missing, (ld->nmissing + 1) * sizeof *more);
        if (more)
            more[ld->nmissing++] = s, ld->missing = more;
        return 0;
    }
    return ld->sys->load(ld->sys, s, kind, path, &ld->f->world_to_camera, err, errlen) ? 0 : -1;
}

/* The shaders of attributes a: surface, displacement and atmosphere. */
static int load_look(Loading *ld, const RibAttributes *a, char *err, int errlen)
{
    const RibShader *req[3] = { a->surface, a->displacement, a->atmosphere };
    static const VmShaderKind kind[3] = { VM_SURFACE, VM_DISPLACEMENT, VM_VOLUME };
    for (int i = 0; i < 3; i++)
        if (req[i] && load_one(ld, req[i], kind[i], err, errlen) < 0)
            return -1;
    return 0;
}

/* The loading stage: every shader f names, in the order the world uses
   them (lights, meshes, instances), so that the first error is the one
   building would meet; then the imager. */
static int load_shaders(ShadeSys *sys, const RibFrame *f, bool strict, char *err, int errlen)
{
    Loading ld = { sys, f, strict, NULL, 0 };
    int rc = 0;
    sys->frame = f;
    for (size_t i = 0; i < f->nlights && rc == 0; i++)
        rc = load_one(&ld, &f->lights[i]->shader, VM_LIGHT, err, errlen);
    for (size_t i = 0; i < f->nmeshes && rc == 0; i++)
        rc = load_look(&ld, f->meshes[i].attrs, err, errlen);
    for (size_t i = 0; i < f->ninstances && rc == 0; i++)
        rc = load_look(&ld, f->instances[i].attrs, err, errlen);
    if (rc == 0 && f->options.imager)
        rc = load_one(&ld, f->options.imager, VM_IMAGER, err, errlen);
    free(ld.missing);
    sys->frame = NULL;
    return rc;
}

/* The error for a film of more than FILM_MAX_PIXELS pixels, located at
   the Format request that asked for it when the command line did not. */
static void film_too_big(const RFrame *fr, char *err, int errlen)
{
    const RibOptions *o = &fr->rib->options;
    char where[512] = "rtrender";
    const char *req = "", *hint = "--res";
    if (fr->rs->xres <= 0 && o->format_loc.file) {
        snprintf(where, sizeof where, "%s:%d:%d", o->format_loc.file, o->format_loc.line,
                 o->format_loc.col);
        req = "Format: ", hint = "Format or --res";
    }
    snprintf(err, (size_t)errlen, "%s: error: %s%dx%d pixels are too many for the film (at "
             "most %d; lower %s)", where, req, fr->cam.x1 - fr->cam.x0, fr->cam.y1 - fr->cam.y0,
             FILM_MAX_PIXELS, hint);
}

int frame_setup(RFrame *fr, const RibScene *scene, const RibFrame *f, const RenderSettings *rs,
                ShadeSys *shading, char *err, int errlen)
{
    const RibOptions *o = &f->options;
    memset(fr, 0, sizeof *fr);
    fr->rib = f, fr->rs = rs, fr->shading = shading;
    camera_setup(&fr->cam, o, rs);
    fr->spp = rs->spp > 0 ? rs->spp
                          : (int)(fmaxf(1, o->pixel_samples[0]) * fmaxf(1, o->pixel_samples[1]));
    const Camera *cam = &fr->cam;
    if (cam->x1 <= cam->x0 || cam->y1 <= cam->y0) {
        const float *c = rs->crop_set ? rs->crop : o->crop;
        snprintf(err, (size_t)errlen, "rtrender: error: the crop window [%g %g %g %g] covers no "
                 "pixel of %dx%d", c[0], c[1], c[2], c[3], cam->xres, cam->yres);
        return -1;
    }
    if ((long long)(cam->x1 - cam->x0) * (cam->y1 - cam->y0) > FILM_MAX_PIXELS) {
        film_too_big(fr, err, errlen);
        return -1;
    }
    if (load_shaders(shading, f, rs->strict, err, errlen) < 0
        || world_build(&fr->world, scene, f, shading, err, errlen) < 0)
        return -1;
    fr->world.maps_black = rs->missing_maps_black && !rs->strict;
    fr->world.xres = fr->cam.xres, fr->world.yres = fr->cam.yres;
    if (!(fr->film = film_new(cam))) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for the film of %dx%d "
                 "pixels", cam->x1 - cam->x0, cam->y1 - cam->y0);
        return -1;
    }
    return 0;
}

Image *frame_image(RFrame *fr, char *err, int errlen)
{
    const RibShader *imager = fr->rib->options.imager;
    Image *img = film_resolve(fr->film);
    if (!img) {
        snprintf(err, (size_t)errlen, "rtrender: error: out of memory for the image");
        return NULL;
    }
    /* None when the imager was not found (load_one). */
    const RShader *sh = imager ? fr->shading->find(fr->shading, imager, &fr->rib->world_to_camera)
                               : NULL;
    if (sh && imager_apply(fr, sh, img, err, errlen) < 0) {
        image_free(img);
        return NULL;
    }
    return img;
}

void frame_free(RFrame *fr)
{
    film_free(fr->film);
    world_free(&fr->world);
    memset(fr, 0, sizeof *fr);
}
