/*
** shaders.c: finding, compiling and instancing the shaders a RIB file
** names. Code is loaded once per shader name (NAME.o from rslc, else
** NAME.sl compiled in-process) and shared; an instance is one request's
** parameter values, type-checked against the shader's parameters and
** moved into camera space the way RISpec says: points, vectors and
** normals given to a shader are in the shader's own space.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/compile.h"
#include "render/internal.h"
#include "vm/grid.h"

typedef struct Code {
    char *name;
    VmObject *obj;
} Code;

typedef struct Instance {
    const RibShader *rib;
    RShader *sh;
} Instance;

struct ShaderLib {
    bool debug;
    char **dirs;
    int ndirs;
    Code *code;
    int ncode;
    Instance *inst;
    int ninst;
};

ShaderLib *shaderlib_new(const char *path, bool debug)
{
    ShaderLib *lib = calloc(1, sizeof *lib);
    lib->debug = debug;
    char *copy = strdup(path ? path : ".");
    int n = 1;
    for (const char *p = copy; *p; p++)
        n += *p == ':';
    lib->dirs = calloc((size_t)n, sizeof *lib->dirs);
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
        lib->dirs[lib->ndirs++] = strdup(d);
    free(copy);
    return lib;
}

static void rshader_free(RShader *sh)
{
    for (int k = 0; k < sh->nbind; k++) {
        free(sh->bind[k].f);
        free(sh->bind[k].s);
    }
    free(sh->bind);
    free(sh);
}

void shaderlib_free(ShaderLib *lib)
{
    if (!lib)
        return;
    for (int i = 0; i < lib->ndirs; i++)
        free(lib->dirs[i]);
    for (int i = 0; i < lib->ncode; i++) {
        free(lib->code[i].name);
        vm_object_free(lib->code[i].obj);
    }
    for (int i = 0; i < lib->ninst; i++)
        rshader_free(lib->inst[i].sh);
    free(lib->dirs);
    free(lib->code);
    free(lib->inst);
    free(lib);
}

int shaderlib_ncode(const ShaderLib *lib)
{
    return lib->ncode;
}

VmObject *shaderlib_code(const ShaderLib *lib, int i)
{
    return lib->code[i].obj;
}

static const char *const kind_names[VM_NKINDS] = { "surface", "light", "displacement",
                                                   "volume", "imager" };

/* The code of shader `name`: from the cache, else NAME.o or NAME.sl on
   the path. -1 with a message if there is none or it does not build. */
static int find_code(ShaderLib *lib, const char *name, RibLoc at, char *err, int errlen)
{
    for (int i = 0; i < lib->ncode; i++)
        if (!strcmp(lib->code[i].name, name))
            return i;
    VmObject *obj = NULL;
    char file[4096], why[4200] = "";
    for (int d = 0; d < lib->ndirs && !obj && !why[0]; d++) {
        snprintf(file, sizeof file, "%s/%s.o", lib->dirs[d], name);
        if (access(file, R_OK) == 0) {
            obj = vm_object_read(file, why, sizeof why);
            continue;
        }
        snprintf(file, sizeof file, "%s/%s.sl", lib->dirs[d], name);
        if (access(file, R_OK) == 0 && !(obj = backend_compile_file(&(RslcCtx){ 0 }, file, lib->debug ? 0 : 2, NULL, 0, lib->debug)))
            snprintf(why, sizeof why, "%s does not compile (see the messages above)", file);
    }
    if (!obj) {
        if (why[0])
            snprintf(err, (size_t)errlen, "%s:%d:%d: error: shader \"%s\": %s", at.file, at.line,
                     at.col, name, why);
        else
            snprintf(err, (size_t)errlen,
                     "%s:%d:%d: error: shader \"%s\" not found (no %s.o or %s.sl on the shader "
                     "searchpath)",
                     at.file, at.line, at.col, name, name, name);
        return -1;
    }
    lib->code = realloc(lib->code, (size_t)(lib->ncode + 1) * sizeof *lib->code);
    lib->code[lib->ncode] = (Code){ strdup(name), obj };
    return lib->ncode++;
}

