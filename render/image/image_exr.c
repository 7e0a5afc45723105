/*
** image_exr.c: OpenEXR through its C "Core" library (openexr.h,
** libOpenEXRCore), read from memory through a custom stream and written
** to a file. Samples are decoded and encoded in the file's own type
** (half, float, uint) and converted here, so the library never has to
** convert. Metadata: m44f worldToCamera and worldToScreen (or the
** standard worldToNDC, turned into screen space), envmap, and string
** attributes textureformat and wrapmodes.
*/
#include "config.h"
#include "render/image/image_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openexr.h>

/* The stream (memory, when reading) and the first error of one file. */
typedef struct ExrIO {
    const uint8_t *data;
    size_t size;
    char msg[256];
} ExrIO;

static void on_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    void *user = NULL;
    if (exr_get_user_data(ctxt, &user) != EXR_ERR_SUCCESS || !user)
        return;
    ExrIO *io = user;
    if (!io->msg[0])
        snprintf(io->msg, sizeof io->msg, "%s", msg ? msg : exr_get_default_error_message(code));
}

static int64_t mem_read(exr_const_context_t ctxt, void *user, void *buf, uint64_t n,
                        uint64_t off, exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt, (void)error_cb;
    ExrIO *io = user;
    if (off >= io->size)
        return 0;
    uint64_t k = io->size - off < n ? io->size - off : n;
    memcpy(buf, io->data + off, (size_t)k);
    return (int64_t)k;
}

static int64_t mem_size(exr_const_context_t ctxt, void *user)
{
    (void)ctxt;
    return (int64_t)((ExrIO *)user)->size;
}

/* "name: error: what (library message)". */
static void exr_fail(char *err, int errlen, const char *name, const char *what, ExrIO *io,
                     exr_result_t rc)
{
    const char *why = io->msg[0] ? io->msg : exr_get_default_error_message(rc);
    image_error(err, errlen, name, "%s (%s)", what, why);
}

/* ---- reading --------------------------------------------------------------------------- */

/* Image channel c comes from file channel order[c]: R G B Y A Z first
   (so the default names come back in their order). */
static int channel_order(const exr_attr_chlist_t *cl, int order[IMAGE_MAX_CHANNELS])
{
    static const char *const first[] = { "R", "G", "B", "Y", "A", "Z" };
    bool used[IMAGE_MAX_CHANNELS] = { false };
    int n = 0;
    for (int f = 0; f < 6; f++)
        for (int i = 0; i < cl->num_channels; i++)
            if (!used[i] && !strcmp(cl->entries[i].name.str, first[f]))
                used[i] = true, order[n++] = i;
    for (int i = 0; i < cl->num_channels; i++)
        if (!used[i])
            order[n++] = i;
    return n;
}

/* Decodes one chunk into raw (4 bytes a sample, interleaved like img,
   the file's own type in the first bytes of each). */
static exr_result_t decode_chunk(exr_const_context_t ctx, const exr_chunk_info_t *ci,
                                 exr_decode_pipeline_t *dec, bool *first, uint8_t *raw, int W,
                                 int C, const int *pos, int x0, int y0)
{
    exr_result_t rc = *first ? exr_decoding_initialize(ctx, 0, ci, dec)
                             : exr_decoding_update(ctx, 0, ci, dec);
    if (rc != EXR_ERR_SUCCESS)
        return rc;
    *first = false;
    for (int i = 0; i < dec->channel_count; i++) {
        exr_coding_channel_info_t *ch = &dec->channels[i];
        ch->user_bytes_per_element = ch->bytes_per_element;
        ch->user_data_type = ch->data_type;
        ch->user_pixel_stride = C * 4;
        ch->user_line_stride = W * C * 4;
        ch->decode_to_ptr = raw + (((size_t)y0 * (size_t)W + (size_t)x0) * (size_t)C +
                                   (size_t)pos[i]) * 4;
    }
    rc = exr_decoding_choose_default_routines(ctx, 0, dec);
    return rc == EXR_ERR_SUCCESS ? exr_decoding_run(ctx, 0, dec) : rc;
}

