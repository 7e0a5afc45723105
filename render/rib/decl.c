/*
** decl.c: parameter declarations: parsing "[class] type[[n]] [name]"
** strings (Declare and inline declarations), the names RISpec predeclares,
** and the Option/Attribute names this reader knows ("category:name").
*/
#include <stdlib.h>
#include <string.h>

#include "render/rib/internal.h"

/* Array lengths beyond this are rejected, which keeps ncomp far from
   overflowing however many elements a parameter has. */
#define MAX_ARRAYLEN 65536

static const struct { const char *name; RibType type; int comps; } types[] = {
    {"float", RIB_TYPE_FLOAT, 1},   {"integer", RIB_TYPE_INTEGER, 1},
    {"int", RIB_TYPE_INTEGER, 1},   {"string", RIB_TYPE_STRING, 1},
    {"color", RIB_TYPE_COLOR, 3},   {"point", RIB_TYPE_POINT, 3},
    {"vector", RIB_TYPE_VECTOR, 3}, {"normal", RIB_TYPE_NORMAL, 3},
    {"hpoint", RIB_TYPE_HPOINT, 4}, {"matrix", RIB_TYPE_MATRIX, 16},
};

static const struct { const char *name; RibClass cls; } classes[] = {
    {"constant", RIB_CLASS_CONSTANT},       {"uniform", RIB_CLASS_UNIFORM},
    {"varying", RIB_CLASS_VARYING},         {"vertex", RIB_CLASS_VERTEX},
    {"facevarying", RIB_CLASS_FACEVARYING},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int rib_type_comps(RibType t)
{
    for (size_t i = 0; i < COUNT(types); i++)
        if (types[i].type == t)
            return types[i].comps;
    return 1;
}

const char *rib_type_name(RibType t)
{
    for (size_t i = 0; i < COUNT(types); i++)
        if (types[i].type == t)
            return types[i].name;
    return "?";
}

const char *rib_class_name(RibClass c)
{
    return classes[c].name;
}

/* The next whitespace-separated word of *s: its start and length. */
static size_t next_word(const char **s, const char **word)
{
    while (**s == ' ' || **s == '\t' || **s == '\n')
        (*s)++;
    *word = *s;
    while (**s && **s != ' ' && **s != '\t' && **s != '\n')
        (*s)++;
    return (size_t)(*s - *word);
}

static bool word_is(const char *w, size_t n, const char *name)
{
    return strlen(name) == n && strncmp(w, name, n) == 0;
}

/* "type", "type[n]" or "type [n]" starting at word w (length n). */
static bool parse_type(const char *w, size_t n, const char **rest,
                       RibDecl *d)
{
    size_t tn = 0;
    while (tn < n && w[tn] != '[')
        tn++;
    size_t i;
    for (i = 0; i < COUNT(types); i++)
        if (word_is(w, tn, types[i].name))
            break;
    if (i == COUNT(types))
        return false;
    d->type = types[i].type;
    d->arraylen = 0;
    /* An array suffix may follow the type directly or after a space. */
    const char *p = w + tn;
    if (tn == n) {
        const char *q = *rest;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '[')
            goto done;
        p = q;
    }
    p++;  /* '[' */
    long len = 0;
    if (*p < '0' || *p > '9')
        return false;
    while (*p >= '0' && *p <= '9' && len <= MAX_ARRAYLEN)
        len = len * 10 + (*p++ - '0');
    if (*p != ']' || len < 1 || len > MAX_ARRAYLEN)
        return false;
    d->arraylen = (int)len;
    *rest = p + 1;
done:
    d->ncomp = types[i].comps * (d->arraylen ? d->arraylen : 1);
    return true;
}

bool rib_decl_parse(const char *text, RibDecl *decl, const char **name,
                    size_t *namelen)
{
    const char *s = text, *w;
    size_t n = next_word(&s, &w);
    decl->cls = RIB_CLASS_UNIFORM;
    for (size_t i = 0; i < COUNT(classes); i++) {
        if (word_is(w, n, classes[i].name)) {
            decl->cls = classes[i].cls;
            n = next_word(&s, &w);
            break;
        }
    }
    if (!parse_type(w, n, &s, decl))
        return false;
    n = next_word(&s, &w);
    *name = n ? w : NULL;
    *namelen = n;
    const char *extra;
    return next_word(&s, &extra) == 0;
}

/* Names RISpec declares before any Declare: geometric primitive variables,
   the standard shaders' and displays' parameters. Then the Option/Attribute values
   this reader knows, keyed "category:name". */
static const char *const standard[][2] = {
    {"P", "vertex point"},       {"Pz", "vertex float"},
    {"Pw", "vertex hpoint"},     {"N", "varying normal"},
    {"Np", "uniform normal"},    {"Cs", "varying color"},
    {"Os", "varying color"},     {"s", "varying float"},
    {"t", "varying float"},      {"st", "varying float[2]"},
    {"width", "varying float"},  {"constantwidth", "constant float"},
    {"Ka", "float"},             {"Kd", "float"},
    {"Ks", "float"},             {"Kr", "float"},
    {"Km", "float"},             {"roughness", "float"},
    {"specularcolor", "color"},  {"texturename", "string"},
    {"shadowname", "string"},    {"intensity", "float"},
    {"lightcolor", "color"},     {"from", "point"},
    {"to", "point"},             {"coneangle", "float"},
    {"conedeltaangle", "float"}, {"beamdistribution", "float"},
    {"mindistance", "float"},    {"maxdistance", "float"},
    {"distance", "float"},       {"background", "color"},
    {"amplitude", "float"},      {"fov", "float"},
    {"origin", "integer[2]"},    {"sides", "integer"},
    /* Display's per-image quantization, as RIB exporters write it */
    {"quantize", "integer[4]"},  {"dither", "float"},
    {"searchpath:shader", "string"},   {"searchpath:texture", "string"},
    {"searchpath:archive", "string"},  {"searchpath:procedural", "string"},
    {"searchpath:display", "string"},  {"searchpath:resource", "string"},
    {"trace:maxdepth", "integer"},     {"trace:bias", "float"},
    /* BMRT's ray-traced shadows for the lights declared after it */
    {"light:shadows", "string"},
    /* BMRT's samples of an area light declared after it, per shading point */
    {"light:nsamples", "integer"},
    /* BMRT's: what a surface lets through to shadow rays */
    {"render:casts_shadows", "string"},
    /* rtrender's integrator (render/render.c) */
    {"integrator:name", "string"},     {"integrator:maxdepth", "integer"},
    {"trace:maxdiffusedepth", "integer"},
    {"trace:maxspeculardepth", "integer"},
    {"trace:displacements", "integer"},
    {"limits:bucketsize", "integer[2]"}, {"limits:gridsize", "integer"},
    {"limits:texturememory", "integer"}, {"limits:eyesplits", "integer"},
    {"statistics:endofframe", "integer"}, {"statistics:filename", "string"},
    {"identifier:name", "string"},
    {"visibility:camera", "integer"},  {"visibility:trace", "integer"},
    {"visibility:transmission", "integer"},
    {"visibility:diffuse", "integer"}, {"visibility:specular", "integer"},
    {"displacementbound:sphere", "float"},
    {"displacementbound:coordinatesystem", "string"},
};

void rib_decl_standard(RibMap *decls)
{
    for (size_t i = 0; i < COUNT(standard); i++) {
        RibDecl *d = rib_xmalloc(sizeof *d);
        const char *name;
        size_t len;
        rib_decl_parse(standard[i][1], d, &name, &len);
        free(rib_map_put(decls, standard[i][0], d));
    }
}
