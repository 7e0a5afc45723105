/*
** image_stb.c: PNG, JPEG and Radiance HDR through stb_image (Debian's
** libstb holds the implementations), PNG output through
** stb_image_write. stb_image keeps its failure reason in a global, so
** decoding is serialized by a mutex.
**
** stb_image reads zeros past the end of its input and calls that a
** picture, so a truncated HDR or JPEG file would decode "fine": pixels
** are decoded through stb's callback reader instead, which notices a read
** past the end. An HDR file's scanlines are walked first (hdr_data_ok),
** since stb loops forever on a run-length count of 0, which is what it
** reads past the end of a cut file. The dimensions are checked against image.c's reading
** limits before any pixel is decoded; a PNG's are read from its header,
** since stb_image's own check would only say "unknown image type". A
** JPEG's Huffman tables are checked before stb builds them
** (jpeg_tables_ok), since Debian's stb overflows them. Only files with a
** PNG, JPEG or HDR signature reach stb, which would take others (TGA
** with none) as well.
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

/* stb's callback reader over bytes in memory. stb refills its buffer
   with reads of STB_REFILL bytes, where a short read only means the file
   ends soon; a read when nothing is left, or a short read of another size
   (stbi__getn reading a block directly), means the decoder wanted bytes
   the file does not have. */
enum { STB_REFILL = 128 };
typedef struct Source {
    const uint8_t *data;
    size_t size, at;
    bool past_end;
} Source;

static int source_read(void *user, char *out, int n)
{
    Source *src = user;
    size_t left = src->size - src->at, k = (size_t)n < left ? (size_t)n : left;
    if (left == 0 || (k < (size_t)n && n != STB_REFILL))
        src->past_end = true;
    memcpy(out, src->data + src->at, k);
    src->at += k;
    return (int)k;
}

static void source_skip(void *user, int n)
{
    Source *src = user;
    if (n < 0)
        src->at -= (size_t)-n < src->at ? (size_t)-n : src->at;
    else if ((size_t)n > src->size - src->at)
        src->past_end = true, src->at = src->size;
    else
        src->at += (size_t)n;
}

static int source_eof(void *user)
{
    const Source *src = user;
    return src->at >= src->size;
}

/* A PNG's width, height and channels from its IHDR chunk; false if the
   data is not a PNG with one. */
static bool png_header(const uint8_t *d, size_t n, long *w, long *h, long *c)
{
    if (n < 26 || memcmp(d, "\x89PNG\r\n\x1a\n", 8) || memcmp(d + 12, "IHDR", 4))
        return false;
    *w = (long)d[16] << 24 | (long)d[17] << 16 | (long)d[18] << 8 | d[19];
    *h = (long)d[20] << 24 | (long)d[21] << 16 | (long)d[22] << 8 | d[23];
    static const long by_type[7] = { 1, 1, 3, 3, 2, 1, 4 }; /* gray, -, rgb, palette, ga, -, rgba */
    *c = d[25] < 7 ? by_type[d[25]] : 1;
    return true;
}

/* Whether the Radiance scanlines after the header of an HDR image of
   w x h pixels are all there and their run lengths sane, walked as stb
   decodes them: each scanline of 8 to 32767 pixels starting 2 2 is four
   run-length encoded components; anything else makes stb read w x h flat
   RGBE pixels from there. A header stb will refuse anyway passes, for stb to say. */
static bool hdr_data_ok(const uint8_t *d, size_t n, long w, long h, char *err, int errlen,
                        const char *name)
{
    /* The header's lines after the first end at one stb reads as empty:
       one starting with a newline or a NUL (stb reads lines as C
       strings; found by fuzz-image). The resolution's line follows. */
    const uint8_t *end = d + n, *p = memchr(d, '\n', n);
    while (p && ++p < end && *p != '\n' && *p != '\0')
        p = memchr(p, '\n', (size_t)(end - p));
    if (p && p < end)
        p = memchr(p, '\n', (size_t)(end - p)); /* the end of the empty line */
    if (p && ++p < end)
        p = memchr(p, '\n', (size_t)(end - p)); /* the resolution */
    if (!p || p >= end)
        return true;
    p++;
    for (long y = 0; y < h; y++) {
        if (w < 8 || w >= 32768 || end - p < 4 || p[0] != 2 || p[1] != 2 || (p[2] & 0x80)) {
            /* stb then reads the whole image flat from here, this pixel first */
            if ((size_t)(end - p) / 4 / (size_t)w < (size_t)h)
                goto truncated;
            return true;
        }
        p += 4;
        for (int c = 0; c < 4; c++)
            for (long left = w; left > 0;) {
                if (p >= end)
                    goto truncated;
                long count = *p > 128 ? *p - 128 : *p;
                if (count == 0 || count > left) {
                    image_error(err, errlen, name, "corrupt HDR data (a run of %ld pixels where "
                                "%ld are left)", count, left);
                    return false;
                }
                size_t need = *p++ > 128 ? 1 : (size_t)count;
                if ((size_t)(end - p) < need)
                    goto truncated;
                p += need, left -= count;
            }
    }
    return true;
truncated:
    image_error(err, errlen, name, "truncated file: the image data ends early");
    return false;
}

