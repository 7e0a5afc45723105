/*
** make.c: the texture-making requests of a RIB file (scene.h's RibMake),
** done between frames. Each reads its picture(s) through the image layer
** and writes a texture file rtrender's texture system reads: float EXR
** (or TIFF when the output is named .tif/.tiff), with PRMan's texture
** format and wrap modes in its metadata:
**   MakeTexture             the picture, its "swrap,twrap";
**   MakeLatLongEnvironment  the picture, "LatLong Environment";
**   MakeCubeFaceEnvironment the six square faces in RenderMan's 3 x 2
**                           layout (px py pz over nx ny nz),
**                           "CubeFace Environment";
**   MakeShadow              a zfile's depth (the first channel) with its
**                           matrices, "Shadow".
** Pictures are found as named, else along the frame's texture
** searchpath (a shadow pass's zfile is written as named).
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "render/image/image.h"
#include "render/internal.h"

/* The picture name, else the first folder of searchpath holding it. */
static const char *find_picture(const char *name, const char *searchpath, char *buf, size_t size)
{
    if (name[0] == '/' || access(name, R_OK) == 0 || !searchpath)
        return name;
    for (const char *d = searchpath; *d;) {
        size_t k = strcspn(d, ":");
        if (k && (size_t)snprintf(buf, size, "%.*s/%s", (int)k, d, name) < size
            && access(buf, R_OK) == 0)
            return buf;
        d += k + (d[k] == ':');
    }
    return name;
}

static Image *read_picture(const RibMake *m, int i, const char *searchpath, char *err,
                           int errlen)
{
    char buf[4096], why[1024];
    const char *path = find_picture(m->inputs[i], searchpath, buf, sizeof buf);
    Image *img = image_read(path, IMAGE_FORMAT_AUTO, why, sizeof why);
    if (!img) {
        const char *w = strstr(why, ": error: ");
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: %s: cannot read \"%s\": %s", m->loc.file,
                 m->loc.line, m->loc.col, render_make_name(m->kind), m->inputs[i],
                 w ? w + 9 : why);
    }
    return img;
}

const char *render_make_name(RibMakeKind k)
{
    switch (k) {
    case RIB_MAKE_TEXTURE: return "MakeTexture";
    case RIB_MAKE_LATLONG: return "MakeLatLongEnvironment";
    case RIB_MAKE_CUBEFACE: return "MakeCubeFaceEnvironment";
    default: return "MakeShadow";
    }
}

/* The six faces as one 3 x 2 image; NULL with err unless all are square
   and of one size. */
static Image *cube_layout(const RibMake *m, Image *const face[6], char *err, int errlen)
{
    int res = face[0]->width, ch = face[0]->channels;
    for (int i = 0; i < 6; i++)
        if (face[i]->width != res || face[i]->height != res || face[i]->channels != ch) {
            snprintf(err, (size_t)errlen, "%s:%d:%d: error: MakeCubeFaceEnvironment: the faces "
                     "must be square, of one size and channel count (\"%s\" is %d x %d, %d "
                     "channels; \"%s\" %d x %d, %d)", m->loc.file, m->loc.line, m->loc.col,
                     m->inputs[i], face[i]->width, face[i]->height, face[i]->channels,
                     m->inputs[0], res, face[0]->height, ch);
            return NULL;
        }
    Image *out = image_new(3 * res, 2 * res, ch);
    if (!out)
        return NULL;
    /* inputs px nx py ny pz nz; the layout's top row px py pz */
    static const int col[6] = { 0, 0, 1, 1, 2, 2 }, row[6] = { 0, 1, 0, 1, 0, 1 };
    for (int i = 0; i < 6; i++)
        for (int y = 0; y < res; y++)
            memcpy(image_pixel(out, col[i] * res, row[i] * res + y), image_pixel(face[i], 0, y),
                   (size_t)res * (size_t)ch * sizeof(float));
    memcpy(out->channel_names, face[0]->channel_names, sizeof out->channel_names);
    return out;
}

int render_make(const RibMake *m, const char *searchpath, char *err, int errlen)
{
    Image *in[6] = { 0 }, *out = NULL;
    int rc = -1;
    for (int i = 0; i < m->ninputs; i++)
        if (!(in[i] = read_picture(m, i, searchpath, err, errlen)))
            goto done;
    if (m->kind == RIB_MAKE_CUBEFACE) {
        if (!(out = cube_layout(m, in, err, errlen)))
            goto done;
    } else {
        out = in[0], in[0] = NULL;
    }
    ImageMeta *meta = &out->meta;
    const char *format = m->kind == RIB_MAKE_LATLONG    ? "LatLong Environment"
                         : m->kind == RIB_MAKE_CUBEFACE ? "CubeFace Environment"
                         : m->kind == RIB_MAKE_SHADOW   ? "Shadow"
                                                        : "Plain Texture";
    snprintf(meta->texture_format, sizeof meta->texture_format, "%s", format);
    if (m->kind == RIB_MAKE_TEXTURE)
        snprintf(meta->wrap_modes, sizeof meta->wrap_modes, "%s", m->wrap);
    if (m->kind == RIB_MAKE_LATLONG)
        snprintf(meta->wrap_modes, sizeof meta->wrap_modes, "periodic,clamp");
    if (m->kind == RIB_MAKE_SHADOW && !(meta->has_world_to_camera && meta->has_world_to_screen)) {
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: MakeShadow: \"%s\" is no depth map (it "
                 "has no world-to-camera and world-to-screen matrices; render it with Display "
                 "\"zfile\" or \"shadow\")", m->loc.file, m->loc.line, m->loc.col, m->inputs[0]);
        goto done;
    }
    ImageWriteOptions wo = { .format = image_format_from_name(m->output) };
    if (wo.format != IMAGE_TIFF)
        wo.format = IMAGE_EXR;
    wo.storage = IMAGE_FLOAT;
    char why[1024];
    if (image_write(out, m->output, &wo, why, sizeof why) < 0) {
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: %s: %s", m->loc.file, m->loc.line,
                 m->loc.col, render_make_name(m->kind), why);
        goto done;
    }
    rc = 0;
done:
    for (int i = 0; i < 6; i++)
        image_free(in[i]);
    image_free(out);
    return rc;
}
