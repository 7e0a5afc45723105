/*
** bigalloc.h: memory for the arrays a query walks (wide nodes, triangle
** blocks). Incoherent rays touch them at random, so on a scene larger
** than the caches nearly every node costs a TLB miss as well as a cache
** miss with 4 KiB pages; arrays of 2 MiB or more are therefore aligned
** to 2 MiB and offered to the kernel for transparent huge pages, as
** Embree does (madvise, the usual Linux setting). Free with free().
*/
#ifndef RTCORE_BIGALLOC_H
#define RTCORE_BIGALLOC_H

#include <stddef.h>

/* At least `bytes` bytes, 64-byte aligned (more for huge-page arrays);
   NULL when out of memory. */
void *rt_big_alloc(size_t bytes);

#endif
