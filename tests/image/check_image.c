/*
** check_image.c: runs the image suites (file I/O and quantization, the
** PNG, JPEG and HDR readers, the texture system) in a scratch directory of their own, and the helpers
** they share.
*/
#include "config.h"
#include "tests/image/check_image.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch_dir[256];

const char *scratch(const char *name)
{
    static char ring[8][512];
    static int next;
    char *p = ring[next++ % 8];
    snprintf(p, sizeof ring[0], "%s/%s", scratch_dir, name);
    return p;
}

uint8_t *read_bytes(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *d = malloc((size_t)n + 1);
    ck_assert(d && fread(d, 1, (size_t)n, fp) == (size_t)n);
    fclose(fp);
    *size = (size_t)n;
    return d;
}

void write_bytes(const char *path, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    ck_assert_msg(fp != NULL, "cannot create %s", path);
    ck_assert(fwrite(data, 1, size, fp) == size);
    fclose(fp);
}

void expect_error(const char *err, const char *path, const char *what)
{
    char prefix[600];
    snprintf(prefix, sizeof prefix, "%s: error: ", path);
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "error '%s' does not start with '%s'",
                  err, prefix);
    ck_assert_msg(strstr(err, what) != NULL, "error '%s' does not say '%s'", err, what);
}

Image *make_image(int w, int h, int c, float (*fn)(int x, int y, int c))
{
    Image *img = image_new(w, h, c);
    ck_assert(img != NULL);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int k = 0; k < c; k++)
                image_pixel(img, x, y)[k] = fn(x, y, k);
    return img;
}

void every_prefix_fails(const char *path, const char *what)
{
    char err[512];
    size_t n;
    uint8_t *good = read_bytes(path, &n);
    Image *whole = image_decode(good, n, path, IMAGE_FORMAT_AUTO, err, sizeof err);
    ck_assert_msg(whole != NULL, "%s", err);
    image_free(whole);
    const char *bad = scratch("bad.bin");
    for (size_t len = 0; len < n; len += len < 64 ? 1 : n / 53 + 1) {
        size_t cut = len + 1 >= n || len < 64 ? len : n - 1 - len % 7; /* some near the end */
        Image *got = image_decode(good, cut, bad, IMAGE_FORMAT_AUTO, err, sizeof err);
        ck_assert_msg(got == NULL, "%s cut to %zu of %zu bytes still read", path, cut, n);
        expect_error(err, bad, what);
    }
    free(good);
}

static void remove_scratch(void)
{
    DIR *d = opendir(scratch_dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(scratch(e->d_name));
    closedir(d);
    rmdir(scratch_dir);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch_dir, sizeof scratch_dir, "%s/check_image.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch_dir)) {
        perror("check_image: mkdtemp");
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(io_suite());
    srunner_add_suite(sr, formats_suite());
    srunner_add_suite(sr, texture_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    remove_scratch();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
