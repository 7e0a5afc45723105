/*
** image_stb.c: PNG, JPEG and Radiance HDR through stb_image (Debian's
** libstb holds the implementations), PNG output through
** stb_image_write. stb_image keeps its failure reason in a global, so
** decoding is serialized by a mutex.
*/
#include "config.h"
#include "render/image/image_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>
#include <stb_image_write.h>

static pthread_mutex_t stb_lock = PTHREAD_MUTEX_INITIALIZER;

static Image *decode_locked(const uint8_t *data, int size, const char *name, char *err,
                            int errlen)
{
    int w, h, comp;
    if (!stbi_info_from_memory(data, size, &w, &h, &comp)) {
        const char *why = stbi_failure_reason();
        image_error(err, errlen, name, "not a readable PNG, JPEG or HDR image (%s)",
                    why ? why : "unknown reason");
        return NULL;
    }
    if (!image_size_ok(w, h, comp)) {
        image_error(err, errlen, name, "image too large (%d x %d x %d)", w, h, comp);
        return NULL;
    }
    Image *img = image_new(w, h, comp);
    if (!img) {
        image_error(err, errlen, name, "out of memory for %d x %d pixels", w, h);
        return NULL;
    }
    size_t n = (size_t)w * (size_t)h * (size_t)comp;
    int lw = 0, lh = 0, lc;
    void *p;
    if (stbi_is_hdr_from_memory(data, size)) {
        p = stbi_loadf_from_memory(data, size, &lw, &lh, &lc, comp);
        img->meta.storage = IMAGE_FLOAT;
    } else if (stbi_is_16_bit_from_memory(data, size)) {
        p = stbi_load_16_from_memory(data, size, &lw, &lh, &lc, comp);
        img->meta.storage = IMAGE_U16;
    } else {
        p = stbi_load_from_memory(data, size, &lw, &lh, &lc, comp);
        img->meta.storage = IMAGE_U8;
    }
    bool ok = p && lw == w && lh == h;
    for (size_t i = 0; ok && i < n; i++)
        img->pixels[i] = img->meta.storage == IMAGE_FLOAT ? ((float *)p)[i]
                       : img->meta.storage == IMAGE_U16   ? ((uint16_t *)p)[i] / 65535.0f
                                                          : ((uint8_t *)p)[i] / 255.0f;
    stbi_image_free(p);
    if (ok)
        return img;
    const char *why = stbi_failure_reason();
    image_error(err, errlen, name, "cannot decode (%s)", why ? why : "corrupt data");
    image_free(img);
    return NULL;
}

Image *image_decode_stb(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen)
{
    if (size > 0x7fffffff) {
        image_error(err, errlen, name, "file too large");
        return NULL;
    }
    pthread_mutex_lock(&stb_lock);
    Image *img = decode_locked(data, (int)size, name, err, errlen);
    pthread_mutex_unlock(&stb_lock);
    return img;
}

/* stb_image_write's output goes to a stdio stream; a short write is
   remembered. */
typedef struct PngSink {
    FILE *fp;
    bool failed;
} PngSink;

static void png_sink(void *user, void *data, int size)
{
    PngSink *s = user;
    if (!s->failed && fwrite(data, 1, (size_t)size, s->fp) != (size_t)size)
        s->failed = true;
}

int image_write_png(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                    const char *name, char *err, int errlen)
{
    if (opt->storage != IMAGE_STORE_DEFAULT && opt->storage != IMAGE_U8) {
        image_error(err, errlen, name, "PNG output is 8-bit only (use TIFF or EXR)");
        return -1;
    }
    if (img->channels > 4) {
        image_error(err, errlen, name, "PNG holds at most 4 channels, not %d", img->channels);
        return -1;
    }
    size_t n = (size_t)img->width * (size_t)img->height * (size_t)img->channels;
    uint16_t *q = malloc(n * sizeof *q);
    uint8_t *bytes = malloc(n);
    if (!q || !bytes) {
        free(q), free(bytes);
        image_error(err, errlen, name, "out of memory");
        return -1;
    }
    image_quantize_for(img, &opt->quantize, 8, q);
    for (size_t i = 0; i < n; i++)
        bytes[i] = (uint8_t)q[i];
    free(q);
    PngSink sink = { fopen(tmp, "wb"), false };
    if (!sink.fp) {
        free(bytes);
        image_error(err, errlen, name, "cannot open '%s' for writing", tmp);
        return -1;
    }
    int ok = stbi_write_png_to_func(png_sink, &sink, img->width, img->height, img->channels,
                                    bytes, img->width * img->channels);
    free(bytes);
    if (fclose(sink.fp) != 0)
        sink.failed = true;
    if (!ok || sink.failed) {
        image_error(err, errlen, name, "PNG write failed%s", ok ? " (disk full?)" : "");
        return -1;
    }
    return 0;
}
