/*
** bigalloc.c: 64-byte aligned arrays, on transparent huge pages where
** they are large enough to gain from them (bigalloc.h).
*/
#include "config.h"
#include "rtcore/bigalloc.h"

#include <stdlib.h>
#if defined(__has_include)
#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif
#endif

enum { HUGE_PAGE = 2 << 20 };

void *rt_big_alloc(size_t bytes)
{
    /* aligned_alloc wants a multiple of the alignment */
    if (bytes < HUGE_PAGE)
        return aligned_alloc(64, bytes ? (bytes + 63) & ~(size_t)63 : 64);
    size_t n = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, n);
#ifdef MADV_HUGEPAGE
    /* only a hint: where the kernel declines, 4 KiB pages serve */
    if (p)
        madvise(p, n, MADV_HUGEPAGE);
#endif
    return p;
}
