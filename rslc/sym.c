/*
** sym.c: the symbol pool and the scope chain.
**
** A scope is an array of its symbols; most are small and searched from
** the end, and one that grows past SCOPE_SEARCH also keeps a hash index
** of names (open addressing), so that thousands of parameters or locals
** are not a quadratic search. The pool allocates symbols in blocks that
** stay put until sym_free_all.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/diag.h"
#include "rslc/sym.h"

#define POOL_BLOCK 256
#define SCOPE_SEARCH 16

typedef struct PoolBlock PoolBlock;
struct PoolBlock {
    PoolBlock *next;
    int used;
    Symbol syms[POOL_BLOCK];
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p)
        diag_die("out of memory");
    return p;
}

Symbol *sym_new(RslcCtx *rc, SymKind kind, const char *name)
{
    if (!rc->pool || rc->pool->used == POOL_BLOCK) {
        PoolBlock *b = xcalloc(1, sizeof *b);
        b->next = rc->pool;
        rc->pool = b;
    }
    Symbol *s = &rc->pool->syms[rc->pool->used++];
    s->kind = kind;
    s->name = name;
    return s;
}

void sym_free_all(RslcCtx *rc)
{
    while (rc->pool) {
        PoolBlock *next = rc->pool->next;
        free(rc->pool);
        rc->pool = next;
    }
}

Scope *scope_push(Scope *parent, bool boundary)
{
    Scope *s = xcalloc(1, sizeof *s);
    s->parent = parent;
    s->boundary = boundary;
    return s;
}

Scope *scope_pop(Scope *s)
{
    Scope *parent = s->parent;
    free(s->syms);
    free(s->index);
    free(s);
    return parent;
}

static unsigned hash(const char *name)
{
    unsigned h = 2166136261u;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h;
}

/* Records syms[i] in the index; a later symbol of the same name replaces
   an earlier one, as the search from the end finds it first. */
static void index_put(Scope *s, int i)
{
    unsigned mask = (unsigned)s->icap - 1, h = hash(s->syms[i]->name) & mask;
    while (s->index[h] && strcmp(s->syms[s->index[h] - 1]->name, s->syms[i]->name) != 0)
        h = (h + 1) & mask;
    s->index[h] = i + 1;
}

void scope_add(Scope *s, Symbol *sym)
{
    if (s->nsyms == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->syms = realloc(s->syms, (size_t)s->cap * sizeof *s->syms);
        if (!s->syms)
            diag_die("out of memory");
    }
    s->syms[s->nsyms++] = sym;
    if (s->nsyms <= SCOPE_SEARCH)
        return;
    if (2 * s->nsyms > s->icap) {
        free(s->index);
        s->icap = 4 * s->cap;
        s->index = xcalloc((size_t)s->icap, sizeof *s->index);
        for (int i = 0; i < s->nsyms; i++)
            index_put(s, i);
    } else {
        index_put(s, s->nsyms - 1);
    }
}

Symbol *scope_find_local(const Scope *s, const char *name)
{
    if (s->index) {
        unsigned mask = (unsigned)s->icap - 1, h = hash(name) & mask;
        for (; s->index[h]; h = (h + 1) & mask)
            if (strcmp(s->syms[s->index[h] - 1]->name, name) == 0)
                return s->syms[s->index[h] - 1];
        return NULL;
    }
    for (int i = s->nsyms - 1; i >= 0; i--)
        if (strcmp(s->syms[i]->name, name) == 0)
            return s->syms[i];
    return NULL;
}

Symbol *scope_find(const Scope *s, const char *name, bool *crossed)
{
    bool beyond = false;
    for (; s; s = s->parent) {
        Symbol *sym = scope_find_local(s, name);
        if (sym) {
            if (crossed)
                *crossed = beyond;
            return sym;
        }
        if (s->boundary)
            beyond = true;
    }
    return NULL;
}