/* Whether every Huffman table a JPEG file may define has at most 256
   codes. Debian's stb_image (2022-09) fills a table's 257-entry size
   list and 256-entry value list without checking, so a DHT segment
   whose 16 counts add up past 256 writes past them. stb reads a DHT
   segment after any FF C4 it meets as a marker, so every FF C4 of the
   file is taken as one here (a valid file's other bytes making such a
   table by chance is refused too: a false alarm, never a miss), the
   segment's tables walked as stb walks them, bytes past the end read
   as 0 as stb reads them. */
/* Where a JPEG's start marker is as stb finds it (FF, any more FF fill
   bytes, D8), or 0 if the file does not start so. */
static size_t jpeg_start(const uint8_t *d, size_t n)
{
    size_t soi = 0;
    while (soi < n && d[soi] == 0xff)
        soi++;
    return soi > 0 && soi < n && d[soi] == 0xd8 ? soi : 0;
}

static bool jpeg_tables_ok(const uint8_t *d, size_t n, char *err, int errlen, const char *name)
{
    size_t soi = jpeg_start(d, n);
    if (!soi)
        return true;
#define AT(i) ((i) < n ? d[i] : 0)
    for (size_t m = soi + 1; m + 1 < n; m++) {
        if (d[m] != 0xff || d[m + 1] != 0xc4)
            continue;
        size_t p = m + 4;
        for (long left = (long)(AT(m + 2) << 8 | AT(m + 3)) - 2; left > 0 && p < n;) {
            int q = AT(p), codes = 0;
            if (q >> 4 > 1 || (q & 15) > 3) /* stb refuses the segment */
                break;
            for (int i = 0; i < 16; i++)
                codes += AT(p + 1 + (size_t)i);
            if (codes > 256) {
                image_error(err, errlen, name, "corrupt JPEG: a Huffman table of %d codes "
                            "(at most 256)", codes);
                return false;
            }
            p += 17 + (size_t)codes;
            left -= 17 + codes;
        }
    }
#undef AT
    return true;
}

static Image *decode_locked(const uint8_t *data, int size, const char *name, char *err,
                            int errlen)
{
    long pw, ph, pc;
    /* stb_image also takes TGA, BMP, PSD, GIF, PIC and PNM, TGA without
       any signature: a few bytes of anything can be a huge TGA that stb
       spends seconds decoding from nothing. Only the three formats we
       read get to stb (found by fuzz-image). */
    static const uint8_t png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (!(size >= 8 && !memcmp(data, png_magic, 8)) && !jpeg_start(data, (size_t)size)
        && !stbi_is_hdr_from_memory(data, size)) {
        image_error(err, errlen, name, "not a readable PNG, JPEG or HDR image (no signature "
                    "of one)");
        return NULL;
    }
    if (!jpeg_tables_ok(data, (size_t)size, err, errlen, name))
        return NULL;
    if (png_header(data, (size_t)size, &pw, &ph, &pc) &&
        !image_read_size_ok(pw, ph, pc, "PNG", name, err, errlen))
        return NULL;
    int w, h, comp;
    if (!stbi_info_from_memory(data, size, &w, &h, &comp)) {
        const char *why = stbi_failure_reason();
        image_error(err, errlen, name, "not a readable PNG, JPEG or HDR image (%s)",
                    why ? why : "unknown reason");
        return NULL;
    }
    if (!image_read_size_ok(w, h, comp, "PNG, JPEG or HDR", name, err, errlen))
        return NULL;
    bool hdr = stbi_is_hdr_from_memory(data, size);
    if (hdr && !hdr_data_ok(data, (size_t)size, w, h, err, errlen, name))
        return NULL;
    Image *img = image_new(w, h, comp);
    if (!img) {
        image_error(err, errlen, name, "out of memory for %d x %d pixels", w, h);
        return NULL;
    }
    size_t n = (size_t)w * (size_t)h * (size_t)comp;
    int lw = 0, lh = 0, lc;
    void *p;
    Source src = { data, (size_t)size, 0, false };
    const stbi_io_callbacks io = { source_read, source_skip, source_eof };
    if (hdr) {
        p = stbi_loadf_from_callbacks(&io, &src, &lw, &lh, &lc, comp);
        img->meta.storage = IMAGE_FLOAT;
    } else if (stbi_is_16_bit_from_memory(data, size)) {
        p = stbi_load_16_from_callbacks(&io, &src, &lw, &lh, &lc, comp);
        img->meta.storage = IMAGE_U16;
    } else {
        p = stbi_load_from_callbacks(&io, &src, &lw, &lh, &lc, comp);
        img->meta.storage = IMAGE_U8;
    }
    if (p && src.past_end) {
        stbi_image_free(p);
        image_free(img);
        image_error(err, errlen, name, "truncated file: the image data ends early");
        return NULL;
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
