/*
** check_image.h: what the image Check suites share: a scratch directory
** per test program, file helpers, and synthetic images.
*/
#ifndef CHECK_IMAGE_H
#define CHECK_IMAGE_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/image/image.h"

/* A path in the scratch directory (made once, removed at exit); the
   result is a static buffer of a small ring, valid for a few calls. */
const char *scratch(const char *name);

/* Whole-file helpers; read_bytes returns malloc'ed data. */
uint8_t *read_bytes(const char *path, size_t *size);
void write_bytes(const char *path, const void *data, size_t size);

/* Asserts that err starts with "path: error: " and contains `what`. */
void expect_error(const char *err, const char *path, const char *what);

/* Every prefix of the file at `path` (which reads) fails with an error
   containing `what`: the first 64 cuts and about 50 more spread over the
   rest, the last byte included. */
void every_prefix_fails(const char *path, const char *what);

/* An image whose value at (x, y, c) is fn(x, y, c). */
Image *make_image(int w, int h, int c, float (*fn)(int x, int y, int c));

Suite *io_suite(void);
Suite *formats_suite(void);
Suite *texture_suite(void);

#endif /* CHECK_IMAGE_H */
