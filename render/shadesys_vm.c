/*
** shadesys_vm.c: shadesys.h on the VM. It owns the shader library of a
** render: code built once per shader file (NAME.o from rslc, else NAME.sl
** compiled in-process) and shared; instances, each one request's
** parameter values, type-checked against the shader's parameters and
** moved into camera space the way RISpec says (points, vectors and
** normals given to a shader are in the shader's own space); and each
** thread's VM sessions, one per depth and code, in which batches run.
** A native ShadeSys is this one with native code for the shaders that
** have some (shadesys_native.h): it runs in the same sessions' registers,
** so instances, message passing and the debugger stay as they are.
**
** Instance specialisation. On a native ShadeSys, a shader compiled from
** source runs, for each instance, code compiled with the instance's
** constants folded in (rslc/specialize.c): the values it binds and the
** constant defaults it leaves, except parameters a primitive of the
** frame overrides. Such a variant is the VM object and native code of
** one compile, since native code reads the object's registers; so a
** batch that falls back to the VM runs the same specialised code.
** Instances with the same constants share a variant, and past
** SPEC_MAX_VARIANTS a shader's further instances share its generic one.
** The file's own object, compiled without native code, gives the
** parameters instances are checked against.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/compile.h"
#include "runtime/builtins.h"
#include "render/internal.h"
#include "render/shadesys_native.h"
#include "render/shadesys_spec.h"
#include "vm/debug.h"
#include "vm/grid.h"
#include "vm/session.h"

/* One RIB parameter value bound to a shader parameter, in camera space. */
typedef struct RBinding {
    const VmVar *var;
    const VmVar *given;    /* its hidden "__given_NAME" flag, or NULL
                              (vm_param_given, looked up once) */
    float *f;              /* vm_type_slots(var) floats, or NULL */
    const char **s;        /* var->arraylen or 1 strings, for strings */
} RBinding;

typedef struct VmShader {
    RShader base;          /* first: what the integrators see */
    VmObject *obj;         /* owned by the library, shared by instances */
    int code;              /* the object's index in the library */
    RBinding *bind;
    int nbind;
    const VmVar *var[RV_COUNT]; /* its globals, NULL where it has none */
} VmShader;

typedef struct Code {
    char *file;            /* where it came from: the library's key */
    VmObject *obj;
    VmOnce *once;          /* its run-time warnings, once for all threads */
    NativeShader *ns;      /* its native code (the NativeLib's), or NULL */
    bool source;           /* compiled from .sl here: variants can be made */
    /* A variant: the file's code (base) compiled with the constants
       whose InstanceSpec key this is (empty: generic). base -1: the
       file's own code, whose variants number nvariants (constants
       folded) and that noted capped once past SPEC_MAX_VARIANTS. */
    int base;
    char *key;
    size_t keylen;
    int nvariants;
    bool capped;
} Code;

typedef struct VmShadeSys {
    ShadeSys sys;          /* first: the interface */
    bool debug;
    NativeLib *native;     /* NULL: every shader on the VM */
    bool notes;            /* tell each shader's backend on stderr */
    Code *code;
    int ncode;
    VmShader **inst;
    int ninst;
    PrimvarNames primvars; /* of the frame being loaded */
} VmShadeSys;

/* Where one code runs at one depth of a thread. */
typedef struct Slot {
    VmSession vm;
    NativeSession native;  /* bound to vm, where native_ok */
    bool open;             /* opened lazily */
    bool native_ok;        /* the code's native compile finished well */
    int lanes;             /* the latest batch's size */
} Slot;

struct ShadeThread {
    VmShadeSys *lib;
    const VmHost *host;
    int maxdepth, ncode;   /* the code loaded when the thread began */
    const atomic_bool *stop;
    Slot *slot[RT_MAX_DEPTH + 1];          /* [depth][code] */
};

static const char *const kind_names[VM_NKINDS] = { "surface", "light", "displacement",
                                                   "volume", "imager" };

