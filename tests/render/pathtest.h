/*
** pathtest.h: what the path tracer's image tests share: rendering a RIB
** text's one frame, the mean of a window of pixels with its standard
** error (the tests' tolerance is a multiple of it), and lat-long maps
** written to /tmp for environment lights and environment() lookups.
*/
#ifndef RT_TESTS_RENDER_PATHTEST_H
#define RT_TESTS_RENDER_PATHTEST_H

#include "render/image/image.h"
#include "render/render.h"

/* Renders a RIB text's one frame, its counters in *st (st may be NULL):
   NULL with err after an error. Shaders are found in shaders/ and
   tests/render/shaders/. */
Image *render_with(const char *rib, const RenderSettings *rs, RenderStats *st, char *err,
                   int errlen);
/* The same, quiet, with these settings; an error fails the test. */
Image *render(const char *rib, RenderIntegrator integrator, int spp, int threads);

/* Mean and standard error of channel c over the pixels [x0, x1) x [y0, y1). */
void window_mean(const Image *img, int c, int x0, int y0, int x1, int y1, double *mean,
                 double *stderr_);
/* Asserts that each channel's mean over the pixels [x0, x1) x [y0, y1)
   of img is want[c], within 5 standard errors and the fraction slack of
   it (for what the noise does not cover); what names the case. */
void assert_mean(const Image *img, int x0, int y0, int x1, int y1, const double want[3],
                 double slack, const char *what);

/* Writes map (freed) as a lat-long map to a new EXR file in /tmp, named
   in path (64 chars). */
void save_map(Image *map, char path[64]);
/* A w x h grey map whose row j is rows[j]. */
Image *grey_map(int w, int h, const float *rows);

#endif /* RT_TESTS_RENDER_PATHTEST_H */