static void read_meta(exr_const_context_t ctx, ImageMeta *m)
{
    exr_attr_m44f_t mat;
    if (exr_attr_get_m44f(ctx, 0, "worldToCamera", &mat) == EXR_ERR_SUCCESS) {
        memcpy(m->world_to_camera, mat.m, sizeof m->world_to_camera);
        m->has_world_to_camera = true;
    }
    if (exr_attr_get_m44f(ctx, 0, "worldToScreen", &mat) == EXR_ERR_SUCCESS) {
        memcpy(m->world_to_screen, mat.m, sizeof m->world_to_screen);
        m->has_world_to_screen = true;
    } else if (exr_attr_get_m44f(ctx, 0, "worldToNDC", &mat) == EXR_ERR_SUCCESS) {
        /* NDC (x, y) in [0, 1], y down -> screen (2x - 1, 1 - 2y), w kept */
        for (int r = 0; r < 4; r++) {
            const float *a = mat.m + 4 * r;
            float *o = m->world_to_screen + 4 * r;
            o[0] = 2 * a[0] - a[3], o[1] = a[3] - 2 * a[1], o[2] = a[2], o[3] = a[3];
        }
        m->has_world_to_screen = true;
    }
    exr_envmap_t env;
    if (exr_attr_get_envmap(ctx, 0, "envmap", &env) == EXR_ERR_SUCCESS)
        snprintf(m->texture_format, sizeof m->texture_format, "%s",
                 env == EXR_ENVMAP_CUBE ? "CubeFace Environment" : "LatLong Environment");
    int32_t len;
    const char *s;
    if (exr_attr_get_string(ctx, 0, "textureformat", &len, &s) == EXR_ERR_SUCCESS && s)
        snprintf(m->texture_format, sizeof m->texture_format, "%.*s", (int)len, s);
    if (exr_attr_get_string(ctx, 0, "wrapmodes", &len, &s) == EXR_ERR_SUCCESS && s)
        snprintf(m->wrap_modes, sizeof m->wrap_modes, "%.*s", (int)len, s);
}