/* The object of the .sl at file, its #includes found along the
   include path too; with native, its native code in *ns (NULL: none)
   and spec's constants folded into both (what names them in notes).
   NULL after diagnostics. */
static VmObject *compile_source(VmShadeSys *lib, const char *file, bool native,
                                const IrSpec *spec, const char *what, NativeShader **ns)
{
    const char *inc = lib->sys.include_path ? lib->sys.include_path : "";
    size_t n = strlen(inc);
    char *buf = malloc(2 * n + 2), *q = buf;
    const char **args = malloc((n + 1) * sizeof *args);
    int nargs = 0;
    for (const char *d = inc; *d;) {
        size_t k = strcspn(d, ":");
        if (k > 0) {
            args[nargs++] = q;
            q += sprintf(q, "-I%.*s", (int)k, d) + 1;
        }
        d += k + (d[k] == ':');
    }
    CppOptions cpp = { args, nargs };
    *ns = NULL;
    VmObject *obj = native ? native_lib_compile(lib->native, lib->sys.code_cache, file, &cpp, spec,
                                                what, ns)
                           : backend_compile_file_cpp(&(RslcCtx){ 0 }, file, &cpp,
                                                           lib->debug ? 0 : 2, NULL, 0, lib->debug);
    free(args);
    free(buf);
    return obj;
}

/* The library's entry for the object in file: read or compiled the first
   time. -1 with the reason in why. */
static int build_code(VmShadeSys *lib, const char *file, bool compile, char *why, int whylen)
{
    for (int i = 0; i < lib->ncode; i++)
        if (lib->code[i].base < 0 && !strcmp(lib->code[i].file, file))
            return i;
    VmObject *obj;
    NativeShader *ns = NULL;
    if (!compile)
        obj = vm_object_read(file, why, whylen);
    else if (!(obj = compile_source(lib, file, false, NULL, "", &ns)))
        snprintf(why, (size_t)whylen, "%s does not compile (see the messages above)", file);
    if (!obj)
        return -1;
    if (!compile && lib->native)
        native_lib_bytecode_only(file);
    lib->code = realloc(lib->code, (size_t)(lib->ncode + 1) * sizeof *lib->code);
    lib->code[lib->ncode] = (Code){ .file = strdup(file), .obj = obj, .once = vm_once_new(),
                                    .ns = ns, .source = compile, .base = -1 };
    lib->sys.built++;
    return lib->ncode++;
}

/* The variant of file code c for the constants of is, compiled the first
   time (see the top; s: the instance's request, for notes). -1 with the
   reason in why. */
static int variant_code(VmShadeSys *lib, int c, InstanceSpec *is, const RibShader *s, char *why,
                        int whylen)
{
    if (is->spec.n && lib->code[c].nvariants >= SPEC_MAX_VARIANTS) {
        if (lib->notes && !lib->code[c].capped)
            fprintf(stderr, "%s:%d:%d: note: shader \"%s\" has more than %d distinct instances; "
                    "the others run its generic code\n", s->loc.file, s->loc.line, s->loc.col,
                    s->name, SPEC_MAX_VARIANTS);
        lib->code[c].capped = true;
        spec_free(is);
    }
    spec_key(is);
    for (int i = 0; i < lib->ncode; i++)
        if (lib->code[i].base == c && lib->code[i].keylen == is->keylen
            && !memcmp(lib->code[i].key, is->key, is->keylen))
            return i;
    char what[600] = "";
    if (is->spec.n)
        snprintf(what, sizeof what, " for the instance at %s:%d (%d constant%s)", s->loc.file,
                 s->loc.line, is->spec.n, is->spec.n == 1 ? "" : "s");
    NativeShader *ns = NULL;
    VmObject *obj = compile_source(lib, lib->code[c].file, true, is->spec.n ? &is->spec : NULL,
                                   what, &ns);
    if (!obj) {
        snprintf(why, (size_t)whylen, "%s does not compile for the instance (see the messages "
                 "above)", lib->code[c].file);
        return -1;
    }
    lib->sys.native_built = native_lib_compiled(lib->native);
    lib->sys.native_loaded = native_lib_loaded(lib->native);
    lib->sys.specialised += is->spec.n > 0;
    lib->code[c].nvariants += is->spec.n > 0;
    lib->code = realloc(lib->code, (size_t)(lib->ncode + 1) * sizeof *lib->code);
    lib->code[lib->ncode] = (Code){ .file = strdup(lib->code[c].file), .obj = obj,
                                    .once = vm_once_new(), .ns = ns, .source = true, .base = c,
                                    .key = is->key, .keylen = is->keylen };
    is->key = NULL;
    return lib->ncode++;
}

