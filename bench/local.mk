# bench/local.mk: benchmarks, floor 6, the top: they may include any
# floor. `make bench` runs the front-end timing, the optimiser's effect
# (bench_ir), the VM and the renderer over the standard shaders and
# scenes; rtbench has its own fragment.
include $(srcdir)/bench/rtbench.mk

noinst_PROGRAMS += bench/bench_frontend
bench_bench_frontend_SOURCES = bench/bench_frontend.c
bench_bench_frontend_LDADD = $(RSLC_LIBS)

noinst_PROGRAMS += bench/bench_ir
bench_bench_ir_SOURCES = bench/bench_ir.c
bench_bench_ir_LDADD = $(COMPILER_LIBS)

noinst_PROGRAMS += bench/bench_vm
bench_bench_vm_SOURCES = bench/bench_vm.c
bench_bench_vm_LDADD = $(NATIVE_LIBS)

noinst_PROGRAMS += bench/bench_ptx
bench_bench_ptx_SOURCES = bench/bench_ptx.c
bench_bench_ptx_LDADD = $(NATIVE_LIBS)

noinst_PROGRAMS += bench/bench_render
bench_bench_render_SOURCES = bench/bench_render.c
bench_bench_render_LDADD = $(RENDER_LIBS)

# Our path tracer against Embree's pathtracer tutorial (embree-tools).
noinst_PROGRAMS += bench/bench_pathtracer
bench_bench_pathtracer_SOURCES = bench/bench_pathtracer.c bench/embree_cornell.h \
	bench/embree_cornell.c
bench_bench_pathtracer_LDADD = $(RENDER_LIBS)

# The image metric of scripts/measure-content (public scenes against
# their reference images).
noinst_PROGRAMS += bench/content_diff
bench_content_diff_SOURCES = bench/content_diff.c
bench_content_diff_CFLAGS = $(IMAGE_CFLAGS)
bench_content_diff_LDADD = $(IMAGE_LIBS)

bench: bench/bench_frontend$(EXEEXT) bench/bench_ir$(EXEEXT) bench/bench_vm$(EXEEXT) \
		bench/bench_render$(EXEEXT) bench/bench_pathtracer$(EXEEXT) bench/bench_ptx$(EXEEXT)
	bench/bench_frontend $(srcdir)/shaders/*.sl
	bench/bench_ir $(srcdir)/shaders/*.sl
	bench/bench_vm $(srcdir)/shaders/*.sl $(srcdir)/bench/shaders/*.sl
	bench/bench_ptx $(srcdir)/shaders/*.sl
	bench/bench_render $(srcdir)/scenes/gallery.rib $(srcdir)/scenes/cornell.rib \
		$(srcdir)/scenes/textured.rib
	bench/bench_pathtracer || test $$? = 77
.PHONY: bench

# Shaders only bench_vm runs (bench/shaders/texoptions.sl: lookups with
# options on the test host's maps).
EXTRA_DIST += bench/shaders
