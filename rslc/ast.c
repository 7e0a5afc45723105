/*
** ast.c: the AST's storage (one arena for nodes, units and interned
** strings), its list helpers, its names, and the --dump-ast printer.
**
** Everything a compilation allocates here lives until ast_free_all, so
** the parser never frees anything on its error paths.
*/
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rslc/ast.h"
#include "rslc/diag.h"

/* ---- the arena --------------------------------------------------------------- */

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    max_align_t data[];
} Chunk;

enum { CHUNK_SIZE = 64 * 1024 };

static void *arena_alloc(RslcCtx *rc, size_t size)
{
    size = (size + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
    if (!rc->chunks || rc->chunks->cap - rc->chunks->used < size) {
        size_t cap = size > CHUNK_SIZE ? size : CHUNK_SIZE;
        Chunk *c = malloc(sizeof *c + cap);
        if (!c)
            diag_die("out of memory");
        c->cap = cap;
        c->used = 0;
        /* A chunk made for one big string should not strand the space
           left in the current one. */
        if (rc->chunks && cap > CHUNK_SIZE) {
            c->next = rc->chunks->next;
            rc->chunks->next = c;
        } else {
            c->next = rc->chunks;
            rc->chunks = c;
        }
        c->used = size;
        return c->data;
    }
    void *p = (char *)rc->chunks->data + rc->chunks->used;
    rc->chunks->used += size;
    return p;
}

Node *ast_new(RslcCtx *rc, NodeKind kind, SrcLoc loc)
{
    Node *n = arena_alloc(rc, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    return n;
}

Unit *ast_new_unit(RslcCtx *rc)
{
    Unit *u = arena_alloc(rc, sizeof *u);
    memset(u, 0, sizeof *u);
    return u;
}

Node *ast_append(Node *a, Node *b)
{
    if (!a)
        return b;
    Node *t = a;
    while (t->next)
        t = t->next;
    t->next = b;
    return a;
}

int ast_list_len(const Node *list)
{
    int n = 0;
    for (; list; list = list->next)
        n++;
    return n;
}

typedef struct DepthItem {
    const Node *n;
    int depth;
} DepthItem;

typedef struct DepthStack {
    DepthItem *items;
    size_t top, cap;
} DepthStack;

static void depth_push(DepthStack *st, const Node *list, int depth)
{
    for (const Node *n = list; n; n = n->next) {
        if (st->top == st->cap) {
            st->cap = st->cap ? st->cap * 2 : 256;
            DepthItem *bigger = realloc(st->items, st->cap * sizeof *bigger);
            if (!bigger)
                diag_die("out of memory");
            st->items = bigger;
        }
        st->items[st->top++] = (DepthItem){ n, depth };
    }
}

/* Walks with an explicit stack: the tree may be deeper than the C stack
   could follow, which is exactly what this guards against. */
const Node *ast_too_deep(const Unit *unit, int limit)
{
    DepthStack st = { NULL, 0, 0 };
    const Node *deep = NULL;
    depth_push(&st, unit->defs, 1);
    while (st.top > 0) {
        DepthItem it = st.items[--st.top];
        if (it.depth > limit) {
            deep = it.n;
            break;
        }
        for (int k = 0; k < 4; k++)
            depth_push(&st, it.n->kid[k], it.depth + 1);
    }
    free(st.items);
    return deep;
}

/* ---- interned strings ---------------------------------------------------- */

/* Open addressing in rc->intern; the table holds at most half its slots. */

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;      /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void table_grow(RslcCtx *rc)
{
    size_t cap = rc->intern_cap ? rc->intern_cap * 2 : 1024;
    const char **bigger = calloc(cap, sizeof *bigger);
    if (!bigger)
        diag_die("out of memory");
    for (size_t i = 0; i < rc->intern_cap; i++) {
        if (!rc->intern[i])
            continue;
        size_t j = hash(rc->intern[i]) & (cap - 1);
        while (bigger[j])
            j = (j + 1) & (cap - 1);
        bigger[j] = rc->intern[i];
    }
    free(rc->intern);
    rc->intern = bigger;
    rc->intern_cap = cap;
}

const char *ast_intern(RslcCtx *rc, const char *s)
{
    if ((rc->intern_count + 1) * 2 > rc->intern_cap)
        table_grow(rc);
    size_t i = hash(s) & (rc->intern_cap - 1);
    for (; rc->intern[i]; i = (i + 1) & (rc->intern_cap - 1))
        if (strcmp(rc->intern[i], s) == 0)
            return rc->intern[i];
    size_t len = strlen(s) + 1;
    char *copy = arena_alloc(rc, len);
    memcpy(copy, s, len);
    rc->intern[i] = copy;
    rc->intern_count++;
    return copy;
}

void ast_free_all(RslcCtx *rc)
{
    while (rc->chunks) {
        Chunk *next = rc->chunks->next;
        free(rc->chunks);
        rc->chunks = next;
    }
    free(rc->intern);
    rc->intern = NULL;
    rc->intern_cap = rc->intern_count = 0;
}

/* ---- names ------------------------------------------------------------------- */

const char *ast_kind_name(NodeKind kind)
{
    static const char names[][16] = {
#define X(k) #k,
        NODE_KINDS(X)
#undef X
    };
    return (unsigned)kind < N_NKINDS ? names[kind] : "N_?";
}

const char *ast_op_name(Op op)
{
    /* ORDER OP */
    static const char names[][3] = {
        "?", "+", "-", "*", "/", ".", "^", "<", "<=", ">", ">=", "==", "!=",
        "&&", "||", "-", "!", "=",
    };
    return (unsigned)op < sizeof names / sizeof names[0] ? names[op] : "?";
}

/* ---- the dump -------------------------------------------------------------------- */

void ast_print_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(out, "\\%03o", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static const char *detail_name(Detail d)
{
    return d == DETAIL_UNIFORM ? "uniform" : d == DETAIL_VARYING ? "varying" : NULL;
}

static void dump_spec(FILE *out, const DeclSpec *spec)
{
    if (spec->is_extern)
        fputs(" extern", out);
    if (spec->output)
        fputs(" output", out);
    if (detail_name(spec->detail))
        fprintf(out, " %s", detail_name(spec->detail));
    fprintf(out, " %s", type_name(spec->type).s);
}

/* The kind-specific fields of a node's line. */
static void dump_fields(FILE *out, const Node *n)
{
    switch (n->kind) {
    case N_SHADER:
        fprintf(out, " %s", shader_kind_name(n->shader));
        break;
    case N_FUNCTION:
    case N_VARDECL:
        dump_spec(out, &n->spec);
        break;
    case N_CAST:
        fprintf(out, " %s", type_base_name(n->spec.type.base));
        break;
    case N_UNARY:
    case N_BINARY:
        fprintf(out, " %s", ast_op_name(n->op));
        break;
    case N_ASSIGN:
        fprintf(out, " %s=", n->op == OP_ASSIGN ? "" : ast_op_name(n->op));
        break;
    case N_FLOATLIT:
    case N_BREAK:
    case N_CONTINUE:
        fprintf(out, " %g", n->num);
        break;
    default:
        break;
    }
    if (n->name) {
        fputc(' ', out);
        ast_print_string(out, n->name);
    }
}

/* *file: the file of the previous line printed; a location names its
   file only when that changes. */
static void dump_node(FILE *out, const Node *n, int depth, const char **file)
{
    fprintf(out, "%*s%s", depth * 2, "", ast_kind_name(n->kind));
    dump_fields(out, n);
    if (n->loc.file && n->loc.file != *file) {
        *file = n->loc.file;
        fprintf(out, " @%s:%d:%d", n->loc.file, n->loc.line, n->loc.col);
    } else {
        fprintf(out, " @%d:%d", n->loc.line, n->loc.col);
    }
    if (n->type.base != TY_ERROR) {
        fprintf(out, " : %s", type_name(n->type).s);
        if (detail_name(n->detail))
            fprintf(out, " %s", detail_name(n->detail));
    }
    fputc('\n', out);

    /* Children in order, each list element on its own line; an empty slot
       before a filled one (a for without a condition) shows as "(none)". */
    int last = 3;
    while (last >= 0 && !n->kid[last])
        last--;
    for (int i = 0; i <= last; i++) {
        if (!n->kid[i])
            fprintf(out, "%*s(none)\n", (depth + 1) * 2, "");
        for (const Node *k = n->kid[i]; k; k = k->next)
            dump_node(out, k, depth + 1, file);
    }
}

void ast_dump(FILE *out, const Unit *unit)
{
    const char *file = NULL;
    for (const Node *d = unit->defs; d; d = d->next)
        dump_node(out, d, 0, &file);
}
