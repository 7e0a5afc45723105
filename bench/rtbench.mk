# bench/rtbench.mk: rtbench, the ray-tracing benchmark.