/* The code of shader `name`: NAME.o or NAME.sl in the first directory of
   path that has one. -1 with a message if there is none or it does not
   build. */
static int find_code(VmShadeSys *lib, const char *name, const char *path, RibLoc at, char *err,
                     int errlen)
{
    char *dirs = strdup(path ? path : "."), file[4096], why[4200] = "";
    int c = -1;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && c < 0 && !why[0];
         d = strtok_r(NULL, ":", &save)) {
        snprintf(file, sizeof file, "%s/%s.o", d, name);
        if (access(file, R_OK) == 0) {
            c = build_code(lib, file, false, why, sizeof why);
            continue;
        }
        snprintf(file, sizeof file, "%s/%s.sl", d, name);
        if (access(file, R_OK) == 0)
            c = build_code(lib, file, true, why, sizeof why);
    }
    free(dirs);
    if (c < 0 && why[0])
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: shader \"%s\": %s", at.file, at.line,
                 at.col, name, why);
    else if (c < 0)
        snprintf(err, (size_t)errlen,
                 "%s:%d:%d: error: shader \"%s\" not found (no %s.o or %s.sl on the shader "
                 "searchpath)",
                 at.file, at.line, at.col, name, name, name);
    return c;
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
static bool bind_param(VmShader *sh, const RibParam *p, const VmVar *var, char *err, int errlen)
{
    const RibShader *s = sh->base.rib;
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
            rmat_point(&sh->base.to_camera, v, v);
        } else if (var->type == VM_T_VECTOR) {
            rmat_vector(&sh->base.to_camera, v, v);
        } else {
            double nm[9];
            if (rmat_normal_matrix(&sh->base.to_camera, nm))
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

static void instance_free(VmShader *sh)
{
    for (int k = 0; k < sh->nbind; k++) {
        free(sh->bind[k].f);
        free(sh->bind[k].s);
    }
    free(sh->bind);
    free(sh);
}

/* What the integrators see of sh's code: its globals, whether a light
   is ambient or solar only, whether it asks for lights. */
static void find_globals(VmShader *sh)
{
    static const char *const globals[RV_COUNT] = {
        "P", "N", "Ng", "I", "E", "dPdu", "dPdv", "Cs", "Os", "u", "v", "s", "t", "du", "dv",
        "ncomps", "Ci", "Oi", "L", "Cl", "Ol", "Ps", "alpha", "Ns"
    };
    const VmObject *obj = sh->obj;
    sh->base.ambient = sh->base.kind == VM_LIGHT && !sets_L(obj);
    for (int k = 0; k < RV_COUNT; k++) {
        const VmVar *v = vm_find_var(obj, globals[k]);
        sh->var[k] = v && v->type != VM_T_STRING ? v : NULL;
        sh->base.has[k] = sh->var[k] != NULL;
    }
    bool illuminates = false;
    for (uint32_t k = 0; k < obj->prog.nbuiltins; k++) {
        int fn = obj->callees[k].row < BO_COUNT ? (int)builtin_rows[obj->callees[k].row].fn : -1;
        sh->base.asks_lights |= fn == BI_LIGHTSOURCE;
        sh->base.solar |= fn == BI_SOLAR;
        illuminates |= fn == BI_ILLUMINATE;
    }
    sh->base.solar &= !illuminates;
    /* Lowering turns every derivative a builtin needs into DERIV
       instructions or reads of du and dv (runtime/builtins.def's
       implicit arguments), and the words after an instruction are X
       words, so a DERIV opcode anywhere is one. */
    sh->base.takes_derivs = sh->base.has[RV_du] || sh->base.has[RV_dv];
    for (uint32_t pc = 0; pc < obj->prog.ncode; pc++)
        sh->base.takes_derivs |= vm_op(obj->prog.code[pc]) == VM_OP_DERIV;
}

/* The value parameter v of o starts with: its default, or 0 where it
   has none (a computed default is set by the code). */
static void param_default(const VmObject *o, const VmVar *v, float *value)
{
    unsigned slots = vm_type_slots(v->type, v->arraylen);
    for (unsigned j = 0; j < slots; j++) {
        unsigned r = (v->reg & ~VM_V) + j;
        value[j] = 0;
        if (!(v->reg & VM_V) && r < o->prog.nuniform)
            value[j] = o->prog.uniform_init[r];
        for (uint32_t i = 0; (v->reg & VM_V) && i < o->prog.nvarying_init; i++)
            if (o->prog.varying_init[i].slot == r)
                value[j] = o->prog.varying_init[i].value;
    }
}

/* The binding of parameter v in sh, or NULL. */
static const RBinding *binding_of(const VmShader *sh, const VmVar *v)
{
    for (int k = 0; k < sh->nbind; k++)
        if (sh->bind[k].var == v)
            return &sh->bind[k];
    return NULL;
}

/* The constants of instance sh (bound to its file's own code): each
   input's bound value, else its constant default; not those a primitive
   of the frame overrides (none when the frame is not known), nor string
   arrays, nor defaults computed when the shader runs. */
static void instance_spec(VmShadeSys *lib, const VmShader *sh, InstanceSpec *is)
{
    const VmObject *o = sh->obj;
    const RibFrame *f = lib->sys.frame;
    for (uint32_t k = 0; f && k < o->nparams; k++) {
        const VmVar *v = &o->params[k];
        if ((v->flags & VM_VAR_OUTPUT) || !strncmp(v->name, "__given_", 8)
            || (v->type == VM_T_STRING && v->arraylen)
            || primvar_names_has(&lib->primvars, f, v->name))
            continue;
        const RBinding *b = binding_of(sh, v);
        if (b) {
            spec_add(is, v, b->f, b->s ? b->s[0] : NULL);
        } else if (!vm_param_given_var(o, v->name)) {
            float *value = malloc(vm_type_slots(v->type, v->arraylen) * sizeof *value);
            param_default(o, v, value);
            uint32_t i = vm_string_index(value[0]);
            spec_add(is, v, value, v->type != VM_T_STRING ? NULL
                                   : i < o->prog.nstrings ? o->prog.strings[i] : "");
            free(value);
        }
    }
}

/* Moves instance sh, bound to its file's own code, to the variant for
   its constants, and its bindings to that object's parameters. 0, or -1
   with err. */
static int specialise(VmShadeSys *lib, VmShader *sh, char *err, int errlen)
{
    const RibShader *s = sh->base.rib;
    InstanceSpec is = { 0 };
    char why[4200] = "";
    instance_spec(lib, sh, &is);
    int v = variant_code(lib, sh->code, &is, s, why, sizeof why);
    spec_free(&is);
    if (v < 0) {
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: shader \"%s\": %s", s->loc.file,
                 s->loc.line, s->loc.col, s->name, why);
        return -1;
    }
    sh->code = v;
    sh->obj = lib->code[v].obj;
    for (int k = 0; k < sh->nbind; k++) {
        RBinding *b = &sh->bind[k];
        b->var = vm_find_var(sh->obj, b->var->name);
        b->given = vm_param_given_var(sh->obj, b->var->name);
    }
    return 0;
}

