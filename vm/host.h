/*
** host.h: what the VM asks of the renderer (or of a test harness): the
** lights at a shading point, for illuminance and the lighting builtins
** (ambient, diffuse, specular, phong). Texture, ray tracing and message
** passing will join it.
**
** Light i seen from point P: L is the vector from P towards the light
** (for a distant light, its direction reversed, any length), Cl and Ol
** its color and opacity there. An ambient light has no direction: it
** adds to ambient() only and takes no part in illuminance.
*/
#ifndef RSL_HOST_H
#define RSL_HOST_H

#include <stdbool.h>

typedef struct VmLightSample {
    float L[3], Cl[3], Ol[3];
    bool ambient;
} VmLightSample;

typedef struct VmHost {
    int nlights;
    /* Fills *out for light i at P; false if the light does not reach P
       (then it is skipped). */
    bool (*light)(void *user, int i, const float P[3], VmLightSample *out);
    void *user;
} VmHost;

/* The test light set of rslvm and the compile-run-verify suite: light 0
   is ambient, color (0.1, 0.1, 0.1); light 1 is distant, color (1, 1, 1),
   shining along (0, 0, 1) (from the camera, so L = (0, 0, -1)); light 2
   is a point light of intensity (0.5, 0.25, 0) at (0, 2, 0) falling off
   with the squared distance. */
const VmHost *vm_test_lights(void);

#endif /* RSL_HOST_H */