static Image *decode(exr_context_t ctx, ExrIO *io, const char *name, char *err, int errlen)
{
    exr_storage_t storage;
    exr_attr_box2i_t dw;
    const exr_attr_chlist_t *cl;
    exr_result_t rc = exr_get_storage(ctx, 0, &storage);
    if (rc == EXR_ERR_SUCCESS && storage != EXR_STORAGE_SCANLINE && storage != EXR_STORAGE_TILED) {
        image_error(err, errlen, name, "deep EXR images are not supported");
        return NULL;
    }
    if (rc == EXR_ERR_SUCCESS)
        rc = exr_get_data_window(ctx, 0, &dw);
    if (rc == EXR_ERR_SUCCESS)
        rc = exr_get_channels(ctx, 0, &cl);
    if (rc != EXR_ERR_SUCCESS) {
        exr_fail(err, errlen, name, "bad EXR header", io, rc);
        return NULL;
    }
    long W = (long)dw.max.x - dw.min.x + 1, H = (long)dw.max.y - dw.min.y + 1;
    int C = cl->num_channels;
    if (!image_read_size_ok(W, H, C, "EXR", name, err, errlen))
        return NULL;
    int order[IMAGE_MAX_CHANNELS], pos[IMAGE_MAX_CHANNELS];
    channel_order(cl, order);
    bool any_half = false, any_float = false;
    for (int c = 0; c < C; c++) {
        const exr_attr_chlist_entry_t *e = &cl->entries[order[c]];
        pos[order[c]] = c;
        if (e->x_sampling != 1 || e->y_sampling != 1) {
            image_error(err, errlen, name, "subsampled EXR channels are not supported ('%s')",
                        e->name.str);
            return NULL;
        }
        any_half |= e->pixel_type == EXR_PIXEL_HALF;
        any_float |= e->pixel_type != EXR_PIXEL_HALF;
    }
    Image *img = image_new((int)W, (int)H, C);
    uint8_t *raw = img ? calloc((size_t)W * (size_t)H * (size_t)C, 4) : NULL;
    if (!raw) {
        image_free(img);
        image_error(err, errlen, name, "out of memory for %ld x %ld pixels", W, H);
        return NULL;
    }
    for (int c = 0; c < C; c++)
        snprintf(img->channel_names[c], IMAGE_CHANNEL_NAME, "%s", cl->entries[order[c]].name.str);
    img->meta.storage = any_half && !any_float ? IMAGE_HALF : IMAGE_FLOAT;
    read_meta(ctx, &img->meta);

    exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
    bool first = true;
    exr_chunk_info_t ci;
    if (storage == EXR_STORAGE_SCANLINE) {
        int32_t lines = 0;
        rc = exr_get_scanlines_per_chunk(ctx, 0, &lines);
        if (rc == EXR_ERR_SUCCESS && lines <= 0)
            rc = EXR_ERR_BAD_CHUNK_LEADER;
        for (long y = dw.min.y; rc == EXR_ERR_SUCCESS && y <= dw.max.y; y += lines) {
            rc = exr_read_scanline_chunk_info(ctx, 0, (int)y, &ci);
            if (rc == EXR_ERR_SUCCESS &&
                (ci.start_y != y || ci.height <= 0 || ci.start_y + ci.height - 1 > dw.max.y))
                rc = EXR_ERR_BAD_CHUNK_LEADER;
            if (rc == EXR_ERR_SUCCESS)
                rc = decode_chunk(ctx, &ci, &dec, &first, raw, (int)W, C, pos, 0,
                                  ci.start_y - dw.min.y);
        }
    } else {
        uint32_t tw = 0, th = 0;
        exr_tile_level_mode_t lm;
        exr_tile_round_mode_t rm;
        rc = exr_get_tile_descriptor(ctx, 0, &tw, &th, &lm, &rm);
        if (rc == EXR_ERR_SUCCESS && (tw == 0 || th == 0))
            rc = EXR_ERR_INVALID_ATTR;
        for (long ty = 0; rc == EXR_ERR_SUCCESS && ty * (long)th < H; ty++)
            for (long tx = 0; rc == EXR_ERR_SUCCESS && tx * (long)tw < W; tx++) {
                rc = exr_read_tile_chunk_info(ctx, 0, (int)tx, (int)ty, 0, 0, &ci);
                if (rc == EXR_ERR_SUCCESS &&
                    (ci.width <= 0 || ci.height <= 0 || tx * (long)tw + ci.width > W ||
                     ty * (long)th + ci.height > H))
                    rc = EXR_ERR_BAD_CHUNK_LEADER;
                if (rc == EXR_ERR_SUCCESS)
                    rc = decode_chunk(ctx, &ci, &dec, &first, raw, (int)W, C, pos,
                                      (int)(tx * (long)tw), (int)(ty * (long)th));
            }
    }
    if (!first)
        exr_decoding_destroy(ctx, &dec);
    if (rc != EXR_ERR_SUCCESS) {
        exr_fail(err, errlen, name, "corrupt or truncated EXR data", io, rc);
        free(raw);
        image_free(img);
        return NULL;
    }
    size_t n = (size_t)W * (size_t)H;
    for (int c = 0; c < C; c++) {
        exr_pixel_type_t t = cl->entries[order[c]].pixel_type;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = raw + (i * (size_t)C + (size_t)c) * 4;
            float *o = img->pixels + i * (size_t)C + (size_t)c;
            if (t == EXR_PIXEL_HALF) {
                uint16_t h;
                memcpy(&h, p, 2);
                *o = image_half_to_float(h);
            } else if (t == EXR_PIXEL_FLOAT) {
                memcpy(o, p, 4);
            } else {
                uint32_t u;
                memcpy(&u, p, 4);
                *o = (float)u;
            }
        }
    }
    free(raw);
    return img;
}

Image *image_decode_exr(const uint8_t *data, size_t size, const char *name, char *err,
                        int errlen)
{
    ExrIO io = { data, size, "" };
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = on_error;
    init.user_data = &io;
    init.read_fn = mem_read;
    init.size_fn = mem_size;
    init.max_image_width = init.max_image_height = 65536;
    init.max_tile_width = init.max_tile_height = 65536;
    exr_context_t ctx = NULL;
    exr_result_t rc = exr_start_read(&ctx, name, &init);
    if (rc != EXR_ERR_SUCCESS) {
        exr_fail(err, errlen, name, "not a readable EXR file", &io, rc);
        exr_finish(&ctx);
        return NULL;
    }
    Image *img = decode(ctx, &io, name, err, errlen);
    exr_finish(&ctx);
    return img;
}

