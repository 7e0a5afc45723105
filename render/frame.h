/*
** frame.h: what every integrator renders from, set up once per frame
** (frame.c): the camera, the film its samples land in, the traced world,
** and the shading system with every shader the frame uses loaded. An
** integrator fills the film; frame.c turns it into the image.
*/
#ifndef RT_RENDER_FRAME_H
#define RT_RENDER_FRAME_H

#include "render/camera.h"
#include "render/film.h"
#include "render/internal.h"
#include "render/tiles.h"

typedef struct RFrame {
    const RibFrame *rib;
    const RenderSettings *rs;
    Camera cam;
    int spp;                   /* samples per pixel */
    Film *film;
    RWorld world;
    ShadeSys *shading;         /* the render's: it outlives the frame */
} RFrame;

/* Sets frame f of scene up: its shaders loaded into shading (the
   loading stage: the only place that may build code), then its world
   built and its film made. -1 with a message; fr is freed either way
   by frame_free. */
int frame_setup(RFrame *fr, const RibScene *scene, const RibFrame *f, const RenderSettings *rs,
                ShadeSys *shading, char *err, int errlen);
/* The film filtered into the image, the frame's imager run over it.
   NULL with a message. */
struct Image *frame_image(RFrame *fr, char *err, int errlen);
void frame_free(RFrame *fr);

/* Runs imager shader sh over img (R G B A ...), whose pixel (0, 0) is
   raster pixel (x0, y0) (imager.c). */
int imager_apply(const RFrame *fr, const RShader *sh, struct Image *img, char *err, int errlen);

/* ---- integrators ------------------------------------------------------------ */

/* The classic integrator (classic.c): camera rays, hits shaded in
   batches, compositing through transparent surfaces, trace() for
   secondary rays. Fills fr->film; stats gets its counters. 0, or -1 with
   a message; also when render_clock() passes deadline (0: none), which
   stops running shaders too. */
int classic_render(const RFrame *fr, double deadline, RenderStats *stats, char *err,
                   int errlen);

/* The wavefront path tracer (path.c): paths of at most maxdepth
   segments (1: camera rays and direct light), light samples and the
   shaders' cosine lobes combined by multiple importance sampling. Fills
   fr->film; 0, or -1 with a message. */
int path_render(const RFrame *fr, int maxdepth, double deadline, RenderStats *stats, char *err,
                int errlen);

#endif /* RT_RENDER_FRAME_H */
