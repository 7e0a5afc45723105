/*
** archive.c: ReadArchive (and Procedural "DelayedReadArchive", read at
** once): finding the file relative to the file that names it, then along
** the archive searchpath, and reading it into the same graphics state.
*/
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/rib/archive.h"
#include "render/rib/lex.h"
#include "render/rib/parse.h"

const char *rib_searchpath(RibCtx *c, const char *value, const char *old,
                           const char *dflt)
{
    size_t n = 1, lo = strlen(old), ld = strlen(dflt);
    for (const char *p = value; *p; p++)
        n += *p == '&' ? lo : *p == '@' ? ld : 1;
    char *buf = rib_xmalloc(n), *q = buf;
    for (const char *p = value; *p; p++) {
        if (*p == '&')
            q = memcpy(q, old, lo), q += lo;
        else if (*p == '@')
            q = memcpy(q, dflt, ld), q += ld;
        else
            *q++ = *p;
    }
    *q = '\0';
    const char *s = rib_intern(c->store, buf);
    free(buf);
    return s;
}

/* dir + '/' + name when that file exists, else NULL; dirlen 0 means the
   name as it is. */
static char *try_path(const char *dir, size_t dirlen, const char *name)
{
    size_t n = strlen(name);
    char *p = rib_xmalloc(dirlen + n + 2);
    memcpy(p, dir, dirlen);
    size_t k = dirlen;
    if (dirlen && dir[dirlen - 1] != '/')
        p[k++] = '/';
    memcpy(p + k, name, n + 1);
    if (access(p, F_OK) == 0)
        return p;
    free(p);
    return NULL;
}

static char *find_archive(RibCtx *c, const char *name)
{
    if (name[0] == '/')
        return try_path("", 0, name);
    const char *slash = strrchr(c->file, '/');
    char *p = try_path(c->file, slash ? (size_t)(slash - c->file + 1) : 0,
                       name);
    const char *dirs = c->options.archive_path;
    while (!p && *dirs) {
        size_t len = strcspn(dirs, ":");
        if (len)
            p = try_path(dirs, len, name);
        dirs += len + (dirs[len] == ':');
    }
    return p;
}

bool rib_parse_file(RibCtx *c, RibLoc at, const char *what)
{
    struct stat sb;
    RibFileId id = {0, 0};
    if (stat(c->file, &sb) == 0) {
        id.dev = (unsigned long long)sb.st_dev;
        id.ino = (unsigned long long)sb.st_ino;
        for (size_t i = 0; i < c->nreading; i++) {
            if (c->reading[i].dev == id.dev && c->reading[i].ino == id.ino) {
                rib_error(c, at, "%s: \"%s\" is already being read; an "
                          "archive cannot include itself", what, c->file);
                return false;
            }
        }
    }
    RibLexer lx;
    if (!rib_lex_open_file(&lx, c, c->file, c->file))
        return false;
    *RIB_PUSH(c->reading, c->nreading, c->capreading) = id;
    rib_parse_stream(c, &lx);
    c->nreading--;
    rib_lex_close(&lx);
    return true;
}

static void read_archive(RibCtx *c, const RibRequest *r, const RibArg *at,
                         const char *name)
{
    if (c->archive_depth >= c->opt.max_archive_depth) {
        rib_error(c, r->loc, "%s: archives nested deeper than %d; \"%s\" "
                  "not read", r->name, c->opt.max_archive_depth, name);
        return;
    }
    char *path = find_archive(c, name);
    if (!path) {
        rib_error(c, at->loc, "%s: cannot find archive \"%s\"", r->name,
                  name);
        return;
    }
    /* A device or FIFO would stream forever ("/dev/zero"): refused here,
       at the request that names it. */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        rib_error(c, at->loc, "%s: \"%s\" is not a regular file", r->name, name);
        free(path);
        return;
    }
    const char *outer = c->file;
    c->file = rib_intern(c->store, path);
    free(path);
    c->archive_depth++;
    rib_parse_file(c, at->loc, r->name);
    c->archive_depth--;
    c->file = outer;
}

void rib_req_ReadArchive(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    const char *name = rib_arg_string(c, r, &pos, "the file name");
    if (name && rib_args_end(c, r, pos))
        read_archive(c, r, &r->args[0], name);
}

void rib_req_Procedural(RibCtx *c, const RibRequest *r)
{
    size_t pos = 0;
    double bound[6];
    const char *kind = rib_arg_string(c, r, &pos, "the procedural");
    if (!kind)
        return;
    if (strcmp(kind, "DelayedReadArchive") != 0) {
        rib_unsupported(c, r->loc, "Procedural \"%s\" is not supported; ignored",
                    kind);
        return;
    }
    const RibArg *args = &r->args[pos < r->nargs ? pos : 0];
    if (pos >= r->nargs || args->kind != RIB_ARG_STRINGS || args->n < 1) {
        rib_error(c, r->loc, "Procedural: expected [\"filename\"]");
        return;
    }
    pos++;
    if (rib_arg_numbers(c, r, &pos, 6, bound, "the bound") &&
        rib_args_end(c, r, pos))
        read_archive(c, r, args, args->strs[0]);
}
