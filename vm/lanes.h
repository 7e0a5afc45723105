/*
** lanes.h: the lane functions builtins.c binds besides pure math and
** lighting (lights.h): strings (strlanes.c) and the builtins that ask the
** host (hostlanes.c). Each is called once per active lane (vm.h).
*/
#ifndef RSL_LANES_H
#define RSL_LANES_H

#include "runtime/host.h"
#include "runtime/strings.h"
#include "vm/vm.h"

/* concat(s...)s, format(s...)s, printf(s...)x and match(ss)f; string
   results are interned in the binding's table. */
void vm_lane_concat(float *out, const VmCall *call);
void vm_lane_format(float *out, const VmCall *call);
void vm_lane_printf(float *out, const VmCall *call);
void vm_lane_match(float *out, const VmCall *call);

/* hostlanes.c: transform/vtransform/ntransform with named spaces, depth,
   texture/environment/shadow, textureinfo, the ray queries (trace,
   transmission, visibility, occlusion, indirectdiffuse), attribute-like
   queries and message passing, raylevel and friends, shadername,
   caustic. */
void vm_lane_transform(float *out, const VmCall *call);
/* The matrix such a call applies to its last argument (the point, vector
   or normal), from its other arguments (native code asks it once for a
   group of lanes that share them); false after a fault. */
bool vm_lane_transform_matrix(const VmCall *call, float m[16]);
void vm_lane_depth(float *out, const VmCall *call);
void vm_lane_texture(float *out, const VmCall *call);
void vm_lane_textureinfo(float *out, const VmCall *call);
void vm_lane_ray(float *out, const VmCall *call);
/* The host's query for a ray builtin's call at its lane (vm_lane_ray asks
   the host's ray of it, native code its rays for a group); false after
   a fault (no host to trace). */
bool vm_lane_ray_query(const VmCall *call, VmRay *q);
/* __gather(sample, P, dir, angle, samples, category, name/value pairs):
   sample `sample` of a gather loop: out[0] 1 on a hit, then the output
   names' values in pair order. */
void vm_lane_gather(float *out, const VmCall *call);
void vm_lane_query(float *out, const VmCall *call);
void vm_lane_rayinfo(float *out, const VmCall *call);
void vm_lane_shadername(float *out, const VmCall *call);
void vm_lane_caustic(float *out, const VmCall *call);

/* The string a string argument holds, and what it names as an option
   value (resolved when it entered the table, strings.h). */
const char *vm_lane_string(const VmCall *call, int arg);
const VmStringOptions *vm_lane_options(const VmCall *call, int arg);

/* Interns s as a string result in out[0], or faults saying why the
   table would not take it (too long, the table full, out of memory). */
void vm_lane_put_string(float *out, const VmCall *call, const char *s);

#endif /* RSL_LANES_H */