/* Whether a RIB value of type t may set a variable of type vt. */
static bool types_fit(RibType t, VmType vt)
{
    switch (vt) {
    case VM_T_FLOAT: return t == RIB_TYPE_FLOAT || t == RIB_TYPE_INTEGER;
    case VM_T_COLOR: return t == RIB_TYPE_COLOR;
    case VM_T_POINT: case VM_T_VECTOR: case VM_T_NORMAL:
        return t == RIB_TYPE_POINT || t == RIB_TYPE_VECTOR || t == RIB_TYPE_NORMAL;
    case VM_T_MATRIX: return t == RIB_TYPE_MATRIX;
    case VM_T_STRING: return t == RIB_TYPE_STRING;
    default: return false;
    }
}

/* "a float", "a color", ... for messages. */
static const char *rib_type_article(RibType t)
{
    static const char *const names[] = { "a float", "an integer", "a string", "a color",
                                         "a point", "a vector",   "a normal", "an hpoint",
                                         "a matrix" };
    return names[t];
}

static const char *vm_type_name(VmType t)
{
    static const char *const names[VM_NTYPES] = { "a float",  "a color",  "a point", "a vector",
                                                  "a normal", "a matrix", "a string" };
    return t < VM_NTYPES ? names[t] : "an unknown type";
}

/* One parameter's value, in camera space. false with a message if the
   types or sizes disagree. */
static bool bind_param(RShader *sh, const RibParam *p, const VmVar *var, char *err, int errlen)
{
    const RibShader *s = sh->rib;
    unsigned slots = vm_type_slots(var->type, var->arraylen);
    unsigned elems = var->arraylen ? var->arraylen : 1;
    size_t given = p->count * (size_t)p->ncomp;
    size_t want = var->type == VM_T_STRING ? elems : slots;
    bool fit = p->untyped ? (p->type == RIB_TYPE_STRING) == (var->type == VM_T_STRING)
                          : types_fit(p->type, var->type);
    if (!fit) {
        snprintf(err, (size_t)errlen,
                 "%s:%d:%d: error: shader \"%s\": parameter \"%s\" is %s here but %s%s in the "
                 "shader",
                 s->loc.file, s->loc.line, s->loc.col, s->name, p->name,
                 p->untyped && p->type != RIB_TYPE_STRING ? "a number" : rib_type_article(p->type),
                 vm_type_name(var->type), var->arraylen ? " array" : "");
        return false;
    }
    if (given != want) {
        snprintf(err, (size_t)errlen,
                 "%s:%d:%d: error: shader \"%s\": parameter \"%s\" has %zu value%s here but %zu in "
                 "the shader (%s%s)",
                 s->loc.file, s->loc.line, s->loc.col, s->name, p->name, given,
                 given == 1 ? "" : "s", want, vm_type_name(var->type),
                 var->arraylen ? " array" : "");
        return false;
    }
    RBinding *b = &sh->bind[sh->nbind++];
    b->var = var;
    b->given = vm_param_given_var(sh->obj, var->name);
    if (var->type == VM_T_STRING) {
        b->s = calloc(elems, sizeof *b->s);
        for (unsigned k = 0; k < elems; k++)
            b->s[k] = p->s[k];
        return true;
    }
    b->f = malloc(slots * sizeof *b->f);
    memcpy(b->f, p->f, slots * sizeof *b->f);
    for (unsigned e = 0; e < elems && var->type >= VM_T_POINT && var->type <= VM_T_NORMAL; e++) {
        float *v = b->f + 3 * e;
        if (var->type == VM_T_POINT) {
            rmat_point(&sh->to_camera, v, v);
        } else if (var->type == VM_T_VECTOR) {
            rmat_vector(&sh->to_camera, v, v);
        } else {
            double nm[9];
            if (rmat_normal_matrix(&sh->to_camera, nm))
                rmat_normal(nm, v, v);
        }
    }
    return true;
}

/* A light shader is ambient when it never sets L (no illuminate or
   solar). */
