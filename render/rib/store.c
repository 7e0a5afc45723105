/*
** store.c: owns the scene data that many things share and nothing
** modifies once made (interned strings, attribute snapshots, shaders,
** lights, parameter arrays), so the graphics state can copy pointers to it
** freely and the whole lot is freed in one place.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/internal.h"

const char *rib_intern(RibStore *st, const char *s)
{
    const char *k = rib_map_key(&st->strings, s);
    if (k)
        return k;
    rib_map_put(&st->strings, s, NULL);
    return rib_map_key(&st->strings, s);
}

void *rib_store_keep(RibStore *st, void *block)
{
    *RIB_PUSH(st->blocks, st->nblocks, st->capblocks) = block;
    return block;
}

RibParam *rib_store_params(RibStore *st, RibParam *p, size_t n)
{
    if (!p)
        return NULL;
    st->paramcounts = rib_grow(st->paramcounts, &st->capparamcounts,
                               st->nparamsets + 1, sizeof *st->paramcounts);
    st->paramcounts[st->nparamsets] = n;
    *RIB_PUSH(st->paramsets, st->nparamsets, st->capparamsets) = p;
    return p;
}

void rib_param_clear(RibParam *p)
{
    free(p->f);
    if (p->s) {
        for (size_t k = 0; k < p->count * (size_t)p->ncomp; k++)
            free(p->s[k]);
        free(p->s);
    }
    p->f = NULL;
    p->s = NULL;
}

void rib_params_free(RibParam *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rib_param_clear(&p[i]);
    free(p);
}

RibParam rib_param_copy(const RibParam *p)
{
    RibParam q = *p;
    size_t n = p->count * (size_t)p->ncomp;
    if (p->f)
        q.f = memcpy(rib_xmalloc(n * sizeof *q.f), p->f, n * sizeof *q.f);
    if (p->s) {
        q.s = rib_xmalloc(n * sizeof *q.s);
        for (size_t i = 0; i < n; i++)
            q.s[i] = rib_xstrdup(p->s[i]);
    }
    return q;
}

void rib_store_free(RibStore *st)
{
    for (size_t i = 0; i < st->nblocks; i++)
        free(st->blocks[i]);
    free(st->blocks);
    for (size_t i = 0; i < st->nparamsets; i++)
        rib_params_free(st->paramsets[i], st->paramcounts[i]);
    free(st->paramsets);
    free(st->paramcounts);
    rib_map_free(&st->strings);
    free(st);
}

const RibParam *rib_param_find(const RibParam *params, size_t n,
                               const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(params[i].name, name) == 0)
            return &params[i];
    return NULL;
}
