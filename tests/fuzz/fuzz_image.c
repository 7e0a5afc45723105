/*
** fuzz_image.c: libFuzzer harness for the image readers (PNG through
** libpng, JPEG through libjpeg-turbo, our own HDR reader, TIFF through
** libtiff, EXR through OpenEXR Core) as shaders reach them: through the
** texture system, which reads a file on first use and builds its MIP
** pyramid. Any bytes must give a texture that answers textureinfo and
** lookups, or a message naming the file, and never a crash, hang, leak or
** undefined behaviour.
**
** The input is written to a file named by its first byte (.png, .jpg,
** .hdr, .tif, .exr): a file whose first bytes show a format goes to that
** reader, any other to its extension's, so every reader sees every kind
** of garbage. The same bytes then go to each reader directly
** (image_decode with the format forced), past the magic checks.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "render/image/image.h"
#include "render/image/texture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const extensions[] = { "png", "jpg", "hdr", "tif", "exr" };
static const ImageFormat formats[] = { IMAGE_PNG, IMAGE_JPEG, IMAGE_HDR, IMAGE_TIFF, IMAGE_EXR };

/* Traps unless a failed lookup said why, naming the texture. */
static void check_error(const char *err, const char *path)
{
    if (!strstr(err, "texture '") || !strstr(err, path))
        __builtin_trap();
}

/* A texture, an environment and a shadow lookup over a small region, and
   textureinfo; each either works or fails with a message. */
static void lookups(TexSystem *ts, const char *path)
{
    char err[512] = "";
    float res[2], out[16];
    const char *type;
    if (texsys_info(ts, path, "resolution", 'f', 2, res, NULL, err, sizeof err) < 0) {
        check_error(err, path);
        return;
    }
    if (!(res[0] >= 1 && res[1] >= 1))
        __builtin_trap();
    texsys_info(ts, path, "type", 's', 1, NULL, &type, err, sizeof err);
    texsys_info(ts, path, "viewingmatrix", 'm', 16, out, NULL, err, sizeof err);
    static const VmTexKind kinds[] = { VM_TEXTURE, VM_ENVIRONMENT, VM_SHADOW };
    for (int k = 0; k < 3; k++) {
        VmTexLookup q = { .kind = kinds[k], .name = path, .nchannels = 3, .fill = 0.5f,
                          .samples = 4, .filter = "box" };
        for (int c = 0; c < 4; c++) {
            q.corner[c][0] = 0.3f + 0.1f * (float)(c & 1);
            q.corner[c][1] = 0.4f + 0.1f * (float)(c >> 1);
            q.corner[c][2] = 1;
        }
        err[0] = '\0';
        if (texsys_lookup(ts, &q, out, err, sizeof err) < 0)
            check_error(err, path);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_image.%d.%s", (int)getpid(),
             extensions[size ? data[0] % 5 : 0]);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t wrote = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || wrote != size) {
        unlink(path);
        return 0;
    }
    TexSystem *ts = texsys_new();
    if (ts) {
        texsys_set_memory_limit(ts, (size_t)256 << 20);
        lookups(ts, path);
        texsys_free(ts);
    }
    unlink(path);

    for (int k = 0; k < 5; k++) {
        char err[512] = "";
        Image *img = image_decode(data, size, "fuzz.img", formats[k], err, sizeof err);
        if (img) {
            if (img->width < 1 || img->height < 1 || img->channels < 1
                || img->channels > IMAGE_MAX_CHANNELS)
                __builtin_trap();
            image_free(img);
        } else if (strncmp(err, "fuzz.img: error: ", 17) != 0) {
            __builtin_trap();
        }
    }
    return 0;
}