static const RShader *vmsys_find(const ShadeSys *sys, const RibShader *s,
                              const RibMatrix *world_to_camera)
{
    const VmShadeSys *lib = (const VmShadeSys *)sys;
    RibMatrix to_camera = rib_matrix_mul(&s->to_world, world_to_camera);
    for (int i = 0; i < lib->ninst; i++)
        if (lib->inst[i]->base.rib == s
            && !memcmp(&lib->inst[i]->base.to_camera, &to_camera, sizeof to_camera))
            return &lib->inst[i]->base;
    return NULL;
}

static const RShader *vmsys_load(ShadeSys *sys, const RibShader *s, VmShaderKind kind,
                              const char *searchpath, const RibMatrix *world_to_camera, char *err,
                              int errlen)
{
    VmShadeSys *lib = (VmShadeSys *)sys;
    const RShader *found = vmsys_find(sys, s, world_to_camera);
    if (found)
        return found;
    int c = find_code(lib, s->name, searchpath, s->loc, err, errlen);
    if (c < 0)
        return NULL;
    VmObject *obj = lib->code[c].obj;
    if (obj->kind != kind) {
        snprintf(err, (size_t)errlen, "%s:%d:%d: error: \"%s\" is a %s shader, not a %s shader",
                 s->loc.file, s->loc.line, s->loc.col, s->name, kind_names[obj->kind],
                 kind_names[kind]);
        return NULL;
    }
    VmShader *sh = calloc(1, sizeof *sh);
    sh->base.rib = s;
    sh->base.kind = kind;
    sh->base.to_camera = rib_matrix_mul(&s->to_world, world_to_camera);
    sh->obj = obj;
    sh->code = c;
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
            instance_free(sh);
            return NULL;
        }
    }
    if (lib->native && lib->code[c].source && specialise(lib, sh, err, errlen) < 0) {
        instance_free(sh);
        return NULL;
    }
    find_globals(sh);
    lib->inst = realloc(lib->inst, (size_t)(lib->ninst + 1) * sizeof *lib->inst);
    lib->inst[lib->ninst++] = sh;
    return &sh->base;
}

