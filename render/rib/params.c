/*
** params.c: reads a request's "token" value parameter list into typed
** RibParams, resolving each token by its inline declaration, the
** Option/Attribute category's names, or the Declare table.
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/request.h"

/* Finds the declaration of token; fills *name with the interned name the
   parameter gets. Reports and returns false when there is none: an error
   for a geometric parameter (RISpec's undeclared token), a warning for
   an Option/Attribute name, which may belong to another renderer. A
   shader's undeclared parameter (untyped_ok) is kept untyped instead:
   the renderer types it from the shader. */
static bool resolve(RibCtx *c, const RibRequest *r, const RibArg *tok,
                    const char *category, const RibArg *val, bool untyped_ok,
                    RibDecl *d, const char **name, bool *untyped)
{
    *untyped = false;
    const char *text = tok->strs[0];
    char buf[512];
    if (strpbrk(text, " \t\n")) {
        const char *nm;
        size_t len;
        if (!rib_decl_parse(text, d, &nm, &len) || !nm) {
            rib_error(c, tok->loc, "malformed inline declaration \"%s\"",
                      text);
            return false;
        }
        snprintf(buf, sizeof buf, "%s%s%.*s", category ? category : "",
                 category ? ":" : "", (int)len, nm);
        *name = rib_intern(c->store, buf);
        return true;
    }
    snprintf(buf, sizeof buf, "%s%s%s", category ? category : "",
             category ? ":" : "", text);
    const RibDecl *found = rib_map_get(&c->decls, buf);
    if (!found && untyped_ok) {
        /* A shader parameter the renderer types from the shader. */
        bool strings = val->kind == RIB_ARG_STRING || val->kind == RIB_ARG_STRINGS;
        *d = (RibDecl){ strings ? RIB_TYPE_STRING : RIB_TYPE_FLOAT, RIB_CLASS_UNIFORM, 0, 1 };
        *name = rib_intern(c->store, buf);
        *untyped = true;
        return true;
    }
    if (!found) {
        if (category)
            rib_warning(c, tok->loc, "%s: unknown \"%s\" \"%s\" ignored",
                        r->name, category, text);
        else if (strcmp(r->name, "Display") == 0)
            /* a display driver's own parameter ("compression", ...) */
            rib_unsupported(c, tok->loc, "Display: undeclared parameter \"%s\" ignored (not "
                            "one rtrender's displays take)", text);
        else
            rib_error(c, tok->loc, "%s: undeclared parameter \"%s\" "
                      "skipped", r->name, text);
        return false;
    }
    *d = *found;
    *name = rib_intern(c->store, buf);
    return true;
}

/* Checks val against d and makes the parameter; false after an error. */
static bool make_param(RibCtx *c, const RibRequest *r, const RibDecl *d,
                       const char *name, const RibArg *val, RibParam *p)
{
    bool want_strings = d->type == RIB_TYPE_STRING;
    bool got_strings = val->kind == RIB_ARG_STRING ||
                       val->kind == RIB_ARG_STRINGS;
    if (want_strings != got_strings) {
        rib_error(c, val->loc, "%s: parameter \"%s\" (%s) needs %s values",
                  r->name, name, rib_type_name(d->type),
                  want_strings ? "string" : "numeric");
        return false;
    }
    if (val->n == 0 || val->n % (size_t)d->ncomp != 0) {
        rib_error(c, val->loc,
                  "%s: parameter \"%s\" has %zu values, not a positive "
                  "multiple of %d",
                  r->name, name, val->n, d->ncomp);
        return false;
    }
    memset(p, 0, sizeof *p);
    p->name = name;
    p->type = d->type;
    p->cls = d->cls;
    p->arraylen = d->arraylen;
    p->ncomp = d->ncomp;
    p->count = val->n / (size_t)d->ncomp;
    if (want_strings) {
        p->s = rib_xmalloc(val->n * sizeof *p->s);
        for (size_t i = 0; i < val->n; i++)
            p->s[i] = rib_xstrdup(val->strs[i]);
    } else {
        p->f = rib_xmalloc(val->n * sizeof *p->f);
        for (size_t i = 0; i < val->n; i++)
            p->f[i] = rib_to_float(val->nums[i]);
    }
    return true;
}

static void read_params(RibCtx *c, const RibRequest *r, size_t pos,
                        const char *category, bool untyped_ok, RibParam **out,
                        size_t *n)
{
    RibParam *list = NULL;
    size_t count = 0, cap = 0;
    bool lost = false;  /* reported a stray value; skipping to a name */
    while (pos < r->nargs) {
        const RibArg *tok = &r->args[pos];
        if (tok->kind != RIB_ARG_STRING) {
            if (!lost)
                rib_error(c, tok->loc, "%s: expected a parameter name",
                          r->name);
            lost = true;
            pos++;
            continue;
        }
        lost = false;
        if (pos + 1 >= r->nargs) {
            rib_error(c, tok->loc, "%s: parameter \"%s\" has no value",
                      r->name, tok->strs[0]);
            break;
        }
        const RibArg *val = &r->args[pos + 1];
        pos += 2;
        RibDecl d;
        const char *name;
        RibParam p;
        bool untyped;
        if (!resolve(c, r, tok, category, val, untyped_ok, &d, &name, &untyped) ||
            !make_param(c, r, &d, name, val, &p))
            continue;
        p.untyped = untyped;
        /* A repeated name replaces the earlier value. */
        size_t i = 0;
        while (i < count && list[i].name != name)
            i++;
        if (i < count) {
            rib_param_clear(&list[i]);
            list[i] = p;
        } else {
            *RIB_PUSH(list, count, cap) = p;
        }
    }
    *out = list;
    *n = count;
}

void rib_params(RibCtx *c, const RibRequest *r, size_t pos,
                const char *category, RibParam **out, size_t *n)
{
    read_params(c, r, pos, category, false, out, n);
}

void rib_shader_params(RibCtx *c, const RibRequest *r, size_t pos,
                       RibParam **out, size_t *n)
{
    read_params(c, r, pos, NULL, true, out, n);
}

void rib_params_merge(RibCtx *c, RibParam **list, size_t *n, RibParam *add,
                      size_t nadd)
{
    if (nadd == 0) {
        free(add);
        return;
    }
    /* The old array may be shared by saved states: build a new one. */
    RibParam *out = rib_xmalloc((*n + nadd) * sizeof *out);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (!rib_param_find(add, nadd, (*list)[i].name))
            out[k++] = rib_param_copy(&(*list)[i]);
    memcpy(out + k, add, nadd * sizeof *add);
    k += nadd;
    free(add);
    *list = rib_store_params(c->store, out, k);
    *n = k;
}
