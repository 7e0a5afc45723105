/*
** lighting.h: the lighting builtins' semantics (RISpec 3.2 section 15.6)
** over a group of W lanes: ambient, diffuse, specular, phong and
** illuminance's per-light sample, defined once (lighting.c). The VM runs
** them with W = 1 for one lane (vm/lights.c); native code inlines them
** from the runtime's bitcode with its W, so that the host is asked once
** per call site and group rather than once per lane, and the maths runs
** over rows of W floats.
**
** Rows: a value of n floats over a group is n rows of W floats, row k
** holding component k of every lane (x[k * W + lane]). mask has bit j set
** for lane j of the group that takes part; the others are left alone
** and may hold anything (NaN, infinity).
*/
#ifndef RSL_LIGHTING_H
#define RSL_LIGHTING_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/host.h"

/* The widest group: AVX-512's 16 lanes. */
#define RSL_LIGHT_MAX_W 16

typedef enum RslShade {
    RSL_SHADE_AMBIENT, RSL_SHADE_DIFFUSE, RSL_SHADE_SPECULAR, RSL_SHADE_PHONG,
    RSL_SHADE_ILLUMINANCE             /* a light sample's lobe: cosine, no N */
} RslShade;

/* Light i's samples for one group, kept so that the lighting calls of a
   shader at the same points ask the host once per light (ambient(),
   diffuse() and specular() of plastic). */
typedef struct RslLightRows {
    int base;                         /* the group's first lane; -1: empty */
    uint32_t asked, reach, ambient;   /* lane bits */
    float P[3 * RSL_LIGHT_MAX_W];     /* where they were asked */
    float s[9 * RSL_LIGHT_MAX_W];     /* rows of L, Cl, Ol */
} RslLightRows;

/* What the lighting calls of one run of a shader see: the host, and
   per light the rows last asked (NULL: none kept, every call asks the
   host). A run keeps them only while the host's lights stay as they are
   (a renderer runs the light shaders over the batch first). */
typedef struct RslLights {
    const VmHost *host;
    RslLightRows *kept;               /* host->nlights of them, or NULL */
} RslLights;

/* ---- lighting.c: the maths ------------------------------------------------- */

/* ambient, diffuse, specular, phong (kind) for the lanes of mask of the
   group at batch lane base: args are rows of the call's arguments, P (the
   implicit one) last: ambient P; diffuse N, P; specular N, V, roughness,
   P; phong N, V, size, P. out: 3 rows of the color. */
void rsl_shade_lights(RslLights *ls, int kind, int base, int W, uint32_t mask, const float *args,
                      float *out);

/* illuminance's light i for the lanes of mask: args are rows of P, and
   when cone, axis and angle. out: 10 rows, L, Cl, Ol and 1 where the
   light takes part (reaches the point, is not ambient, lies within the
   cone), else 0 and zeros. */
void rsl_light_sample(RslLights *ls, int i, int cone, int base, int W, uint32_t mask,
                      const float *args, float *out);

/* illuminate(from [, axis, angle]) in a light shader at Ps for the lanes
   of mask: args are rows of from, with cone axis and angle, then Ps.
   out: 10 rows as rsl_light_sample's: L = Ps - from, Cl and Ol zero (the
   shader sets them), and 1 where the lane is in mask and within the cone
   (when there is one), else 0. */
void rsl_illuminate(int cone, int W, uint32_t mask, const float *args, float *out);

/* solar([axis, angle]) in a light shader for the lanes of mask: args are
   rows of axis and angle when given, then Ps. out: 10 rows as
   rsl_light_sample's: L = axis (light arriving along it), or zero without
   one (from every direction), Cl and Ol zero, and 1 where the lane is in
   mask, else 0. */
void rsl_solar(int axis_given, int W, uint32_t mask, const float *args, float *out);

/* ---- lightrows.c: the host's side, out of line ------------------------------ */

/* Sets up ls for host, keeping samples when keep and the host has no
   lobe callback (whose host may change its lights at every call); false
   if out of memory. */
bool rsl_lights_open(RslLights *ls, const VmHost *host, bool keep);
void rsl_lights_close(RslLights *ls);

/* Light i's samples at the lanes of mask of the group at base, P as
   rows: those ls keeps when they are for these points, else the host's,
   kept in ls or, when ls keeps none, in *scratch. */
const RslLightRows *rsl_light_group(RslLights *ls, int i, int base, int W, uint32_t mask,
                                    const float *P, RslLightRows *scratch);
/* Tells h->lobe (not NULL) of each lane's lobe for a call of kind with
   args as rsl_shade_lights takes them (none for RSL_SHADE_ILLUMINANCE). */
void rsl_light_lobes(const VmHost *h, int kind, int base, int W, uint32_t mask, const float *args);

/* The weight of a light from direction L (any length) in a call of kind
   at a point (N, V, and x the roughness or size, as the call has them):
   1 for ambient; *on is cleared when L lies outside N's hemisphere. */
float rsl_light_weight(int kind, const float L[3], const float N[3], const float V[3], float x,
                       bool *on);
/* Is direction l within angle of axis? (Neither need be unit.) */
bool rsl_in_cone(const float l[3], const float axis[3], float angle);
/* specularbrdf(L, N, V, roughness): specular's lobe for direction L. */
float rsl_specularbrdf(const float L[3], const float N[3], const float V[3], float roughness);

/* specular()'s exponent for a roughness: 8/roughness (lighting.c says
   why it is not RISpec's 1/roughness). */
float rsl_specular_exponent(float roughness);

#endif /* RSL_LIGHTING_H */
