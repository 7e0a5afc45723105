/*
** check_io.c: image files: round trips through every format and sample
** type (exact where the type holds the values, else the stated
** tolerance), metadata, RiQuantize with and without dither, writes that
** fail leaving the old file alone, and truncated, corrupt, missing,
** unknown, too large and not regular files failing with
** "path: error: ..." instead of crashing, hanging or eating memory.
*/
#include "config.h"
#include "tests/image/check_image.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tiffio.h>
#include <zlib.h>

static char err[512];

/* k/255 patterns: exact in 8 bits. */
static float v8(int x, int y, int c)
{
    return (float)((x * 37 + y * 91 + c * 53) % 256) / 255.0f;
}

static float v16(int x, int y, int c)
{
    return (float)((x * 4099 + y * 9001 + c * 20011) % 65536) / 65535.0f;
}

/* Exact in half: small integers over powers of two, signs, big values. */
static float vhalf(int x, int y, int c)
{
    return (float)(((x * 7 + y * 13 + c * 5) % 64) - 20) / 8.0f * (c == 3 ? 256.0f : 1.0f);
}

/* Anything a float holds. */
static float vfloat(int x, int y, int c)
{
    return sinf((float)(x * 3 + y * 7 + c)) * powf(10.0f, (float)((x + y + c) % 9 - 4));
}

static void expect_same(const Image *a, const Image *b, float tol, const char *what)
{
    ck_assert_msg(b != NULL, "%s: read back failed: %s", what, err);
    ck_assert_int_eq(a->width, b->width);
    ck_assert_int_eq(a->height, b->height);
    ck_assert_int_eq(a->channels, b->channels);
    size_t n = (size_t)a->width * (size_t)a->height * (size_t)a->channels;
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(a->pixels[i] - b->pixels[i]);
        ck_assert_msg(tol == 0 ? a->pixels[i] == b->pixels[i] : d <= tol * (1 + fabsf(a->pixels[i])),
                      "%s: sample %zu: wrote %.9g, read %.9g", what, i, a->pixels[i], b->pixels[i]);
    }
}

/* Writes img to `name` with the options and reads it back. */
static Image *round_trip(const Image *img, const char *name, ImageStorage st, bool tiled)
{
    ImageWriteOptions o = { .storage = st, .tiled = tiled };
    const char *path = scratch(name);
    ck_assert_msg(image_write(img, path, &o, err, sizeof err) == 0, "%s", err);
    return image_read(path, IMAGE_FORMAT_AUTO, err, sizeof err);
}

START_TEST(png_round_trip)
{
    for (int c = 1; c <= 4; c++) {
        Image *img = make_image(13, 7, c, v8);
        Image *back = round_trip(img, "rt.png", IMAGE_STORE_DEFAULT, false);
        expect_same(img, back, 0, "png");
        ck_assert_int_eq(back->meta.storage, IMAGE_U8);
        image_free(img), image_free(back);
    }
}
END_TEST

START_TEST(png_is_8bit_only)
{
    Image *img = make_image(2, 2, 3, v8);
    ImageWriteOptions o = { .storage = IMAGE_U16 };
    ck_assert_int_eq(image_write(img, scratch("x16.png"), &o, err, sizeof err), -1);
    expect_error(err, scratch("x16.png"), "8-bit only");
    image_free(img);
}
END_TEST

