# render/image/local.mk: the renderer's image layer, floor 4
# (librtimage.a): image files in and out (libpng, libjpeg, our own HDR
# reader, libtiff, OpenEXR Core), RiQuantize, and the texture system
# behind VmHost's texture, environment and shadow lookups.

IMAGE_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS) $(JPEG_CFLAGS) $(TIFF_CFLAGS) $(OPENEXR_CFLAGS)
IMAGE_LIBS = render/image/librtimage.a $(PNG_LIBS) $(JPEG_LIBS) $(TIFF_LIBS) $(OPENEXR_LIBS) \
	runtime/libruntime.a \
	$(PTHREAD_LIBS) -lm

noinst_LIBRARIES += render/image/librtimage.a
render_image_librtimage_a_CFLAGS = $(IMAGE_CFLAGS)
render_image_librtimage_a_SOURCES = \
	render/image/image.h render/image/image_impl.h render/image/image.c \
	render/image/image_png.c render/image/image_jpeg.c render/image/image_hdr.c \
	render/image/image_tiff.c render/image/image_exr.c \
	render/image/texture.h render/image/texture.c \
	render/image/pathfind.h render/image/pathfind.c

check_PROGRAMS += tests/image/check_image
TESTS += tests/image/check_image
tests_image_check_image_SOURCES = tests/image/check_image.c tests/image/check_image.h \
	tests/image/check_io.c tests/image/check_formats.c tests/image/check_texture.c
tests_image_check_image_CFLAGS = $(IMAGE_CFLAGS) $(ZLIB_CFLAGS) $(CHECK_CFLAGS)
tests_image_check_image_LDADD = $(IMAGE_LIBS) $(ZLIB_LIBS) $(CHECK_LIBS)