static ShadeThread *vmsys_thread_new(ShadeSys *sys, const VmHost *host, int maxdepth,
                                     const atomic_bool *stop)
{
    ShadeThread *t = calloc(1, sizeof *t);
    t->lib = (VmShadeSys *)sys;
    t->host = host;
    t->stop = stop;
    t->maxdepth = maxdepth;
    t->ncode = t->lib->ncode;
    for (int d = 0; d <= maxdepth; d++)
        t->slot[d] = calloc((size_t)(t->ncode ? t->ncode : 1), sizeof **t->slot);
    return t;
}

static void vmsys_thread_free(ShadeThread *t)
{
    for (int d = 0; d <= t->maxdepth; d++) {
        for (int i = 0; i < t->ncode; i++)
            if (t->slot[d][i].open) {
                if (t->slot[d][i].native_ok)
                    native_session_close(&t->slot[d][i].native);
                vm_session_close(&t->slot[d][i].vm);
            }
        free(t->slot[d]);
    }
    free(t);
}

/* The slot of sh's code at depth, its sessions opened on first use. */
static int open_slot(ShadeThread *t, int depth, const VmShader *sh, Slot **out, char *err,
                     int errlen)
{
    Slot *slot = &t->slot[depth][sh->code];
    const Code *code = &t->lib->code[sh->code];
    if (!slot->open) {
        VmSession *ss = &slot->vm;
        if (vm_session_open(ss, sh->obj, t->host, VM_MAX_BATCH, err, errlen) < 0)
            return -1;
        ss->max_steps = t->lib->sys.max_steps;
        ss->stop = t->stop;
        ss->program = "rtrender";
        if (code->once)
            vm_session_share_once(ss, code->once);
        /* A compile that failed (told once, where it finished) leaves
           the code to the VM: no session, and no native try per batch. */
        slot->native_ok = code->ns && native_finish(code->ns);
        if (slot->native_ok && native_session_open(&slot->native, code->ns, ss, t->host, err, errlen)) {
            vm_session_close(ss);
            return -1;
        }
        slot->open = true;
    }
    *out = slot;
    return 0;
}