static bool sets_L(const VmObject *o)
{
    const VmVar *L = vm_find_var(o, "L");
    return L && (L->flags & VM_VAR_OUTPUT);
}

RShader *shaderlib_instance(ShaderLib *lib, const RibShader *s, VmShaderKind kind,
                            const RibMatrix *world_to_camera, char *err, int errlen)
{
    for (int i = 0; i < lib->ninst; i++)
        if (lib->inst[i].rib == s)
            return lib->inst[i].sh;
    int c = find_code(lib, s->name, s->loc, err, errlen);
    if (c < 0)
        return NULL;
    VmObject *obj = lib->code[c].obj;
    if (obj->kind != kind) {
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: \"%s\" is a %s shader, not a %s shader",
                 s->loc.file, s->loc.line, s->loc.col, s->name, kind_names[obj->kind],
                 kind_names[kind]);
        return NULL;
    }
    RShader *sh = calloc(1, sizeof *sh);
    sh->rib = s;
    sh->obj = obj;
    sh->code = c;
    sh->to_camera = rib_matrix_mul(&s->to_world, world_to_camera);
    sh->ambient = kind == VM_LIGHT && !sets_L(obj);
    static const char *const globals[RV_COUNT] = {
        "P", "N", "Ng", "I", "E", "dPdu", "dPdv", "Cs", "Os", "u", "v", "s", "t", "du", "dv",
        "ncomps", "Ci", "Oi", "L", "Cl", "Ol", "Ps", "alpha"
    };
    for (int k = 0; k < RV_COUNT; k++) {
        const VmVar *v = vm_find_var(obj, globals[k]);
        sh->var[k] = v && v->type != VM_T_STRING ? v : NULL;
    }
    sh->bind = calloc(s->nparams ? s->nparams : 1, sizeof *sh->bind);
    for (size_t i = 0; i < s->nparams; i++) {
        const RibParam *p = &s->params[i];
        const VmVar *var = NULL;
        for (uint32_t k = 0; k < obj->nparams && !var; k++)
            if (!strcmp(obj->params[k].name, p->name))
                var = &obj->params[k];
        if (!var) {
            fprintf(stderr, "%s:%d:%d: warning: shader \"%s\" has no parameter \"%s\"; ignored\n",
                    s->loc.file, s->loc.line, s->loc.col, s->name, p->name);
            continue;
        }
        if (!bind_param(sh, p, var, err, errlen)) {
            rshader_free(sh);
            return NULL;
        }
    }
    lib->inst = realloc(lib->inst, (size_t)(lib->ninst + 1) * sizeof *lib->inst);
    lib->inst[lib->ninst++] = (Instance){ s, sh };
    return sh;
}

void rshader_store(const RShader *sh, VmState *s, RVar g, const float *f, unsigned k, int n)
{
    if (sh->var[g])
        vm_var_store_lanes(s, sh->var[g], f, k, n);
}

void rshader_load(const RShader *sh, const VmState *s, RVar g, float *f, unsigned k, int n)
{
    if (sh->var[g])
        vm_var_load_lanes(s, sh->var[g], f, k, n);
    else
        memset(f, 0, (size_t)n * k * sizeof *f);
}

void rshader_bind(const RShader *sh, VmSession *ss, VmState *s)
{
    static const float one = 1;
    for (int k = 0; k < sh->nbind; k++) {
        const RBinding *b = &sh->bind[k];
        const VmVar *v = b->var;
        unsigned slots = vm_type_slots(v->type, v->arraylen);
        float *strings = NULL;
        const float *f = b->f;
        if (!f) {
            /* Strings are values of the session's own table. */
            strings = malloc(slots * sizeof *strings);
            for (unsigned e = 0; e < slots; e++)
                strings[e] = vm_string_value(vm_strings_intern(ss->strings, b->s[e]));
            f = strings;
        }
        for (int lane = 0; lane < ((v->reg & VM_V) ? s->n : 1); lane++)
            vm_var_store(s, v, f, slots, lane);
        free(strings);
        if (b->given)
            vm_var_store(s, b->given, &one, 1, 0);
    }
}
