/*
** embree_cornell.h: Embree's pathtracer tutorial scene, the Cornell box
** of the package embree-tools, rendered by us and by Embree's own
** `pathtracer` (embree_cornell.c), for bench_pathtracer and for the
** test that the two images agree (tests/render/check_embree.c). Nothing
** of Embree's is copied: the .obj and its .ecs camera are read where the
** package installs them, and the RIB is written at run time.
*/
#ifndef RT_BENCH_EMBREE_CORNELL_H
#define RT_BENCH_EMBREE_CORNELL_H

#include <stdbool.h>

#include "render/image/image.h"

#define EMBREE_CORNELL_ECS "/usr/share/doc/embree3/models/cornell_box.ecs"
#define EMBREE_PATHTRACER "/usr/bin/pathtracer"

/* How both renderers render the scene. */
typedef struct CornellSettings {
    int res;          /* res x res pixels */
    int spp, depth;   /* samples per pixel; path length, Embree's */
    int threads;
} CornellSettings;

/* Whether embree-tools is installed; if not, why not in why. */
bool embree_cornell_available(char *why, int whylen);

/* Writes the scene of ecs (its -i OBJ with the OBJ's .mtl colours as
   matte Kd, -pointlight lights, the -vp/-vi/-vu/-fov camera) to rib as
   RIB for the path tracer. 0, or -1 with a message. */
int embree_cornell_rib(const char *ecs, const CornellSettings *cs, const char *rib, char *err,
                       int errlen);

/* Runs Embree's pathtracer on ecs. With ppm, one frame written there;
   else --benchmark over frames frames after one to warm up, and *fps
   their mean frame rate. 0, or -1 with a message. */
int embree_cornell_run(const char *ecs, const CornellSettings *cs, const char *ppm, int frames,
                       double *fps, char *err, int errlen);

/* Reads a binary PPM (P6, 8-bit) as RGB floats in [0, 1]; NULL with a
   message. */
Image *embree_cornell_read_ppm(const char *path, char *err, int errlen);

/* The mean difference a - b of each of R, G and B over all pixels, with
   a's values first quantised as Embree writes its PPM (clamped to [0, 1],
   255.01 v truncated), and its standard error from the spread of the
   pixels' differences: each pixel's samples are its own in both
   renderers, so the differences are independent. b_mean gets b's
   mean. */
void embree_cornell_diff(const Image *a, const Image *b, double mean[3], double se[3],
                         double b_mean[3]);

#endif /* RT_BENCH_EMBREE_CORNELL_H */
