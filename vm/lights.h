/*
** lights.h: lane functions of the lighting builtins (lights.c), bound by
** builtins.c. Each reads the lights from its binding's host.
*/
#ifndef RSL_LIGHTS_H
#define RSL_LIGHTS_H

#include "vm/vm.h"

/* ambient, diffuse, specular, phong (by self->id); P, their implicit
   argument, comes last. */
void vm_light_builtin(float *out, const VmCall *call);
/* __nlights(): the number of lights. */
void vm_light_count(float *out, const VmCall *call);
/* __light(i, P [, axis, angle] [, category]): light i at P for
   illuminance (lights.c), if it is in the category. */
void vm_light_sample(float *out, const VmCall *call);

/* Does a light whose __category is cats (a comma-separated list of
   names) take part in illuminance(expr, ...)? PRMan's rules: "" or "*"
   every light; "name" the lights in category name; "-name" those not in
   it. Beyond a single name, terms joined by '&' must all hold and
   alternatives joined by '|' or ',' any one. Spaces around names do not
   count. */
bool vm_light_in_category(const char *cats, const char *expr);

/* __illuminate(position [, axis, angle], Ps) and __solar([axis, angle,]
   Ps): the light shader's side of a region (lights.c). */
void vm_light_illuminate(float *out, const VmCall *call);
void vm_light_solar(float *out, const VmCall *call);

/* specularbrdf(L, N, V, roughness). */
void vm_light_specularbrdf(float *out, const VmCall *call);

#endif /* RSL_LIGHTS_H */
