/*
** readimage.h: a test's way to read back a picture a program wrote into
** its scratch folder, failing the test with the reader's message when it
** cannot.
*/
#ifndef TESTS_READIMAGE_H
#define TESTS_READIMAGE_H

#include <check.h>
#include <stdio.h>

#include "render/image/image.h"

static inline Image *read_image_in(const char *dir, const char *name)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Image *img = image_read(path, IMAGE_FORMAT_AUTO, err, sizeof err);
    ck_assert_msg(img != NULL, "%s", err);
    return img;
}

#endif /* TESTS_READIMAGE_H */
