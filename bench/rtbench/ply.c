/*
** ply.c: the PLY loader. The header is parsed into element and property
** descriptions; the body is then read item by item, keeping x/y/z of
** "vertex" and the vertex_indices list of "face" and skipping everything
** else by its type. Every count in the file is treated as untrusted: nothing
** is allocated from a header count, so a lying header ends in a clean
** "unexpected end of file" rather than a huge allocation.
*/
#include "bench/rtbench/ply.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { MAX_ELEMS = 16, MAX_PROPS = 64, MAX_LINE = 1024, NAME_LEN = 64 };

typedef enum { T_NONE, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_F32, T_F64 } Type;

static const struct { const char *name, *alias; int size; } type_info[] = {
    [T_I8] = { "char", "int8", 1 },     [T_U8] = { "uchar", "uint8", 1 },
    [T_I16] = { "short", "int16", 2 },  [T_U16] = { "ushort", "uint16", 2 },
    [T_I32] = { "int", "int32", 4 },    [T_U32] = { "uint", "uint32", 4 },
    [T_F32] = { "float", "float32", 4 }, [T_F64] = { "double", "float64", 8 },
};

typedef struct Prop {
    char name[NAME_LEN];
    Type type;
    Type count_type;    /* T_NONE for a scalar, the length's type for a list */
} Prop;

typedef struct Elem {
    char name[NAME_LEN];
    uint64_t count;
    Prop props[MAX_PROPS];
    int nprops;
} Elem;

typedef enum { FMT_NONE, FMT_ASCII, FMT_LE, FMT_BE } Format;

typedef struct Reader {
    gzFile gz;
    const char *path;
    char *err;
    size_t errlen;
    Format format;
    size_t pos, len;
    unsigned char buf[1 << 16];
} Reader;

