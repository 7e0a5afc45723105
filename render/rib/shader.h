/*
** shader.h: making shader records from shader requests (shaders.c).
*/
#ifndef RTCORE_RIB_SHADER_H
#define RTCORE_RIB_SHADER_H

#include "render/rib/request.h"

/* A shader from a request "Name "shadername" params...": name at args[0],
   parameters after it, transform = the current one. NULL after an
   error. */
const RibShader *rib_shader_make(RibCtx *c, const RibRequest *r);
/* A copy of s whose transform is followed by m. */
const RibShader *rib_shader_moved(RibCtx *c, const RibShader *s,
                                  const RibMatrix *m);
/* At WorldBegin: the lights declared before it (camera space) placed
   in the new frame, in world space, and switched on as they were. */
void rib_lights_to_world(RibCtx *c);

#endif /* RTCORE_RIB_SHADER_H */