START_TEST(tiff_round_trips)
{
    static const struct {
        ImageStorage st;
        float (*fn)(int, int, int);
        bool tiled;
    } cases[] = {
        { IMAGE_U8, v8, false },       { IMAGE_U8, v8, true },
        { IMAGE_U16, v16, false },     { IMAGE_U16, v16, true },
        { IMAGE_HALF, vhalf, false },  { IMAGE_FLOAT, vfloat, false },
        { IMAGE_FLOAT, vfloat, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int c = 1; c <= 5; c += 2) {
            /* 70 x 65: tiles of 64 leave partial ones at the edges */
            Image *img = make_image(70, 65, c, cases[i].fn);
            Image *back = round_trip(img, "rt.tif", cases[i].st, cases[i].tiled);
            char what[64];
            snprintf(what, sizeof what, "tiff case %zu, %d channels", i, c);
            expect_same(img, back, 0, what);
            ck_assert_int_eq(back->meta.storage, cases[i].st);
            image_free(img), image_free(back);
        }
}
END_TEST

START_TEST(tiff_alpha_and_names)
{
    Image *img = make_image(4, 3, 4, v8);
    Image *back = round_trip(img, "rgba.tiff", IMAGE_U8, false);
    expect_same(img, back, 0, "rgba");
    ck_assert_int_eq(image_channel_index(back, "A"), 3);
    ck_assert_int_eq(image_channel_index(back, "B"), 2);
    image_free(img), image_free(back);
}
END_TEST

static void set_meta(Image *img)
{
    for (int i = 0; i < 16; i++) {
        img->meta.world_to_camera[i] = (float)i * 0.5f - 3;
        img->meta.world_to_screen[i] = 1.0f / (float)(i + 1);
    }
    img->meta.has_world_to_camera = img->meta.has_world_to_screen = true;
    snprintf(img->meta.texture_format, sizeof img->meta.texture_format, "Shadow");
    snprintf(img->meta.wrap_modes, sizeof img->meta.wrap_modes, "periodic,clamp");
}

static void expect_meta(const Image *a, const Image *b)
{
    ck_assert(b->meta.has_world_to_camera && b->meta.has_world_to_screen);
    for (int i = 0; i < 16; i++) {
        ck_assert_float_eq(a->meta.world_to_camera[i], b->meta.world_to_camera[i]);
        ck_assert_float_eq(a->meta.world_to_screen[i], b->meta.world_to_screen[i]);
    }
    ck_assert_str_eq(b->meta.texture_format, "Shadow");
    ck_assert_str_eq(b->meta.wrap_modes, "periodic,clamp");
}

START_TEST(tiff_pixar_tags)
{
    Image *img = make_image(5, 5, 1, vfloat);
    set_meta(img);
    Image *back = round_trip(img, "shadow.tif", IMAGE_FLOAT, true);
    expect_same(img, back, 0, "shadow tiff");
    expect_meta(img, back);
    image_free(img), image_free(back);
}
END_TEST

/* The 6 x 1 corner tile of the 5-channel half image is the case where
   zlib's output is as long as its input (OpenEXR issue #2306). */
START_TEST(exr_round_trips)
{
    for (int tiled = 0; tiled < 2; tiled++)
        for (int c = 1; c <= 5; c++) {
            Image *img = make_image(70, 65, c, vhalf);
            Image *back = round_trip(img, "rt.exr", IMAGE_HALF, tiled);
            expect_same(img, back, 0, "exr half");
            ck_assert_int_eq(back->meta.storage, IMAGE_HALF);
            for (int k = 0; k < c; k++)
                ck_assert_str_eq(back->channel_names[k], img->channel_names[k]);
            image_free(back);
            image_free(img);
            img = make_image(70, 65, c, vfloat);
            back = round_trip(img, "rt.exr", IMAGE_FLOAT, tiled);
            expect_same(img, back, 0, "exr float");
            ck_assert_int_eq(back->meta.storage, IMAGE_FLOAT);
            image_free(img), image_free(back);
        }
}
END_TEST

START_TEST(exr_half_rounding)
{
    /* Values a half cannot hold come back within its precision, 2^-11. */
    Image *img = make_image(16, 16, 3, vfloat);
    Image *back = round_trip(img, "round.exr", IMAGE_STORE_DEFAULT, false);
    size_t n = 16 * 16 * 3;
    for (size_t i = 0; i < n; i++) {
        float a = img->pixels[i], b = back->pixels[i];
        ck_assert_msg(fabsf(a - b) <= fabsf(a) / 2048 + 6e-8f, "%.9g became %.9g", a, b);
    }
    image_free(img), image_free(back);
}
END_TEST

START_TEST(exr_metadata_and_names)
{
    Image *img = make_image(3, 2, 2, vhalf);
    snprintf(img->channel_names[0], IMAGE_CHANNEL_NAME, "depth");
    snprintf(img->channel_names[1], IMAGE_CHANNEL_NAME, "Z");
    set_meta(img);
    Image *back = round_trip(img, "meta.exr", IMAGE_FLOAT, false);
    ck_assert(back != NULL);
    /* Z is one of the channels that go first */
    ck_assert_str_eq(back->channel_names[0], "Z");
    ck_assert_str_eq(back->channel_names[1], "depth");
    ck_assert_float_eq(image_pixel(back, 2, 1)[0], image_pixel(img, 2, 1)[1]);
    ck_assert_float_eq(image_pixel(back, 2, 1)[1], image_pixel(img, 2, 1)[0]);
    expect_meta(img, back);
    image_free(img), image_free(back);
}
END_TEST

START_TEST(exr_rejects_integers_and_duplicate_names)
{
    Image *img = make_image(2, 2, 2, vhalf);
    ImageWriteOptions o = { .storage = IMAGE_U8 };
    ck_assert_int_eq(image_write(img, scratch("i.exr"), &o, err, sizeof err), -1);
    expect_error(err, scratch("i.exr"), "half or float");
    snprintf(img->channel_names[1], IMAGE_CHANNEL_NAME, "Y");
    ck_assert_int_eq(image_write(img, scratch("i.exr"), NULL, err, sizeof err), -1);
    expect_error(err, scratch("i.exr"), "name of its own");
    image_free(img);
}
END_TEST

START_TEST(format_from_contents)
{
    /* txmake-style names: the bytes decide */
    Image *img = make_image(3, 3, 3, v8);
    ImageWriteOptions o = { .format = IMAGE_PNG };
    ck_assert(image_write(img, scratch("brick.tex"), &o, err, sizeof err) == 0);
    Image *back = image_read(scratch("brick.tex"), IMAGE_FORMAT_AUTO, err, sizeof err);
    expect_same(img, back, 0, "png named .tex");
    image_free(back);
    o.format = IMAGE_TIFF;
    ck_assert(image_write(img, scratch("brick.png"), &o, err, sizeof err) == 0);
    back = image_read(scratch("brick.png"), IMAGE_FORMAT_AUTO, err, sizeof err);
    expect_same(img, back, 0, "tiff named .png");
    image_free(back), image_free(img);
    ck_assert_int_eq(image_format_from_name("a/b.c/D.TIFF"), IMAGE_TIFF);
    ck_assert_int_eq(image_format_from_name("a.b/c"), IMAGE_FORMAT_AUTO);
    ck_assert_int_eq(image_format_from_name("x.JPEG"), IMAGE_JPEG);
}
END_TEST

/* ---- quantization ---------------------------------------------------------------------- */

static float ramp(int x, int y, int c)
{
    return (float)x / 10.0f - 0.2f + (float)c * 0.01f + (float)y * 0;
}

START_TEST(quantize_exact)
{
    Image *img = make_image(15, 1, 2, ramp);
    uint16_t out[30];
    ImageQuantize q = { 255, 0, 255, 0 };
    image_quantize(img, &q, out);
    for (int x = 0; x < 15; x++)
        for (int c = 0; c < 2; c++) {
            double v = floor(255.0 * image_pixel(img, x, 0)[c] + 0.5);
            v = v < 0 ? 0 : v > 255 ? 255 : v;
            ck_assert_int_eq(out[2 * x + c], (int)v);
        }
    /* RiQuantize "rgba" 4095 16 4000: one, min, max as given */
    ImageQuantize q2 = { 4095, 16, 4000, 0 };
    image_quantize(img, &q2, out);
    ck_assert_int_eq(out[0], 16);            /* -0.2 clamps to min */
    ck_assert_int_eq(out[2 * 5], 1229);      /* 0.3 * 4095 = 1228.5 rounds up */
    ck_assert_int_eq(out[2 * 14], 4000);     /* 1.2 clamps to max */
    image_free(img);
}
END_TEST

static float dark(int x, int y, int c)
{
    return 0.5f / 255 + (float)(x + y + c) * 0;
}

START_TEST(quantize_dither)
{
    Image *img = make_image(64, 64, 1, dark);
    uint16_t *a = malloc(64 * 64 * 2), *b = malloc(64 * 64 * 2);
    ImageQuantize q = { 255, 0, 255, 1.0f };
    image_quantize(img, &q, a);
    image_quantize(img, &q, b);
    double sum = 0;
    for (int i = 0; i < 64 * 64; i++) {
        ck_assert_int_eq(a[i], b[i]);     /* the same image dithers the same way */
        ck_assert(a[i] <= 1);             /* 0.5 + [-1, 1) rounds to 0 or 1 */
        sum += a[i];
    }
    /* round(0.5 + r), r uniform in [-1, 1): 1 half the time */
    ck_assert_msg(fabs(sum / (64 * 64) - 0.5) < 0.04, "mean %g", sum / (64 * 64));
    /* without dither every sample rounds the same way */
    q.dither = 0;
    image_quantize(img, &q, a);
    for (int i = 0; i < 64 * 64; i++)
        ck_assert_int_eq(a[i], 1);
    free(a), free(b);
    image_free(img);
}
END_TEST

START_TEST(quantize_on_write)
{
    Image *img = make_image(15, 1, 1, ramp);
    ImageWriteOptions o = { .storage = IMAGE_U16, .quantize = { 1000, 0, 1000, 0 } };
    ck_assert(image_write(img, scratch("q.tif"), &o, err, sizeof err) == 0);
    Image *back = image_read(scratch("q.tif"), IMAGE_FORMAT_AUTO, err, sizeof err);
    ck_assert(back != NULL);
    /* 0.3 -> 300 -> 300 / 65535 */
    ck_assert_float_eq(back->pixels[5], 300 / 65535.0f);
    ck_assert_float_eq(back->pixels[14], 1000 / 65535.0f);
    ck_assert_float_eq(back->pixels[0], 0);
    image_free(img), image_free(back);
}
END_TEST

/* ---- failures ------------------------------------------------------------------------------ */

static int scratch_files_matching(const char *prefix)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", scratch(""));
    DIR *d = opendir(dir);
    ck_assert(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += !strncmp(e->d_name, prefix, strlen(prefix));
    closedir(d);
    return n;
}

START_TEST(failed_write_keeps_old_file)
{
    Image *img = make_image(4, 4, 3, v8);
    const char *path = scratch("keep.png");
    ck_assert(image_write(img, path, NULL, err, sizeof err) == 0);
    size_t n0, n1;
    uint8_t *before = read_bytes(path, &n0);
    Image *five = make_image(4, 4, 5, v8);
    ck_assert_int_eq(image_write(five, path, NULL, err, sizeof err), -1);
    expect_error(err, path, "at most 4 channels");
    uint8_t *after = read_bytes(path, &n1);
    ck_assert(n0 == n1 && !memcmp(before, after, n0));
    ck_assert_int_eq(scratch_files_matching("keep.png"), 1); /* no temporary left */
    free(before), free(after);

    ck_assert_int_eq(image_write(img, "/nonexistent-dir/x.tif", NULL, err, sizeof err), -1);
    expect_error(err, "/nonexistent-dir/x.tif", "cannot create");
    ck_assert_int_eq(image_write(img, scratch("x.jpg"), NULL, err, sizeof err), -1);
    expect_error(err, scratch("x.jpg"), "cannot write JPEG");
    ck_assert_int_eq(image_write(img, scratch("x.bmp"), NULL, err, sizeof err), -1);
    expect_error(err, scratch("x.bmp"), "cannot tell the format");
    image_free(img), image_free(five);
}
END_TEST

START_TEST(missing_and_unknown_files)
{
    ck_assert(image_read(scratch("nothing.tif"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("nothing.tif"), "cannot open");
    write_bytes(scratch("junk.bin"), "hello, not an image", 19);
    ck_assert(image_read(scratch("junk.bin"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("junk.bin"), "not an image in a known format");
    write_bytes(scratch("empty.png"), "", 0);
    ck_assert(image_read(scratch("empty.png"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("empty.png"), "empty file");
    write_bytes(scratch("junk.png"), "hello, not an image", 19);
    ck_assert(image_read(scratch("junk.png"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("junk.png"), "PNG");
    write_bytes(scratch("junk.exr"), "\x76\x2f\x31\x01garbage", 11);
    ck_assert(image_read(scratch("junk.exr"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("junk.exr"), "EXR");
    write_bytes(scratch("junk.tif"), "II*\0garbage", 11);
    ck_assert(image_read(scratch("junk.tif"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("junk.tif"), "TIFF");
}
END_TEST

/* Every prefix of a valid file fails cleanly; flipped bytes either fail
   cleanly or give an image of the right kind (some bytes do not matter).
   Under the sanitizer build any overrun shows here. */
static void mangle(const char *name, ImageStorage st, bool tiled)
{
    Image *img = make_image(40, 33, 3, vfloat);
    ImageWriteOptions o = { .storage = st, .tiled = tiled };
    ck_assert_msg(image_write(img, scratch(name), &o, err, sizeof err) == 0, "%s", err);
    every_prefix_fails(scratch(name), "");
    size_t n;
    uint8_t *good = read_bytes(scratch(name), &n);
    const char *bad = scratch("bad.bin");
    uint8_t *copy = malloc(n);
    uint32_t seed = 12345;
    for (int trial = 0; trial < 300; trial++) {
        memcpy(copy, good, n);
        for (int k = 0; k < 1 + trial % 4; k++) {
            seed = seed * 1664525u + 1013904223u;
            size_t at = trial < 150 ? (seed >> 8) % (n < 400 ? n : 400) : (seed >> 8) % n;
            copy[at] ^= (uint8_t)(1u << (seed >> 29) | (trial & 1 ? 0xff : 0));
        }
        Image *got = image_decode(copy, n, bad, IMAGE_FORMAT_AUTO, err, sizeof err);
        if (got)
            ck_assert(got->width > 0 && got->height > 0 && got->channels > 0);
        else
            expect_error(err, bad, "");
        image_free(got);
    }
    free(copy), free(good);
    image_free(img);
}

START_TEST(truncated_and_corrupt_png) { mangle("m.png", IMAGE_U8, false); }
END_TEST
START_TEST(truncated_and_corrupt_tiff) { mangle("m.tif", IMAGE_U16, false); }
END_TEST
START_TEST(truncated_and_corrupt_tiled_tiff) { mangle("mt.tif", IMAGE_FLOAT, true); }
END_TEST
START_TEST(truncated_and_corrupt_exr) { mangle("m.exr", IMAGE_HALF, false); }
END_TEST
START_TEST(truncated_and_corrupt_tiled_exr) { mangle("mt.exr", IMAGE_FLOAT, true); }
END_TEST

/* Found by fuzz-image: a bilevel TIFF of 2048 x 23304 pixels with data
   for 2 of its 5826 strips. libtiff reads a strip of no bytes as zeros,
   and its RGBA reader was told to carry on past strips it cannot read:
   the rest was made up from nothing for 10 seconds. A strip without
   data is refused before decoding. */
START_TEST(tiff_missing_strips)
{
    TIFF *t = TIFFOpen(scratch("strips.tif"), "w");
    ck_assert_ptr_nonnull(t);
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 2048);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 23304);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 1);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISWHITE);
    TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 4);
    static uint8_t strip[4 * 2048 / 8];
    ck_assert(TIFFWriteEncodedStrip(t, 0, strip, sizeof strip) == sizeof strip);
    ck_assert(TIFFWriteEncodedStrip(t, 1, strip, sizeof strip) == sizeof strip);
    TIFFClose(t);
    ck_assert_ptr_null(image_read(scratch("strips.tif"), IMAGE_FORMAT_AUTO, err, sizeof err));
    expect_error(err, scratch("strips.tif"), "truncated file: TIFF strip 2 of 5826 has no data");
}
END_TEST

/* A PNG claiming width x height RGB or RGBA pixels: its IHDR chunk and
   an empty IDAT chunk (so a reader has read all the header there is),
   then nothing. */
static void png_claiming(const char *path, uint32_t w, uint32_t h, bool rgba)
{
    uint8_t d[45] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
    for (int i = 0; i < 4; i++)
        d[16 + i] = (uint8_t)(w >> (24 - 8 * i)), d[20 + i] = (uint8_t)(h >> (24 - 8 * i));
    d[24] = 8, d[25] = rgba ? 6 : 2; /* 8-bit RGB(A) */
    memcpy(d + 33, "\0\0\0\0IDAT", 8);
    uint32_t crcs[2] = { (uint32_t)crc32(0, d + 12, 17), (uint32_t)crc32(0, d + 37, 4) };
    for (int i = 0; i < 4; i++)
        d[29 + i] = (uint8_t)(crcs[0] >> (24 - 8 * i)), d[41 + i] = (uint8_t)(crcs[1] >> (24 - 8 * i));
    write_bytes(path, d, sizeof d);
}

/* Headers asking for more pixels than the reading limits allow say so,
   with the dimensions, before anything is allocated. */
START_TEST(too_large_images)
{
    png_claiming(scratch("big.png"), 20000, 20000, false);
    ck_assert(image_read(scratch("big.png"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("big.png"), "PNG image too large: 20000 x 20000 pixels of 3 "
                 "channels (the limit is 268435456 samples)");
    png_claiming(scratch("wide.png"), 40000, 1, false);
    ck_assert(image_read(scratch("wide.png"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("wide.png"), "PNG image too large: 40000 x 1 pixels (the limit is "
                 "32768 a side)");
    const char *hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 40000 +X 5\n";
    write_bytes(scratch("tall.hdr"), hdr, strlen(hdr));
    ck_assert(image_read(scratch("tall.hdr"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("tall.hdr"), "too large: 5 x 40000 pixels (the limit is 32768");
}
END_TEST

/* Within the limits but more than memory holds: under a 256 MiB
   address-space limit (set in a child, so the other tests keep theirs)
   the gigabyte of floats an 8000 x 8000 RGBA PNG needs cannot be had, and
   reading says so instead of crashing. AddressSanitizer reserves terabytes
   of address space, so not there. */
START_TEST(out_of_memory_is_an_error)
{
#if defined(__SANITIZE_ADDRESS__)
    return;
#endif
    png_claiming(scratch("8k.png"), 8000, 8000, true);
    int fds[2];
    ck_assert(pipe(fds) == 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        struct rlimit lim = { 256L << 20, 256L << 20 };
        setrlimit(RLIMIT_AS, &lim);
        Image *img = image_read(scratch("8k.png"), IMAGE_FORMAT_AUTO, err, sizeof err);
        ssize_t wrote = write(fds[1], err, strlen(err) + 1);
        _exit(img == NULL && wrote > 0 ? 0 : 1);
    }
    close(fds[1]);
    char got[512] = "";
    ssize_t n = read(fds[0], got, sizeof got - 1);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    ck_assert_msg(n > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %s", got);
    expect_error(got, scratch("8k.png"), "out of memory for 8000 x 8000 pixels");
}
END_TEST

/* Only regular files are read: a device (which never ends), a FIFO
   (which would wait for a writer), a directory; and a file over the
   size limit is refused before a byte is read (a sparse one here). */
START_TEST(only_regular_files_of_bounded_size)
{
    ck_assert(image_read("/dev/zero", IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, "/dev/zero", "not a regular file (a device)");
    ck_assert(mkfifo(scratch("fifo.png"), 0600) == 0);
    ck_assert(image_read(scratch("fifo.png"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("fifo.png"), "not a regular file (a FIFO)");
    ck_assert(image_read(scratch(""), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch(""), "not a regular file (a directory)");
    FILE *fp = fopen(scratch("huge.exr"), "wb");
    ck_assert(fp && ftruncate(fileno(fp), (1L << 30) + 1) == 0);
    fclose(fp);
    ck_assert(image_read(scratch("huge.exr"), IMAGE_FORMAT_AUTO, err, sizeof err) == NULL);
    expect_error(err, scratch("huge.exr"), "file too large: 1073741825 bytes (the limit is "
                 "1073741824)");
    remove(scratch("huge.exr"));
}
END_TEST

START_TEST(size_limits)
{
    ck_assert(image_new(0, 5, 3) == NULL);
    ck_assert(image_new(70000, 1, 1) == NULL);
    ck_assert(image_new(1, 1, IMAGE_MAX_CHANNELS + 1) == NULL);
    ck_assert(!image_size_ok(65536, 65536, 1));
    ck_assert(image_size_ok(16384, 16384, 1));
    Image *img = image_new(2, 2, 7);
    ck_assert_str_eq(img->channel_names[4], "Z");
    ck_assert_str_eq(img->channel_names[6], "C6");
    image_free(img);
}
END_TEST

Suite *io_suite(void)
{
    Suite *s = suite_create("image_io");
    TCase *tc = tcase_create("io");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, png_round_trip);
    tcase_add_test(tc, png_is_8bit_only);
    tcase_add_test(tc, tiff_round_trips);
    tcase_add_test(tc, tiff_alpha_and_names);
    tcase_add_test(tc, tiff_pixar_tags);
    tcase_add_test(tc, exr_round_trips);
    tcase_add_test(tc, exr_half_rounding);
    tcase_add_test(tc, exr_metadata_and_names);
    tcase_add_test(tc, exr_rejects_integers_and_duplicate_names);
    tcase_add_test(tc, format_from_contents);
    tcase_add_test(tc, quantize_exact);
    tcase_add_test(tc, quantize_dither);
    tcase_add_test(tc, quantize_on_write);
    tcase_add_test(tc, failed_write_keeps_old_file);
    tcase_add_test(tc, missing_and_unknown_files);
    tcase_add_test(tc, truncated_and_corrupt_png);
    tcase_add_test(tc, truncated_and_corrupt_tiff);
    tcase_add_test(tc, truncated_and_corrupt_tiled_tiff);
    tcase_add_test(tc, truncated_and_corrupt_exr);
    tcase_add_test(tc, truncated_and_corrupt_tiled_exr);
    tcase_add_test(tc, tiff_missing_strips);
    tcase_add_test(tc, too_large_images);
    tcase_add_test(tc, only_regular_files_of_bounded_size);
    tcase_add_test(tc, out_of_memory_is_an_error);
    tcase_add_test(tc, size_limits);
    suite_add_tcase(s, tc);
    return s;
}