/* Stores an instance's parameter values in a batch. */
static void bind_params(const VmShader *sh, VmSession *ss, VmState *s)
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

/* Primitive variables named like the shader's parameters set them. */
static void store_primvars(const VmShader *sh, VmState *s, const ShadeBatch *b)
{
    const RibMesh *m = b->mesh;
    const VmObject *o = sh->obj;
    for (size_t i = 0; i < m->nprimvars; i++) {
        const RibPrimvar *pv = &m->primvars[i];
        const VmVar *v = NULL;
        for (uint32_t k = 0; k < o->nparams && !v; k++)
            if (!strcmp(o->params[k].name, pv->p.name))
                v = &o->params[k];
        if (!v || !pv->p.f || v->type == VM_T_STRING
            || vm_type_slots(v->type, v->arraylen) != (unsigned)pv->p.ncomp)
            continue;
        for (int l = 0; l < ((v->reg & VM_V) ? b->n : 1); l++) {
            float val[VM_MAX_VALUE];
            primvar_at(pv, &b->hits[l], m->tris + 3 * (size_t)b->hits[l].prim, val);
            if (v->type == VM_T_POINT)
                rmat_point(&b->look->to_camera, val, val);
            else if (v->type == VM_T_VECTOR)
                rmat_vector(&b->look->to_camera, val, val);
            else if (v->type == VM_T_NORMAL)
                rmat_normal(b->look->normal, val, val);
            vm_var_store(s, v, val, (unsigned)pv->p.ncomp, l);
        }
        vm_param_given(o, s, v->name);
    }
}

/* Readies a run of sh over batch b on session ss. */
static void prepare(const VmShader *sh, VmSession *ss, const ShadeBatch *b, VmState *s)
{
    static const float three = 3;
    vm_session_batch(ss, s, b->n);
    bind_params(sh, ss, s);
    for (int g = 0; g < RV_COUNT; g++)
        if (b->in[g] && sh->var[g])
            vm_var_store_lanes(s, sh->var[g], b->in[g], rvar_width((RVar)g), b->n);
    /* Colors have three components, always. */
    if (sh->var[RV_ncomps])
        vm_var_store(s, sh->var[RV_ncomps], &three, 1, 0);
    if (b->mesh)
        store_primvars(sh, s, b);
    for (int l = 0; l < b->n; l++)
        s->random_seed[l] = b->seed[l];
    s->deriv = b->deriv;
}

/* The loop iterations a batch may run in native code before it runs
   again on the VM: about a hundredth of a second. */
enum { NATIVE_SLICE = 1 << 20 };

/* Runs batch b, prepared in s, in sh's native code. Native code checks a
   budget of loop iterations but not the stop flag, and its faults name
   no line; so a batch that runs past NATIVE_SLICE iterations (or the
   step budget, if less) or faults runs again from the start on the VM,
   which checks the flag as it goes and names the line of a fault or of
   a runaway loop. */
static int run_native(const VmShader *sh, Slot *slot, const ShadeBatch *b, VmState *s, char *err,
                      int errlen)
{
    if (!s->max_steps || s->max_steps > NATIVE_SLICE)
        s->max_steps = NATIVE_SLICE;
    if (native_session_run(&slot->native, s, err, errlen) == 0)
        return 0;
    prepare(sh, &slot->vm, b, s);
    return vm_session_run(&slot->vm, s, err, errlen);
}

