/*
** sym.c: the symbol pool and the scope chain.
**
** Scopes are small (a shader's locals, a function's formals), so each is
** a plain array searched from its end; the pool allocates symbols in
** blocks that stay put until sym_free_all.
*/
#include <stdlib.h>
#include <string.h>

#include "rslc/diag.h"
#include "rslc/sym.h"

#define POOL_BLOCK 256

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
    free(s);
    return parent;
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
}

Symbol *scope_find_local(const Scope *s, const char *name)
{
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
