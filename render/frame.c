/*
** frame.c: a frame set up for an integrator (frame.h), in stages: the
** camera and the film's size; the loading stage, which makes an instance
** of every shader request of the frame (the only stage that builds
** shader code, so the world is built from instances alone); the world;
** the film. Afterwards the film becomes the image and the imager runs.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/frame.h"

/* The shaders of attributes a: surface, displacement and atmosphere. */
static int load_look(ShadeSys *sys, const RibAttributes *a, const RibFrame *f, char *err,
                     int errlen)
{
    const RibShader *req[3] = { a->surface, a->displacement, a->atmosphere };
    static const VmShaderKind kind[3] = { VM_SURFACE, VM_DISPLACEMENT, VM_VOLUME };
    for (int i = 0; i < 3; i++)
        if (req[i] && !sys->load(sys, req[i], kind[i], f->options.shader_path,
                                 &f->world_to_camera, err, errlen))
            return -1;
    return 0;
}

/* The loading stage: every shader f names, in the order the world uses
   them (lights, meshes, instances), so that the first error is the one
   building would meet; then the imager. */
static int load_shaders(ShadeSys *sys, const RibFrame *f, char *err, int errlen)
{
    const RibOptions *o = &f->options;
    for (size_t i = 0; i < f->nlights; i++)
        if (!sys->load(sys, &f->lights[i]->shader, VM_LIGHT, o->shader_path, &f->world_to_camera,
                       err, errlen))
            return -1;
    for (size_t i = 0; i < f->nmeshes; i++)
        if (load_look(sys, f->meshes[i].attrs, f, err, errlen) < 0)
            return -1;
    for (size_t i = 0; i < f->ninstances; i++)
        if (load_look(sys, f->instances[i].attrs, f, err, errlen) < 0)
            return -1;
    if (o->imager && !sys->load(sys, o->imager, VM_IMAGER, o->shader_path, &f->world_to_camera,
                                err, errlen))
        return -1;
    return 0;
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
    if (load_shaders(shading, f, err, errlen) < 0
        || world_build(&fr->world, scene, f, shading, err, errlen) < 0)
        return -1;
    fr->world.strict = rs->strict;
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
    if (imager
        && imager_apply(fr, fr->shading->find(fr->shading, imager, &fr->rib->world_to_camera),
                        img, err, errlen) < 0) {
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