/* ---- writing --------------------------------------------------------------------------- */

static exr_result_t write_meta(exr_context_t ctx, const ImageMeta *m)
{
    exr_result_t rc = EXR_ERR_SUCCESS;
    exr_attr_m44f_t mat;
    if (m->has_world_to_camera) {
        memcpy(mat.m, m->world_to_camera, sizeof mat.m);
        rc = exr_attr_set_m44f(ctx, 0, "worldToCamera", &mat);
    }
    if (rc == EXR_ERR_SUCCESS && m->has_world_to_screen) {
        memcpy(mat.m, m->world_to_screen, sizeof mat.m);
        rc = exr_attr_set_m44f(ctx, 0, "worldToScreen", &mat);
    }
    if (rc == EXR_ERR_SUCCESS && !strcmp(m->texture_format, "LatLong Environment"))
        rc = exr_attr_set_envmap(ctx, 0, "envmap", EXR_ENVMAP_LATLONG);
    if (rc == EXR_ERR_SUCCESS && m->texture_format[0])
        rc = exr_attr_set_string(ctx, 0, "textureformat", m->texture_format);
    if (rc == EXR_ERR_SUCCESS && m->wrap_modes[0])
        rc = exr_attr_set_string(ctx, 0, "wrapmodes", m->wrap_modes);
    return rc;
}

/* OpenEXR before 3.4.8 (issue #2306) writes zlib output that is exactly
   as long as the uncompressed chunk as it is, and readers then take it
   for uncompressed data. The wrapper stores the chunk uncompressed in
   that case, as the library does when the output is longer. */
typedef struct TieFix {
    exr_result_t (*compress)(exr_encode_pipeline_t *enc);
} TieFix;

static exr_result_t compress_no_tie(exr_encode_pipeline_t *enc)
{
    const TieFix *fix = enc->encoding_user_data;
    exr_result_t rc = fix->compress(enc);
    if (rc == EXR_ERR_SUCCESS && enc->compressed_bytes == enc->packed_bytes &&
        enc->compressed_buffer != enc->packed_buffer)
        memcpy(enc->compressed_buffer, enc->packed_buffer, enc->packed_bytes);
    return rc;
}

/* Encodes and writes the chunk described by ci from data (the whole
   image in the file's sample type, `bytes` each, interleaved). */
static exr_result_t encode_chunk(exr_context_t ctx, const exr_chunk_info_t *ci,
                                 exr_encode_pipeline_t *enc, bool *first, const Image *img,
                                 const uint8_t *data, int bytes, int x0, int y0, TieFix *fix)
{
    exr_result_t rc = *first ? exr_encoding_initialize(ctx, 0, ci, enc)
                             : exr_encoding_update(ctx, 0, ci, enc);
    if (rc != EXR_ERR_SUCCESS)
        return rc;
    *first = false;
    int C = img->channels;
    for (int i = 0; i < enc->channel_count; i++) {
        exr_coding_channel_info_t *ch = &enc->channels[i];
        int c = image_channel_index(img, ch->channel_name);
        ch->user_bytes_per_element = (int16_t)bytes;
        ch->user_data_type = ch->data_type;
        ch->user_pixel_stride = C * bytes;
        ch->user_line_stride = img->width * C * bytes;
        ch->encode_from_ptr = data + (((size_t)y0 * (size_t)img->width + (size_t)x0) * (size_t)C +
                                      (size_t)(c < 0 ? 0 : c)) * (size_t)bytes;
    }
    rc = exr_encoding_choose_default_routines(ctx, 0, enc);
    if (rc == EXR_ERR_SUCCESS && enc->compress_fn && enc->compress_fn != compress_no_tie) {
        fix->compress = enc->compress_fn;
        enc->compress_fn = compress_no_tie;
        enc->encoding_user_data = fix;
    }
    return rc == EXR_ERR_SUCCESS ? exr_encoding_run(ctx, 0, enc) : rc;
}

