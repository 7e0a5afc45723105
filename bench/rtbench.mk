# bench/rtbench.mk: rtbench, the benchmark of rtcore against Embree 3, and
# its Check test. Everything but main.c goes into bench/librtbench.a so the
# tool and the test link the same objects.

RTBENCH_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/rtcore/include $(ZLIB_CFLAGS)
# librtcore.a dispatches to the per-ISA libraries, so it comes first.
RTBENCH_LIBS = bench/librtbench.a rtcore/librtcore.a rtcore/librtcore_avx512.a \
	rtcore/librtcore_avx2.a \
	rtcore/librtcore_sse42.a $(ZLIB_LIBS) $(PTHREAD_LIBS) -lm

noinst_LIBRARIES += bench/librtbench.a
bench_librtbench_a_CPPFLAGS = $(RTBENCH_CPPFLAGS)
bench_librtbench_a_SOURCES = \
	bench/rtbench/backend.h \
	bench/rtbench/mesh.c bench/rtbench/mesh.h \
	bench/rtbench/options.c bench/rtbench/options.h \
	bench/rtbench/ply.c bench/rtbench/ply.h \
	bench/rtbench/procedural.c bench/rtbench/procedural.h \
	bench/rtbench/rayfile.c bench/rtbench/rayfile.h \
	bench/rtbench/rays.c bench/rtbench/rays.h \
	bench/rtbench/report.c bench/rtbench/report.h \
	bench/rtbench/rtcore_side.c \
	bench/rtbench/trace.c bench/rtbench/trace.h
if HAVE_EMBREE
bench_librtbench_a_SOURCES += bench/rtbench/embree_side.c
RTBENCH_LIBS += -lembree3
endif

# The program sits inside its source directory: a file bench/rtbench
# could not live beside the directory bench/rtbench/.
noinst_PROGRAMS += bench/rtbench/rtbench
bench_rtbench_rtbench_CPPFLAGS = $(RTBENCH_CPPFLAGS)
bench_rtbench_rtbench_SOURCES = bench/rtbench/main.c
bench_rtbench_rtbench_LDADD = $(RTBENCH_LIBS)

check_PROGRAMS += tests/bench/check_rtbench
TESTS += tests/bench/check_rtbench
tests_bench_check_rtbench_SOURCES = tests/bench/check_rtbench.c \
	tests/bench/check_rtbench.h tests/bench/check_ply.c tests/bench/check_rays.c
tests_bench_check_rtbench_CPPFLAGS = $(RTBENCH_CPPFLAGS)
tests_bench_check_rtbench_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_bench_check_rtbench_LDADD = $(RTBENCH_LIBS) $(CHECK_LIBS)

EXTRA_DIST += bench/README.md