static bool fail(Reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errlen, "%s: error: ", r->path);
    if (n >= 0 && (size_t)n < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->errlen - n, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Next byte, or -1 at the end of the data (or on a read error). */
static int next_byte(Reader *r)
{
    if (r->pos == r->len) {
        int n = gzread(r->gz, r->buf, sizeof r->buf);
        if (n <= 0)
            return -1;
        r->pos = 0;
        r->len = (size_t)n;
    }
    return r->buf[r->pos++];
}

/* Names what ended the data: a plain end, or zlib's complaint about a
   damaged or truncated gzip stream. */
static bool fail_eof(Reader *r, const char *where, uint64_t item,
                     uint64_t count)
{
    int code;
    const char *msg = gzerror(r->gz, &code);
    if (code != Z_OK && code != Z_STREAM_END)
        return fail(r, "%s in %s %llu of %llu", msg, where,
                    (unsigned long long)item, (unsigned long long)count);
    return fail(r, "unexpected end of file in %s %llu of %llu", where,
                (unsigned long long)item, (unsigned long long)count);
}

/* ---- header ---------------------------------------------------------------- */

static bool read_line(Reader *r, char *line)
{
    size_t n = 0;
    int c;
    while ((c = next_byte(r)) != '\n') {
        if (c < 0)
            return fail(r, "unexpected end of file in the header");
        if (c == 0 || n + 1 == MAX_LINE)
            return fail(r, "header line too long or not text");
        line[n++] = (char)c;
    }
    if (n > 0 && line[n - 1] == '\r')
        n--;
    line[n] = 0;
    return true;
}

static Type type_named(const char *s)
{
    for (Type t = T_I8; t <= T_F64; t++)
        if (strcmp(s, type_info[t].name) == 0 || strcmp(s, type_info[t].alias) == 0)
            return t;
    return T_NONE;
}

static bool parse_property(Reader *r, Elem *e, char **save)
{
    if (e->nprops == MAX_PROPS)
        return fail(r, "element %s has more than %d properties", e->name, MAX_PROPS);
    Prop *p = &e->props[e->nprops++];
    const char *tok = strtok_r(NULL, " \t", save);
    p->count_type = T_NONE;
    if (tok && strcmp(tok, "list") == 0) {
        const char *ct = strtok_r(NULL, " \t", save);
        p->count_type = ct ? type_named(ct) : T_NONE;
        if (p->count_type == T_NONE || p->count_type >= T_F32)
            return fail(r, "bad list count type '%s'", ct ? ct : "");
        tok = strtok_r(NULL, " \t", save);
    }
    p->type = tok ? type_named(tok) : T_NONE;
    if (p->type == T_NONE)
        return fail(r, "bad property type '%s'", tok ? tok : "");
    const char *name = strtok_r(NULL, " \t", save);
    if (!name || strlen(name) >= NAME_LEN)
        return fail(r, "bad property name");
    strcpy(p->name, name);
    return true;
}

static bool parse_element(Reader *r, Elem *e, char **save)
{
    const char *name = strtok_r(NULL, " \t", save);
    const char *count = strtok_r(NULL, " \t", save);
    if (!name || strlen(name) >= NAME_LEN || !count)
        return fail(r, "bad element line");
    char *end;
    errno = 0;
    unsigned long long n = strtoull(count, &end, 10);
    if (*end || count[0] == '-' || errno)
        return fail(r, "bad count '%s' for element %s", count, name);
    /* Vertex and primitive ids are 32-bit in both ray tracers. */
    if (n > UINT32_MAX)
        return fail(r, "element %s: count %llu too large", name, n);
    strcpy(e->name, name);
    e->count = n;
    e->nprops = 0;
    return true;
}

static bool parse_header(Reader *r, Elem *elems, int *nelems)
{
    char line[MAX_LINE];
    if (!read_line(r, line) || strcmp(line, "ply") != 0)
        return fail(r, "not a PLY file (no 'ply' magic)");
    *nelems = 0;
    for (;;) {
        if (!read_line(r, line))
            return false;
        char *save, *kw = strtok_r(line, " \t", &save);
        if (!kw || strcmp(kw, "comment") == 0 || strcmp(kw, "obj_info") == 0)
            continue;
        if (strcmp(kw, "end_header") == 0)
            break;
        if (strcmp(kw, "format") == 0) {
            const char *f = strtok_r(NULL, " \t", &save);
            const char *v = strtok_r(NULL, " \t", &save);
            r->format = !f ? FMT_NONE
                        : strcmp(f, "ascii") == 0 ? FMT_ASCII
                        : strcmp(f, "binary_little_endian") == 0 ? FMT_LE
                        : strcmp(f, "binary_big_endian") == 0 ? FMT_BE : FMT_NONE;
            if (r->format == FMT_NONE || !v || strcmp(v, "1.0") != 0)
                return fail(r, "unsupported format line");
        } else if (strcmp(kw, "element") == 0) {
            if (*nelems == MAX_ELEMS)
                return fail(r, "more than %d elements", MAX_ELEMS);
            if (!parse_element(r, &elems[(*nelems)++], &save))
                return false;
        } else if (strcmp(kw, "property") == 0) {
            if (*nelems == 0)
                return fail(r, "property before any element");
            if (!parse_property(r, &elems[*nelems - 1], &save))
                return false;
        } else {
            return fail(r, "unknown header keyword '%s'", kw);
        }
    }
    if (r->format == FMT_NONE)
        return fail(r, "no format line in the header");
    return true;
}

/* ---- body ------------------------------------------------------------------ */

/* Reads one value of type t as a double (exact for every PLY type). False at
   the end of the data or on a malformed ascii number, with *bad set for the
   latter. */
static bool read_value(Reader *r, Type t, double *out, bool *bad)
{
    if (r->format == FMT_ASCII) {
        char tok[64];
        size_t n = 0;
        int c;
        while ((c = next_byte(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
            ;
        while (c >= 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            if (n + 1 == sizeof tok)
                return !(*bad = true);
            tok[n++] = (char)c;
            c = next_byte(r);
        }
        if (n == 0)
            return false;
        tok[n] = 0;
        char *end;
        /* strtof for floats: going through double could round twice. */
        *out = t == T_F32 ? strtof(tok, &end) : strtod(tok, &end);
        if (*end || (t < T_F32 && *out != floor(*out)))
            return !(*bad = true);
        return true;
    }
    int size = type_info[t].size;
    uint64_t bits = 0;
    for (int i = 0; i < size; i++) {
        int c = next_byte(r);
        if (c < 0)
            return false;
        int shift = r->format == FMT_LE ? 8 * i : 8 * (size - 1 - i);
        bits |= (uint64_t)c << shift;
    }
    switch (t) {
    case T_I8: *out = (int8_t)bits; break;
    case T_I16: *out = (int16_t)bits; break;
    case T_I32: *out = (int32_t)bits; break;
    case T_F32: { uint32_t b32 = (uint32_t)bits; float f; memcpy(&f, &b32, 4); *out = f; break; }
    case T_F64: memcpy(out, &bits, 8); break;
    default: *out = (double)bits; break;
    }
    return true;
}

typedef struct Target {
    Mesh *m;
    bool vertex;            /* the element is "vertex": store a point per item */
    uint64_t nverts;        /* declared vertex count, for index checks */
    int xyz[MAX_PROPS];     /* which coordinate a property is, or -1 */
    int index_list;         /* face: the vertex_indices property, or -1 */
} Target;

/* Reads one property of item i of e: a scalar, or a list (fanning it into
   triangles when it is the face's index list). */
static bool read_property(Reader *r, const Elem *e, uint64_t i, int p,
                          const Target *t, double xyz[3])
{
    const Prop *pr = &e->props[p];
    bool bad = false;
    double v, len = 1;
    uint32_t first = 0, prev = 0;
    if (pr->count_type != T_NONE && !read_value(r, pr->count_type, &len, &bad))
        goto ended;
    if (len < 0)
        return fail(r, "%s %llu: negative list length", e->name,
                    (unsigned long long)i);
    for (double j = 0; j < len; j++) {
        if (!read_value(r, pr->type, &v, &bad))
            goto ended;
        if (p == t->index_list) {
            if (v < 0 || v >= (double)t->nverts)
                return fail(r, "%s %llu: vertex index %.0f out of range (%llu vertices)",
                            e->name, (unsigned long long)i, v,
                            (unsigned long long)t->nverts);
            if (j == 0)
                first = (uint32_t)v;
            else if (j >= 2 && !mesh_add_tri(t->m, first, prev, (uint32_t)v))
                return fail(r, "out of memory");
            prev = (uint32_t)v;
        } else if (t->xyz[p] >= 0) {
            xyz[t->xyz[p]] = v;
        }
    }
    return true;
ended:
    if (bad)
        return fail(r, "%s %llu: malformed number", e->name, (unsigned long long)i);
    return fail_eof(r, e->name, i, e->count);
}

static bool read_element(Reader *r, const Elem *e, const Target *t)
{
    for (uint64_t i = 0; i < e->count; i++) {
        double xyz[3] = { 0, 0, 0 };
        for (int p = 0; p < e->nprops; p++)
            if (!read_property(r, e, i, p, t, xyz))
                return false;
        if (t->vertex && !mesh_add_vertex(t->m, (float)xyz[0], (float)xyz[1],
                                          (float)xyz[2]))
            return fail(r, "out of memory");
    }
    return true;
}

/* Sets up target for element e: which properties to keep and checks that
   the ones needed are there and of a usable shape. */
static bool make_target(Reader *r, const Elem *e, Target *t)
{
    static const char *const coord[3] = { "x", "y", "z" };
    int found = 0;
    t->vertex = strcmp(e->name, "vertex") == 0;
    t->index_list = -1;
    for (int p = 0; p < e->nprops; p++) {
        const Prop *pr = &e->props[p];
        t->xyz[p] = -1;
        for (int k = 0; t->vertex && k < 3; k++)
            if (strcmp(pr->name, coord[k]) == 0) {
                if (pr->count_type != T_NONE)
                    return fail(r, "vertex property %s is a list", pr->name);
                t->xyz[p] = k;
                found |= 1 << k;
            }
        if (strcmp(e->name, "face") == 0 &&
            (strcmp(pr->name, "vertex_indices") == 0 ||
             strcmp(pr->name, "vertex_index") == 0)) {
            if (pr->count_type == T_NONE || pr->type >= T_F32)
                return fail(r, "face property %s is not an integer list", pr->name);
            t->index_list = p;
        }
    }
    if (t->vertex && found != 7)
        return fail(r, "vertex element lacks x, y or z");
    if (strcmp(e->name, "face") == 0 && t->index_list < 0)
        return fail(r, "face element has no vertex_indices list");
    return true;
}

static bool load(Reader *r, Mesh *m)
{
    Elem *elems = malloc(MAX_ELEMS * sizeof *elems);
    int nelems = 0;
    bool ok = elems && parse_header(r, elems, &nelems);
    const Elem *vertex = NULL, *face = NULL;
    for (int i = 0; ok && i < nelems; i++) {
        if (strcmp(elems[i].name, "vertex") == 0)
            vertex = &elems[i];
        if (strcmp(elems[i].name, "face") == 0)
            face = &elems[i];
    }
    if (ok && (!vertex || !face))
        ok = fail(r, "no %s element", vertex ? "face" : "vertex");
    for (int i = 0; ok && i < nelems; i++) {
        Target t = { .m = m, .nverts = vertex->count };
        ok = make_target(r, &elems[i], &t) && read_element(r, &elems[i], &t);
    }
    free(elems);
    return ok;
}

bool ply_load(const char *path, Mesh *m, char *err, size_t errlen)
{
    Reader *r = malloc(sizeof *r);
    if (!r) {
        snprintf(err, errlen, "%s: error: out of memory", path);
        return false;
    }
    *r = (Reader){ .path = path, .err = err, .errlen = errlen };
    /* gzread recognises the gzip magic bytes itself and passes any other
       file through unchanged, so one reader serves both. */
    r->gz = gzopen(path, "rb");
    bool ok = r->gz ? load(r, m)
                    : fail(r, "cannot open: %s", strerror(errno ? errno : ENOMEM));
    if (r->gz)
        gzclose(r->gz);
    if (!ok)
        mesh_free(m);
    free(r);
    return ok;
}