int image_write_exr(const Image *img, const ImageWriteOptions *opt, const char *tmp,
                    const char *name, char *err, int errlen)
{
    ImageStorage st = opt->storage == IMAGE_STORE_DEFAULT ? IMAGE_HALF : opt->storage;
    if (st != IMAGE_HALF && st != IMAGE_FLOAT) {
        image_error(err, errlen, name, "EXR output is half or float, not %d-bit integers",
                    st == IMAGE_U8 ? 8 : 16);
        return -1;
    }
    int C = img->channels, bytes = st == IMAGE_HALF ? 2 : 4;
    for (int c = 0; c < C; c++)
        if (!img->channel_names[c][0] || image_channel_index(img, img->channel_names[c]) != c) {
            image_error(err, errlen, name, "channel %d needs a name of its own for EXR", c);
            return -1;
        }
    size_t n = (size_t)img->width * (size_t)img->height * (size_t)C;
    uint8_t *data = malloc(n * (size_t)bytes);
    if (!data) {
        image_error(err, errlen, name, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (st == IMAGE_HALF) {
            uint16_t h = image_float_to_half(img->pixels[i]);
            memcpy(data + 2 * i, &h, 2);
        } else {
            memcpy(data + 4 * i, &img->pixels[i], 4);
        }
    }

    ExrIO io = { NULL, 0, "" };
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.error_handler_fn = on_error;
    init.user_data = &io;
    exr_context_t ctx = NULL;
    int part = 0;
    exr_result_t rc = exr_start_write(&ctx, tmp, EXR_WRITE_FILE_DIRECTLY, &init);
    if (rc == EXR_ERR_SUCCESS)
        rc = exr_add_part(ctx, "", opt->tiled ? EXR_STORAGE_TILED : EXR_STORAGE_SCANLINE, &part);
    if (rc == EXR_ERR_SUCCESS)
        rc = exr_initialize_required_attr_simple(ctx, part, img->width, img->height,
                                                 EXR_COMPRESSION_ZIP);
    if (rc == EXR_ERR_SUCCESS && opt->tiled)
        rc = exr_set_tile_descriptor(ctx, part, 64, 64, EXR_TILE_ONE_LEVEL, EXR_TILE_ROUND_DOWN);
    for (int c = 0; rc == EXR_ERR_SUCCESS && c < C; c++)
        rc = exr_add_channel(ctx, part, img->channel_names[c],
                             st == IMAGE_HALF ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT,
                             EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1);
    if (rc == EXR_ERR_SUCCESS)
        rc = write_meta(ctx, &img->meta);
    if (rc == EXR_ERR_SUCCESS)
        rc = exr_write_header(ctx);

    exr_encode_pipeline_t enc = EXR_ENCODE_PIPELINE_INITIALIZER;
    TieFix fix = { NULL };
    bool first = true;
    exr_chunk_info_t ci;
    if (rc == EXR_ERR_SUCCESS && !opt->tiled) {
        int32_t lines = 1;
        rc = exr_get_scanlines_per_chunk(ctx, part, &lines);
        for (int y = 0; rc == EXR_ERR_SUCCESS && y < img->height; y += lines) {
            rc = exr_write_scanline_chunk_info(ctx, part, y, &ci);
            if (rc == EXR_ERR_SUCCESS)
                rc = encode_chunk(ctx, &ci, &enc, &first, img, data, bytes, 0, y, &fix);
        }
    } else if (rc == EXR_ERR_SUCCESS) {
        for (int ty = 0; rc == EXR_ERR_SUCCESS && ty * 64 < img->height; ty++)
            for (int tx = 0; rc == EXR_ERR_SUCCESS && tx * 64 < img->width; tx++) {
                rc = exr_write_tile_chunk_info(ctx, part, tx, ty, 0, 0, &ci);
                if (rc == EXR_ERR_SUCCESS)
                    rc = encode_chunk(ctx, &ci, &enc, &first, img, data, bytes, tx * 64, ty * 64,
                                      &fix);
            }
    }
    if (!first)
        exr_encoding_destroy(ctx, &enc);
    exr_result_t fin = exr_finish(&ctx);
    if (rc == EXR_ERR_SUCCESS)
        rc = fin;
    free(data);
    if (rc != EXR_ERR_SUCCESS) {
        exr_fail(err, errlen, name, "EXR write failed", &io, rc);
        return -1;
    }
    return 0;
}
