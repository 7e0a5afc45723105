# bench/local.mk: benchmarks. `make bench` runs the front-end timing over
# the standard shaders; rtbench has its own fragment.
include $(srcdir)/bench/rtbench.mk

noinst_PROGRAMS += bench/bench_frontend
bench_bench_frontend_SOURCES = bench/bench_frontend.c
bench_bench_frontend_LDADD = rslc/librslc.a -lm

bench: bench/bench_frontend$(EXEEXT)
	bench/bench_frontend $(srcdir)/shaders/*.sl
.PHONY: bench
