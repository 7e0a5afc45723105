/*
** texture.h: the texture system: a thread-safe cache of textures, each
** read on first use (any format image.h reads) into a box-filtered float
** MIP pyramid, and the lookups of RISpec 3.2 section 15.7 behind
** VmHost's texture and textureinfo callbacks:
**
** - texture: the filter region is the axis-aligned box around the four
**   (s, t) corners (s across, t down, texel centres at (i + 0.5) / res),
**   grown by "blur" on each axis. The level is the one where the box's
**   shorter side (or its longer side / 16, if longer) covers a texel;
**   two levels are blended (trilinear), and at each the box, at least a
**   texel wide, is averaged over the texels it covers: exact area
**   averages for wide boxes, bilinear interpolation for points. Wrap
**   modes come from the file (PixarWrapModes, EXR "wrapmodes"):
**   periodic, clamp or black, "black" when it says nothing (as txmake).
**   Channels from "channel" on; those the texture lacks are "fill".
** - environment: lat-long maps in RenderMan's convention: +z is the top
**   row (t = 0), and direction (x, y, z) is at s = atan2(y, x) / 2pi +
**   0.5, t = acos(z) / pi (+x at the centre, +y at s = 0.75, -y at
**   0.25, -x at the s = 0 / 1 seam); s wraps, t clamps. Directions are
**   used as given (shaders pass world-space ones). The box around the
**   corners' (s, t) is filtered as for texture. Any image without a
**   cube-face format tag is taken as a lat-long map. Cube-face maps
**   ("CubeFace Environment": 3 x 2 square faces, px py pz over nx ny nz,
**   90-degree faces, each +s/+t as in PRMan: px -z/-y, nx +z/-y, py
**   +x/+z, ny +x/-z, pz +x/-y, nz -x/-y) filter within the face the
**   centre direction meets, each face a pyramid of its own.
** - shadow: depth maps (channel 0 holds camera-space z) with the
**   world-to-camera and world-to-screen matrices of the view they were
**   rendered from (TIFF Pixar tags or EXR attributes). The points are in
**   current space, taken to world space by texsys_set_current_to_world.
**   "samples" points stratified over the box around the corners'
**   (s, t), grown by "blur", are each in shadow when the point's depth
**   less "bias" lies beyond the stored depth of their texel; the result
**   is the fraction in shadow (0 lit, 1 shadowed). Points outside the
**   map or behind its camera are lit.
**
** "swidth"/"twidth" are not applied here: the VM's runtime scales the
** region it builds from derivatives (vm/hostlanes.c region()), so the
** corners arrive already scaled. "filter" names are accepted and all
** filter with the box above; "samples" matters for shadows only.
**
** Errors name the file: "cannot open texture 'x.tif': No such file or
** directory", "cannot read texture 'x.tif': corrupt or truncated TIFF
** data ...". A texture that failed to load fails the same way on every
** later lookup without another attempt.
*/
#ifndef RT_TEXTURE_H
#define RT_TEXTURE_H

#include <stddef.h>

#include "runtime/host.h"

typedef struct TexSystem TexSystem;

/* A system with no textures loaded, an empty search path and current
   space = world space; NULL if memory runs out. */
TexSystem *texsys_new(void);
/* Frees the system and every texture it loaded. */
void texsys_free(TexSystem *ts);

/* Settings; call before lookups start (they are not locked). */
/* Directories tried in order for relative names ("dir1:dir2"); the
   name as given is tried last, and then, in each, a file whose name
   differs only in case (pathfind.h). */
void texsys_set_searchpath(TexSystem *ts, const char *dirs);
/* The matrix taking current-space points to world space, for shadow
   lookups and textureinfo's matrices (row vectors, p' = p M). */
void texsys_set_current_to_world(TexSystem *ts, const float m[16]);

/* The most memory the loaded textures' pyramids may take together
   (TEXSYS_MAX_BYTES unless set): loaded textures stay loaded, so a
   shader naming ever new textures would otherwise fill the machine. A
   texture that would pass it fails to load, saying so. */
#define TEXSYS_MAX_BYTES ((size_t)4 << 30)
void texsys_set_memory_limit(TexSystem *ts, size_t bytes);

/* A texture, environment or shadow lookup into out (q->nchannels
   floats): 0; 1, the lookup done, with a warning in err (once per
   texture: the file was found under its name in another case); or -1
   with a message in err. Thread-safe. */
int texsys_lookup(TexSystem *ts, const VmTexLookup *q, float *out, char *err, int errlen);

/* textureinfo(name, field): "resolution" (f, 2; a cube face's), "type" (s: "texture",
   "environment" or "shadow"), "textureformat" (s: the file's RenderMan
   format, "Plain Texture", "LatLong Environment", "CubeFace Environment"
   or "Shadow"), "channels" (f, 1), "viewingmatrix" and
   "projectionmatrix" (m, 16: current space to the map's camera and
   screen spaces; shadow maps only). 1 with the value, 0 for another
   field or type, -1 with a message if the texture cannot be read. */
int texsys_info(TexSystem *ts, const char *name, const char *field, char type, int n,
                float *out, const char **str, char *err, int errlen);

/* The same with VmHost's signatures, `user` being the TexSystem. */
int texsys_host_texture(void *user, const VmTexLookup *q, float *out, char *err, int errlen);
int texsys_host_textureinfo(void *user, const char *name, const char *field, char type, int n,
                            float *out, const char **str, char *err, int errlen);

#endif /* RT_TEXTURE_H */
