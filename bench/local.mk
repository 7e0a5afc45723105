# bench/local.mk: benchmarks.
include $(srcdir)/bench/rtbench.mk