static int vmsys_run(ShadeThread *t, int depth, const RShader *base, const ShadeBatch *b, char *err,
                  int errlen)
{
    const VmShader *sh = (const VmShader *)base;
    Slot *slot;
    VmState s;
    if (open_slot(t, depth, sh, &slot, err, errlen) < 0)
        return -1;
    prepare(sh, &slot->vm, b, &s);
    slot->lanes = b->n;
    if ((slot->native_ok ? run_native(sh, slot, b, &s, err, errlen)
                                   : vm_session_run(&slot->vm, &s, err, errlen)) < 0)
        return -1;
    for (int g = 0; g < RV_COUNT; g++) {
        unsigned k = rvar_width((RVar)g);
        if (b->out[g] && sh->var[g])
            vm_var_load_lanes(&s, sh->var[g], b->out[g], k, b->n);
        else if (b->out[g] && b->in[g])
            memmove(b->out[g], b->in[g], (size_t)b->n * k * sizeof *b->out[g]);
        else if (b->out[g])
            memset(b->out[g], 0, (size_t)b->n * k * sizeof *b->out[g]);
    }
    return 0;
}

/* What rsldb needs to run a batch again and again. */
typedef struct DebugBatch {
    const VmShader *sh;
    const ShadeBatch *b;
} DebugBatch;

static bool debug_fill(VmSession *ss, VmState *s, int batch, void *data)
{
    const DebugBatch *d = data;
    if (batch > 0)
        return false;
    prepare(d->sh, ss, d->b, s);
    return true;
}

static int vmsys_debug(ShadeThread *t, int depth, const RShader *base, const ShadeBatch *b, int lane,
                    char *err, int errlen)
{
    const VmShader *sh = (const VmShader *)base;
    Slot *slot;
    if (open_slot(t, depth, sh, &slot, err, errlen) < 0)
        return -1;
    Rsldb *db = rsldb_attach(&slot->vm, stdin, stdout, err, errlen);
    if (!db)
        return -1;
    rsldb_select_lane(db, lane);
    printf("rtrender: the pixel is lane %d of %d shaded by \"%s\" (%s:%d); rsldb commands "
           "follow ('help' lists them)\n",
           lane, b->n, base->rib->name, base->rib->loc.file, base->rib->loc.line);
    fflush(stdout);
    DebugBatch d = { sh, b };
    rsldb_repl(db, debug_fill, &d);
    rsldb_free(db);
    return 0;
}

/* ---- message passing -------------------------------------------------------- */

/* Whether a variable of type vt answers a request for type letter c. */
static bool param_fits(VmType vt, char c)
{
    switch (vt) {
    case VM_T_FLOAT: return c == 'f';
    case VM_T_COLOR: return c == 'c';
    case VM_T_POINT: case VM_T_VECTOR: case VM_T_NORMAL: return c == 'p' || c == 'v' || c == 'n';
    case VM_T_MATRIX: return c == 'm';
    case VM_T_STRING: return c == 's';
    default: return false;
    }
}

/* The floats a saved copy takes: the lane count, then per parameter its
   slots (uniform) or slots for every lane (varying, lane by lane). */
static size_t saved_size(const VmObject *o, int n)
{
    size_t total = 1;
    for (uint32_t k = 0; k < o->nparams; k++)
        total += vm_type_slots(o->params[k].type, o->params[k].arraylen)
                 * (size_t)((o->params[k].reg & VM_V) ? n : 1);
    return total;
}

static size_t vmsys_param_size(ShadeThread *t, int depth, const RShader *base)
{
    const VmShader *sh = (const VmShader *)base;
    return saved_size(sh->obj, t->slot[depth][sh->code].lanes);
}

/* The state of sh's latest run at depth (its session's registers). */
static VmState latest(ShadeThread *t, int depth, const VmShader *sh)
{
    const Slot *slot = &t->slot[depth][sh->code];
    return (VmState){ .n = slot->lanes, .U = slot->vm.U, .V = slot->vm.V };
}

static void vmsys_param_save(ShadeThread *t, int depth, const RShader *base, float *to)
{
    const VmShader *sh = (const VmShader *)base;
    const VmObject *o = sh->obj;
    VmState s = latest(t, depth, sh);
    *to++ = (float)s.n;
    for (uint32_t k = 0; k < o->nparams; k++) {
        const VmVar *v = &o->params[k];
        unsigned slots = vm_type_slots(v->type, v->arraylen);
        for (int l = 0; l < ((v->reg & VM_V) ? s.n : 1); l++)
            for (unsigned j = 0; j < slots; j++)
                *to++ = t->slot[depth][sh->code].open ? vm_var_load(&s, v, j, l) : 0;
    }
}

