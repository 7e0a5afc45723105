# rtcore/local.mk: the ray-tracing core, floor 1 (it needs nothing of the
# project): the BVH library with its API, builder and traversal kernels,
# and its tests.
#
# librtcore.a holds the API, the builder and the dispatch; the kernels
# live in one library per ISA, built with that ISA's flags, and
# librtcore.a picks one at run time. Link order: librtcore.a first, then
# librtcore_avx512.a, librtcore_avx2.a and librtcore_sse42.a (they need
# nothing from it).
# -ffp-contract=off everywhere: the watertight test must not be fused
# into FMAs (see rtcore/tri.h).

RTCORE_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
RTCORE_LIBS = rtcore/librtcore.a rtcore/librtcore_avx512.a rtcore/librtcore_avx2.a \
	rtcore/librtcore_sse42.a \
	$(PTHREAD_LIBS) -lm

noinst_LIBRARIES += rtcore/librtcore.a rtcore/librtcore_avx512.a rtcore/librtcore_avx2.a \
	rtcore/librtcore_sse42.a

rtcore_librtcore_a_CFLAGS = $(RTCORE_CFLAGS)
rtcore_librtcore_a_SOURCES = \
	rtcore/include/rtcore.h \
	rtcore/bigalloc.c rtcore/bigalloc.h \
	rtcore/build_sah.c rtcore/build_sah.h \
	rtcore/collapse.c rtcore/collapse.h \
	rtcore/commit.c \
	rtcore/device.c rtcore/device.h \
	rtcore/dispatch.c rtcore/dispatch.h \
	rtcore/node.h \
	rtcore/parallel.c rtcore/parallel.h \
	rtcore/query.c \
	rtcore/scene.c rtcore/scene.h \
	rtcore/stream.c \
	rtcore/tri.h \
	rtcore/trav1.c rtcore/trav1.h

RTCORE_KERNEL_INC = rtcore/trav_single.h rtcore/trav_packet.h rtcore/trav_stream.h rtcore/tri.h \
	rtcore/simd/v4.h rtcore/simd/packet_vf.h \
	rtcore/node.h rtcore/dispatch.h

rtcore_librtcore_avx512_a_CFLAGS = $(RTCORE_CFLAGS) -mavx2 -mfma -mavx512f -mavx512vl -mavx512dq
rtcore_librtcore_avx512_a_SOURCES = rtcore/trav_avx512.c rtcore/simd/avx512.h \
	rtcore/simd/avx2.h $(RTCORE_KERNEL_INC)

rtcore_librtcore_avx2_a_CFLAGS = $(RTCORE_CFLAGS) -mavx2 -mfma
rtcore_librtcore_avx2_a_SOURCES = rtcore/trav_avx2.c rtcore/simd/avx2.h \
	$(RTCORE_KERNEL_INC)

rtcore_librtcore_sse42_a_CFLAGS = $(RTCORE_CFLAGS) -msse4.2
rtcore_librtcore_sse42_a_SOURCES = rtcore/trav_sse.c rtcore/simd/sse.h \
	$(RTCORE_KERNEL_INC)

check_PROGRAMS += tests/rtcore/check_rtcore
TESTS += tests/rtcore/check_rtcore
tests_rtcore_check_rtcore_SOURCES = tests/rtcore/check_rtcore.c \
	tests/rtcore/check_rtcore.h tests/rtcore/check_util.c \
	tests/rtcore/check_kernels.c tests/rtcore/check_watertight.c \
	tests/rtcore/check_instance.c tests/rtcore/check_build.c \
	tests/rtcore/check_errors.c tests/rtcore/check_oracle.c
tests_rtcore_check_rtcore_CFLAGS = $(RTCORE_CFLAGS) $(CHECK_CFLAGS)
tests_rtcore_check_rtcore_LDADD = $(RTCORE_LIBS) $(CHECK_LIBS)