static int vmsys_param(ShadeThread *t, int depth, const RShader *base, const float *from, bool ran,
                       const char *name, char type, int n, int lane, float *out, const char **str)
{
    const VmShader *sh = (const VmShader *)base;
    const VmObject *o = sh->obj;
    const VmVar *v = NULL;
    size_t at = 1;
    const Slot *slot = &t->slot[depth][sh->code];
    int lanes = from ? (int)from[0] : slot->lanes;
    for (uint32_t k = 0; k < o->nparams && !v; k++) {
        const VmVar *p = &o->params[k];
        unsigned slots = vm_type_slots(p->type, p->arraylen);
        if (!strcmp(p->name, name))
            v = p;
        else
            at += slots * (size_t)((p->reg & VM_V) ? lanes : 1);
    }
    unsigned slots = v ? vm_type_slots(v->type, v->arraylen) : 0;
    if (!v || !param_fits(v->type, type) || (int)slots != n)
        return 0;
    bool live = !from && ran && slot->open && lane < lanes;
    float value[VM_MAX_VALUE];
    const char *const *given = NULL;
    if (from) {
        int l = (v->reg & VM_V) && lane < lanes ? lane : 0;
        memcpy(value, from + at + (size_t)l * slots, slots * sizeof *value);
    } else if (live) {
        VmState s = latest(t, depth, sh);
        for (unsigned j = 0; j < slots; j++)
            value[j] = vm_var_load(&s, v, j, (v->reg & VM_V) ? lane : 0);
    } else {
        /* Not run yet: the instance's value, else the default the object
           starts its registers with. */
        const RBinding *b = binding_of(sh, v);
        if (b && b->f)
            memcpy(value, b->f, slots * sizeof *value);
        else if (b)
            given = b->s;
        else
            param_default(o, v, value);
        if (type == 's' && !given) {
            uint32_t i = vm_string_index(value[0]);
            *str = i < o->prog.nstrings ? o->prog.strings[i] : "";
            return 1;
        }
    }
    if (type == 's')
        *str = given ? given[0] : vm_strings_get(slot->vm.strings, vm_string_index(value[0]));
    else
        memcpy(out, value, slots * sizeof *out);
    return 1;
}

static void vmsys_free(ShadeSys *sys)
{
    VmShadeSys *lib = (VmShadeSys *)sys;
    for (int i = 0; i < lib->ncode; i++) {
        free(lib->code[i].file);
        free(lib->code[i].key);
        vm_object_free(lib->code[i].obj);
        vm_once_free(lib->code[i].once);
    }
    for (int i = 0; i < lib->ninst; i++)
        instance_free(lib->inst[i]);
    native_lib_free(lib->native);
    primvar_names_free(&lib->primvars);
    free(lib->code);
    free(lib->inst);
    free(lib);
}

ShadeSys *shadesys_vm_new(bool debug)
{
    VmShadeSys *lib = calloc(1, sizeof *lib);
    lib->sys = (ShadeSys){ .load = vmsys_load, .find = vmsys_find, .thread_new = vmsys_thread_new,
                           .thread_free = vmsys_thread_free, .run = vmsys_run,
                           .debug = vmsys_debug, .param = vmsys_param,
                           .param_size = vmsys_param_size, .param_save = vmsys_param_save,
                           .free = vmsys_free, .max_steps = VM_DEFAULT_MAX_STEPS };
    lib->debug = debug;
    return &lib->sys;
}

ShadeSys *shadesys_native_new(NativeIsa isa, bool notes, int threads)
{
    ShadeSys *sys = shadesys_vm_new(false);
    ((VmShadeSys *)sys)->native = native_lib_new(isa, notes, threads);
    ((VmShadeSys *)sys)->notes = notes;
    return sys;
}
